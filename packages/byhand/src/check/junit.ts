// --junit FILE: the findings as JUnit XML, one test suite per area, one test case per check, so a CI system shows
// them beside its other tests. A case's name is the check's stable id, so a CI system follows it from run to run; the
// title is the message, and `time` the work behind it. An error is a failure, a skip is skipped, and a warning fails
// only under --strict when it was not accepted.

import { AREAS, AREA_TITLES, failing, type Finding } from './finding.js';
import { safe } from './report.js';

const escape = (text: string) =>
  safe(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(3);

export function junitXml(server: string, findings: readonly Finding[], strict: boolean): string {
  const suites = AREAS.filter((area) => findings.some((f) => f.area === area)).map((area) => {
    const cases = findings.filter((f) => f.area === area);
    const body = cases.map((f) => {
      const detail = [f.sent && `sent: ${f.sent}`, f.got && `got: ${f.got}`, f.why && `why: ${f.why}`, f.fix && `fix: ${f.fix}`].filter(Boolean).join('\n');
      const inner = failing(f, strict)
        ? `<failure message="${escape(f.title)}" type="${f.status}">${escape(detail)}</failure>`
        : f.status === 'skip'
          ? `<skipped message="${escape(f.why ? `${f.title}: ${f.why}` : f.title)}"/>`
          : `<system-out>${escape(f.status === 'warn' ? `warning${f.accepted ? ' (accepted)' : ''}: ${f.title}\n${detail}` : f.title)}</system-out>`;
      return `    <testcase classname="byhand.check.${area}" name="${escape(f.id)}" time="${seconds(f.ms)}">${inner}</testcase>`;
    });
    const failures = cases.filter((f) => failing(f, strict)).length;
    const skipped = cases.filter((f) => f.status === 'skip').length;
    const time = seconds(cases.reduce((sum, f) => sum + (f.ms ?? 0), 0));
    // The server is a property, not part of the name: a name stays the same wherever the server runs.
    return [`  <testsuite name="${escape(AREA_TITLES[area])}" tests="${cases.length}" failures="${failures}" skipped="${skipped}" time="${time}">`, `    <properties><property name="server" value="${escape(server)}"/></properties>`, ...body, '  </testsuite>'].join('\n');
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="byhand check">\n${suites.join('\n')}\n</testsuites>\n`;
}
