// --accept ID and --baseline FILE: the warnings a project knows of and keeps (a 2025-only server's
// era.discover, an SDK 1.x server's lists.unknown-tool), so --strict fails CI on a new warning only. An id may end
// in * to accept every check under it (schemas.result:*). Errors are never accepted: they are what check is for.

import type { Finding } from './finding.js';

export interface Accepted {
  findings: Finding[];
  /** Accepted ids (or patterns) that matched no warning of this run: a baseline that has gone stale. */
  unused: string[];
  /** Accepted ids that matched an error, which stays an error. */
  refused: string[];
}

/** A baseline file: one id a line; blank lines and # comments are skipped. */
export function parseBaseline(text: string): string[] {
  return text.split('\n').map((line) => line.replace(/#.*/, '').trim()).filter((line) => line !== '');
}

const matches = (pattern: string, id: string) => (pattern.endsWith('*') ? id.startsWith(pattern.slice(0, -1)) : id === pattern);

export function acceptWarnings(findings: Finding[], patterns: readonly string[]): Accepted {
  const used = new Set<string>();
  const refused = new Set<string>();
  const out = findings.map((f) => {
    const hit = patterns.filter((p) => matches(p, f.id));
    if (hit.length === 0) return f;
    if (f.status === 'error') {
      for (const p of hit) refused.add(p);
      return f;
    }
    if (f.status !== 'warn') return f;
    for (const p of hit) used.add(p);
    return { ...f, accepted: true };
  });
  return { findings: out, unused: patterns.filter((p) => !used.has(p) && !refused.has(p)), refused: [...refused] };
}
