// The runs of one benchmark combined: every figure as its median over the runs, the lowest and highest
// beside it, and every target read on the median. A run is a Section (lib.js); all runs of a benchmark
// have the same rows, since only the figures in them are measured.

import { median } from './lib.js';
/** @import { Cell, Figure, Goal, Section } from './lib.js' */

/**
 * @typedef {{ title: string, header: string[], rows: string[][], targets: string[], notes: string[], seconds: number, runs: number }} Combined
 */

/**
 * @param {Figure[]} figures the same figure from each run
 * @returns {{ text: string, value: number }}
 */
function combineFigures(figures) {
  const values = figures.map((f) => f.value).filter((v) => Number.isFinite(v));
  if (values.length === 0) return { text: '', value: NaN };
  const { format } = figures[0];
  const mid = median(values);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const text = format(mid);
  if (values.length === 1 || format(low) === format(high)) return { text, value: mid };
  // The unit once: "0.31 ms (0.19–0.45)".
  const unit = /[^\d.,]*$/.exec(text)?.[0] ?? '';
  const bare = (/** @type {number} */ v) => (unit && format(v).endsWith(unit) ? format(v).slice(0, -unit.length) : format(v));
  return { text: `${text} (${bare(low)}–${bare(high)})`, value: mid };
}

/**
 * @param {Cell[]} cells the same cell from each run
 */
function combineCell(cells) {
  const [first] = cells;
  if (typeof first === 'string') return first;
  return combineFigures(/** @type {Figure[]} */ (cells)).text;
}

/**
 * @param {Section[]} runs every run of one benchmark, in the order they ran
 * @returns {Combined}
 */
export function combineRuns(runs) {
  const [first] = runs;
  for (const run of runs) {
    if (run.rows.length !== first.rows.length || (run.goals?.length ?? 0) !== (first.goals?.length ?? 0)) {
      throw new Error(`${first.title}: the runs do not have the same rows`);
    }
  }
  const rows = first.rows.map((row, i) => row.map((_, j) => combineCell(runs.map((run) => run.rows[i][j]))));
  const targets = (first.goals ?? []).map((goal, i) => {
    const { text, value } = combineFigures(runs.map((run) => /** @type {Goal[]} */ (run.goals)[i].figure));
    const verdict = Number.isFinite(value) ? (goal.met(value) ? 'met' : 'NOT met') : 'not measured';
    return `${goal.label}: ${verdict}, ${text}${goal.note ? `; ${goal.note}` : ''}`;
  });
  return {
    title: first.title,
    header: first.header,
    rows,
    targets,
    notes: first.notes ?? [],
    seconds: runs.reduce((sum, run) => sum + run.seconds, 0),
    runs: runs.length,
  };
}
