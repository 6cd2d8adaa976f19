// What the client takes from a server before it stops reading. Each bound is per message (a JSON
// body, one SSE event, one stdio line), so memory stays bounded however long a stream runs; an
// overflow fails that request alone (a LimitError), never the process.

export interface Limits {
  /** The largest JSON body, SSE event or stdio line the client reads, in bytes. Default 4 MiB. */
  maxMessageBytes: number;
  /**
   * The most one list (tools/list and its kin) takes over all its pages, in bytes: each page is bounded by
   * maxMessageBytes, but a server can send page after page. Default 16 MiB: four pages of the largest message.
   */
  maxListBytes: number;
}

export const DEFAULT_LIMITS: Limits = { maxMessageBytes: 4 * 1024 * 1024, maxListBytes: 16 * 1024 * 1024 };

/** The deepest a listed tool may nest (its schemas, annotations, _meta): no tool needs more, and code after the list walks them. */
export const MAX_TOOL_DEPTH = 64;

/**
 * About how many bytes a parsed JSON value took on the wire (strings in UTF-16 units, no whitespace), and how deep it
 * nests. Without recursion: a value may nest as deep as its message is long.
 */
export function weigh(value: unknown): { bytes: number; depth: number } {
  let bytes = 0;
  let depth = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, at] = stack.pop()!;
    if (node === null || typeof node !== 'object') {
      bytes += typeof node === 'string' ? node.length + 2 : String(node).length;
      continue;
    }
    depth = Math.max(depth, at + 1);
    for (const [key, child] of Object.entries(node)) {
      bytes += key.length + 4;
      stack.push([child, at + 1]);
    }
  }
  return { bytes, depth };
}
