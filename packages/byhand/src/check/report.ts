// The report a person reads: the problems first (errors, then warnings), each with its id (for --accept) and what was
// sent, what came back, why it matters and the fix; then the tools called and the one-line summary. The passes and
// skips, by area, are behind --verbose. Everything a server said is made printable and redacted first (fail.ts's rule).

import { redactText } from '@byhand/client';
import { printable } from '@byhand/host';
import type { Accepted } from './baseline.js';
import { AREAS, AREA_TITLES, counts, type Finding, type Status } from './finding.js';

const MARK: Record<Status, string> = { pass: '✓', warn: '!', error: '✗', skip: '-' };
/** Shown whatever the verbosity: what check did to the server. */
const ALWAYS = new Set(['tools.called', 'tools.not-called']);

export const safe = (text: string) => printable(redactText(text));

function detail(f: Finding, indent: string): string[] {
  const lines: string[] = [];
  if (f.sent) lines.push(`${indent}sent: ${safe(f.sent)}`);
  if (f.got) lines.push(`${indent}got:  ${safe(f.got)}`);
  if (f.why) lines.push(`${indent}why:  ${safe(f.why)}`);
  if (f.fix) lines.push(`${indent}fix:  ${safe(f.fix)}`);
  return lines;
}

export function reportText(server: string, outcome: Accepted, options: { verbose: boolean; strict: boolean }): string {
  const { findings } = outcome;
  const lines = [`byhand check ${safe(server)}`];
  const problems = [...findings.filter((f) => f.status === 'error'), ...findings.filter((f) => f.status === 'warn' && f.accepted !== true)];
  if (problems.length > 0) lines.push('');
  for (const f of problems) lines.push(`${MARK[f.status]} ${safe(f.title)} [${f.id}]`, ...detail(f, '    '));
  const accepted = findings.filter((f) => f.accepted === true);
  if (accepted.length > 0) lines.push('', ...accepted.map((f) => `! (accepted) ${safe(f.title)} [${f.id}]`));
  if (options.verbose) {
    for (const area of AREAS) {
      const rest = findings.filter((f) => f.area === area && (f.status === 'pass' || f.status === 'skip') && !ALWAYS.has(f.id));
      if (rest.length === 0) continue;
      lines.push('', AREA_TITLES[area]);
      for (const f of rest) {
        lines.push(`  ${MARK[f.status]} ${safe(f.title)} [${f.id}]`);
        if (f.status === 'skip' && f.why) lines.push(`      why:  ${safe(f.why)}`);
      }
    }
  }
  const always = [...findings.filter((f) => f.id === 'tools.called'), ...findings.filter((f) => f.id === 'tools.not-called')];
  if (always.length > 0) lines.push('', ...always.map((f) => safe(f.title.charAt(0).toUpperCase() + f.title.slice(1))));
  for (const id of outcome.refused) lines.push(`note: --accept ${safe(id)} names an error, which stays an error`);
  for (const id of outcome.unused) lines.push(`note: --accept ${safe(id)} matched no warning in this run (a baseline entry to drop?)`);
  const c = counts(findings);
  const quiet = !options.verbose && c.pass + c.skip > 0 ? '; --verbose shows the passes and skips' : '';
  const acceptedNote = accepted.length > 0 ? ` (${accepted.length} accepted)` : '';
  const unaccepted = problems.filter((f) => f.status === 'warn').map((f) => f.id);
  const hint = options.strict && c.error === 0 && unaccepted.length > 0 ? `\nto accept these warnings: ${[...new Set(unaccepted)].map((id) => `--accept ${id}`).join(' ')}` : '';
  lines.push('', `${c.error} error(s), ${c.warn} warning(s)${acceptedNote}, ${c.pass} passed, ${c.skip} skipped${quiet}${hint}`);
  return `${lines.join('\n')}\n`;
}

/** --json: one object, every finding redacted as the text is. */
export function reportJson(server: string, outcome: Accepted, exitCode: number): string {
  const clean = outcome.findings.map((f) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, typeof v === 'string' && k !== 'area' && k !== 'status' ? safe(v) : v])));
  return `${JSON.stringify({ ok: exitCode === 0, server: safe(server), counts: counts(outcome.findings), findings: clean, acceptedUnused: outcome.unused, exitCode })}\n`;
}
