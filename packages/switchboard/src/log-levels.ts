// The log levels (RFC 5424 severities, as MCP logging names them), least severe first: a host asks for one and hears
// it and every level after it.

import type { LoggingLevel } from '@byhand/client';

export const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

export function isLogLevel(value: unknown): value is LoggingLevel {
  return (LOG_LEVELS as readonly unknown[]).includes(value);
}

/** Whether a message at `level` reaches a host that asked for `asked`. */
export function heard(level: LoggingLevel, asked: LoggingLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(asked);
}
