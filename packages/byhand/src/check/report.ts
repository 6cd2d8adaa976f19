// The report a person reads: one ✓ / ! / ✗ / - line per check, grouped by area, with what was sent, what came back,
// why it matters and the fix under every finding that is not a pass. Everything a server said is made printable and
// redacted first (fail.ts's rule).

import { redactText } from '@byhand/client';
import { printable } from '@byhand/host';
import { AREAS, AREA_TITLES, counts, type Finding, type Status } from './finding.js';

const MARK: Record<Status, string> = { pass: '✓', warn: '!', error: '✗', skip: '-' };

export const safe = (text: string) => printable(redactText(text));

export function reportText(server: string, findings: readonly Finding[]): string {
  const lines = [`byhand check ${safe(server)}`];
  for (const area of AREAS) {
    const inArea = findings.filter((f) => f.area === area);
    if (inArea.length === 0) continue;
    lines.push('', AREA_TITLES[area]);
    for (const f of inArea) {
      lines.push(`  ${MARK[f.status]} ${safe(f.title)}`);
      if (f.status === 'pass') continue;
      if (f.sent) lines.push(`      sent: ${safe(f.sent)}`);
      if (f.got) lines.push(`      got:  ${safe(f.got)}`);
      if (f.why) lines.push(`      why:  ${safe(f.why)}`);
      if (f.fix) lines.push(`      fix:  ${safe(f.fix)}`);
    }
  }
  const c = counts(findings);
  lines.push('', `${c.error} error(s), ${c.warn} warning(s), ${c.pass} passed, ${c.skip} skipped`);
  return `${lines.join('\n')}\n`;
}

/** --json: one object, every finding redacted as the text is. */
export function reportJson(server: string, findings: readonly Finding[], exitCode: number): string {
  const clean = findings.map((f) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, typeof v === 'string' && k !== 'area' && k !== 'status' ? safe(v) : v])));
  return `${JSON.stringify({ ok: exitCode === 0, server: safe(server), counts: counts(findings), findings: clean, exitCode })}\n`;
}
