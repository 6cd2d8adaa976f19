// What `byhand serve` prints once listening: where the toolboxes really are, and a warning when they are reachable
// beyond this machine.

import type { RunningServer } from '@byhand/servers/node';
import { TOOLBOXES } from '@byhand/servers/registry';

export function banner(running: RunningServer, kept: { dbPath: string | undefined }): string {
  const lines = [
    running.exposed
      ? `byhand serve: listening on ${running.bound} (reachable from the network; from this machine: ${running.url})`
      : `byhand serve: listening on ${running.url}`,
  ];
  if (running.exposed) {
    lines.push(
      '  ⚠ The toolboxes have no authentication. Anyone who can reach this address can call them, read and write the',
      "    Cookie Jar's notes, and have them ask the connecting client's model to think.",
      running.allowedHosts.length === 0
        ? '    Only loopback names are accepted in Host/Origin, so remote clients are refused until you add --allow-host NAME.'
        : `    Host/Origin accepted: loopback names and ${running.allowedHosts.join(', ')}.`,
    );
  }
  for (const entry of TOOLBOXES) {
    const url = running.urls[entry.name];
    if (url !== undefined) lines.push(`  ${entry.title.padEnd(24)} ${url}  (${entry.description}; 2025 clients: ${entry.legacy})`);
  }
  if (kept.dbPath === undefined) lines.push("  Cookie Jar notes and tasks are in this process's memory, unseen by any other instance (--db FILE or --db postgres://… keeps and shares them)");
  return `${lines.join('\n')}\n`;
}
