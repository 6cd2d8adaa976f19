// What byhand prints of a server's data is cut at a depth. The client takes any nesting its byte bound admits
// (JSON.parse does not recurse), but JSON.stringify and the printers do: a result nested 100,000 deep would
// end the command with "Maximum call stack size exceeded" instead of showing it. Each cut is marked in place,
// and the first one's path is named, so a reader knows the output is not the whole value.

/** How many levels of arrays and objects byhand prints; deeper ones become CUT_MARK. */
export const MAX_PRINT_DEPTH = 100;

export const CUT_MARK = `[cut: nested deeper than ${MAX_PRINT_DEPTH} levels]`;

export interface DepthBounded<T> {
  value: T;
  /** How many values were cut. */
  cuts: number;
  /** Where the first cut is, as a JSONPath ($.structuredContent.a[0]…). */
  firstCut?: string;
}

/** The value as is when it nests no deeper than `max`; otherwise a copy with every deeper container replaced by CUT_MARK. */
export function boundDepth<T>(value: T, max = MAX_PRINT_DEPTH): DepthBounded<T> {
  const path: string[] = [];
  const found: { cuts: number; firstCut?: string } = { cuts: 0 };
  // The walk recurses at most `max` levels, so it cannot overflow the stack itself.
  const walk = (node: unknown, depth: number): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (depth >= max) {
      if (found.cuts++ === 0) found.firstCut = `$${pathText(path)}`;
      return CUT_MARK;
    }
    const step = (key: string, child: unknown) => {
      path.push(key);
      const out = walk(child, depth + 1);
      path.pop();
      return out;
    };
    if (Array.isArray(node)) return node.map((child, i) => step(`[${i}]`, child));
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, step(/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`, child)]));
  };
  const copy = walk(value, 0) as T;
  return found.cuts === 0 ? { value, cuts: 0 } : { value: copy, ...found };
}

/** The steps of a path, a run of one step repeated written once with its count: `.a(×99)`. */
function pathText(steps: string[]): string {
  let out = '';
  for (let i = 0; i < steps.length; ) {
    let run = 1;
    while (steps[i + run] === steps[i]) run++;
    out += run > 3 ? `${steps[i]}(×${run})` : steps.slice(i, i + run).join('');
    i += run;
  }
  return out;
}

/** The notice for stderr when something was cut, else undefined. */
export function cutNotice(what: string, bounded: DepthBounded<unknown>): string | undefined {
  if (bounded.cuts === 0) return undefined;
  return `${what} nests deeper than ${MAX_PRINT_DEPTH} levels: ${bounded.cuts === 1 ? 'one value' : `${bounded.cuts} values`} cut, marked "${CUT_MARK}"; the first at ${bounded.firstCut}`;
}
