// The checkpoint's human output: three lines a server, in the order given. Colour only on a TTY
// and never when NO_COLOR is set to anything but the empty string (no-color.org).

import type { ProbeReport } from './probe.js';

const REACH = {
  modern: 'can ask you to think',
  session: 'legacy, session: can ask only over the held connection',
  'per-request': 'legacy, per-request: cannot ask you to think',
} as const;

export interface Style {
  good(text: string): string;
  bad(text: string): string;
  dim(text: string): string;
}

export const plain: Style = { good: (t) => t, bad: (t) => t, dim: (t) => t };
export const colour: Style = {
  good: (t) => `\x1b[32m${t}\x1b[39m`,
  bad: (t) => `\x1b[31m${t}\x1b[39m`,
  dim: (t) => `\x1b[2m${t}\x1b[22m`,
};

export function styleFor(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): Style {
  return stream.isTTY && !env.NO_COLOR ? colour : plain;
}

export function renderReport(report: ProbeReport, style: Style): string {
  const title = report.about ? `${report.name} (${report.about})` : report.name;
  if (!report.ok) {
    const e = report.error!;
    if (report.needsLogin) return `${style.bad('✗')} ${title}\n    needs login: ${e.hint}\n`;
    return `${style.bad('✗')} ${title}\n    ${e.code} ${e.message} (hint: ${e.hint})\n`;
  }
  const how = report.negotiation ? ` ${style.dim(`— ${report.negotiation}`)}` : '';
  const c = report.counts!;
  return [
    `${style.good('✓')} ${title}`,
    `    era: ${report.protocolVersion} (${REACH[report.reach!]})${how}`,
    `    ${c.tools} tool(s) · ${c.resources} resource(s) · ${c.prompts} prompt(s)`,
    '',
  ].join('\n');
}
