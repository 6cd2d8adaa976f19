// --junit FILE: the findings as JUnit XML, one test suite per area, one test case per check, so a CI system shows
// them beside its other tests. An error is a failure, a skip is skipped, and a warning fails only under --strict.

import { AREAS, AREA_TITLES, type Finding } from './finding.js';
import { safe } from './report.js';

const escape = (text: string) =>
  safe(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

export function junitXml(server: string, findings: readonly Finding[], strict: boolean): string {
  const failing = (f: Finding) => f.status === 'error' || (strict && f.status === 'warn');
  const suites = AREAS.filter((area) => findings.some((f) => f.area === area)).map((area) => {
    const cases = findings.filter((f) => f.area === area);
    const body = cases.map((f) => {
      const detail = [f.sent && `sent: ${f.sent}`, f.got && `got: ${f.got}`, f.why && `why: ${f.why}`, f.fix && `fix: ${f.fix}`].filter(Boolean).join('\n');
      const inner = failing(f)
        ? `<failure message="${escape(f.title)}" type="${f.status}">${escape(detail)}</failure>`
        : f.status === 'skip' ? `<skipped message="${escape(f.why ?? f.title)}"/>` : f.status === 'warn' ? `<system-out>${escape(`warning: ${detail}`)}</system-out>` : '';
      return `    <testcase classname="byhand.check.${area}" name="${escape(`${f.id}: ${f.title}`)}">${inner}</testcase>`;
    });
    const failures = cases.filter(failing).length;
    const skipped = cases.filter((f) => f.status === 'skip').length;
    return [`  <testsuite name="${escape(`${AREA_TITLES[area]} (${server})`)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}">`, ...body, '  </testsuite>'].join('\n');
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="byhand check">\n${suites.join('\n')}\n</testsuites>\n`;
}
