// Suggestions for a mistyped name: the closest candidate by edit distance, if it is close enough to
// be a typo rather than a different word.

function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  // A third of the name, at least 2: "sumarise_wek" finds summarise_week, "foo" does not find "bar". Changing every
  // letter of a word is no typo: "x" does not find "a", nor "b" find "ab".
  const allowed = Math.max(2, Math.floor(name.length / 3));
  if (best !== undefined && bestDistance <= allowed && bestDistance < Math.min(name.length, best.length)) return best;
  // A part of a name, long enough to mean something: "week" finds summarise_week.
  return name.length >= 3 ? candidates.find((candidate) => candidate.toLowerCase().includes(name.toLowerCase())) : undefined;
}

/** " (did you mean X?)", or nothing. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const match = closest(name, candidates);
  return match === undefined ? '' : ` (did you mean ${match}?)`;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
