// One result of `byhand check`: what was checked, how it went, and enough for the server's author to act on it
// (what was sent, what came back, why it matters, what to change). The report, --json and --junit all read these.

export type Status = 'pass' | 'warn' | 'error' | 'skip';

export type Area = 'era' | 'headers' | 'capabilities' | 'mrtr' | 'schemas' | 'lists' | 'stdio' | 'timing';

export interface Finding {
  area: Area;
  /** Stable, for scripts and JUnit: "era.discover", "mrtr.reask:think". */
  id: string;
  status: Status;
  title: string;
  /** What was sent, in short (a method, the header changed). */
  sent?: string;
  /** What came back, in short (an error code and message, a resultType). */
  got?: string;
  /** Why it matters, for a finding that is not a pass. */
  why?: string;
  /** What to change, in the server author's terms. */
  fix?: string;
  /** How long the work behind it took, in milliseconds (JUnit's time). */
  ms?: number;
  /** A warning the user accepted (--accept, --baseline): it does not fail --strict. */
  accepted?: boolean;
}

export const AREAS: readonly Area[] = ['era', 'headers', 'capabilities', 'mrtr', 'schemas', 'lists', 'stdio', 'timing'];

export const AREA_TITLES: Record<Area, string> = {
  era: 'Era',
  headers: 'Headers',
  capabilities: 'Capabilities',
  mrtr: 'Multi round-trip (MRTR)',
  schemas: 'Schemas and results',
  lists: 'Lists and errors',
  stdio: 'stdio hygiene',
  timing: 'Timing',
};

/** Does this finding fail the run: an error, or under --strict a warning not accepted. */
export function failing(f: Finding, strict: boolean): boolean {
  return f.status === 'error' || (strict && f.status === 'warn' && f.accepted !== true);
}

/** The exit code: 1 when a finding is at error level (or, strict, a warning not accepted), else 0. */
export function checkExitCode(findings: readonly Finding[], strict: boolean): 0 | 1 {
  return findings.some((f) => failing(f, strict)) ? 1 : 0;
}

export function counts(findings: readonly Finding[]): Record<Status, number> {
  const out: Record<Status, number> = { pass: 0, warn: 0, error: 0, skip: 0 };
  for (const f of findings) out[f.status]++;
  return out;
}
