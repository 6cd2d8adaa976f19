// The checkpoint's human output: three lines a server, in the order given. Colour only on a TTY
// and never when NO_COLOR is set to anything but the empty string (no-color.org).

import { printable } from '@byhand/host';
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

export function renderReport(report: ProbeReport, style: Style, details = false): string {
  const name = printable(report.name);
  const title = report.about ? `${name} (${printable(report.about)})` : name;
  const probed = `    ${style.dim(`${printable(report.target)} · ${report.elapsedMs} ms`)}`;
  if (!report.ok) {
    const e = report.error!;
    if (report.needsLogin) return `${style.bad('✗')} ${title}\n    needs login: ${printable(e.hint)}\n${probed}\n`;
    return `${style.bad('✗')} ${title}\n    ${e.code}: ${printable(e.message)} (hint: ${printable(e.hint)})\n${probed}\n`;
  }
  const how = report.negotiation ? ` ${style.dim(`— ${report.negotiation}`)}` : '';
  const c = report.counts!;
  // The era allows asking; a server that offers nothing to call has nothing to ask inside.
  const reach = report.reach === 'modern' && report.canSample === false ? 'offers nothing that could ask you' : REACH[report.reach!];
  const lines = [
    `${style.good('✓')} ${title}`,
    `    era: ${report.protocolVersion} (${reach})${report.transport === 'sse' ? ', over the deprecated HTTP+SSE transport' : ''}${how}`,
    // Apps are named only where there are some: most servers have none, and the line is read for its usual four.
    `    ${c.tools} tool(s) · ${c.resources} resource(s) · ${c.prompts} prompt(s) · ${c.templates} template(s)${(c.apps ?? 0) > 0 ? ` · ${c.apps} app(s)` : ''}`,
    probed,
  ];
  if (details) {
    lines.push(`    capabilities: ${capabilityText(report.capabilities ?? {})}`);
    if (report.instructions) lines.push(...printable(report.instructions).split('\n').map((line, i) => `    ${i === 0 ? 'instructions: ' : '  '}${line}`));
  }
  return `${lines.join('\n')}\n`;
}

/** "tools (listChanged), resources (subscribe), logging": each capability with its true flags. */
function capabilityText(capabilities: Record<string, unknown>): string {
  const parts = Object.entries(capabilities).map(([name, value]) => {
    const flags = typeof value === 'object' && value !== null ? Object.entries(value).filter(([, v]) => v === true).map(([k]) => k) : [];
    return printable(flags.length ? `${name} (${flags.join(', ')})` : name);
  });
  return parts.length ? parts.join(', ') : 'none';
}
