// What a server says while a request runs: log messages (asked for with --log-level), progress
// (a bar on a terminal, a line per update elsewhere) and list changes, all on stderr.

import type { JsonRpcNotification } from '@byhand/client';
import { printable } from '@byhand/host';
import type { OutputStream } from '@byhand/host';

export type ProgressListener = (progress: { progress: number; total?: number; message?: string }) => void;

export interface NotificationShow {
  show(notification: JsonRpcNotification): void;
  progress: ProgressListener;
  /** From now on list changes count: a server announcing its lists while starting has not changed them. */
  begin(): void;
  /** Clears a progress bar left on the terminal. */
  done(): void;
}

const WIDTH = 24;

export function createNotificationShow(stderr: OutputStream): NotificationShow {
  const tty = stderr.isTTY === true;
  let barShown = false;
  let begun = false;
  // A list change says only that a list changed: once per list is all a command needs to say (watch tells each).
  const changed = new Set<string>();
  const line = (text: string) => {
    if (barShown) stderr.write('\r\x1b[2K');
    barShown = false;
    stderr.write(`${printable(text)}\n`);
  };
  return {
    show(notification) {
      const p = (notification.params ?? {});
      switch (notification.method) {
        case 'notifications/message': {
          const data = typeof p.data === 'string' ? p.data : JSON.stringify(p.data);
          line(`[${typeof p.level === 'string' ? p.level : 'log'}${typeof p.logger === 'string' ? ` ${p.logger}` : ''}] ${data}`);
          return;
        }
        case 'notifications/tools/list_changed':
        case 'notifications/prompts/list_changed':
        case 'notifications/resources/list_changed':
          if (begun && !changed.has(notification.method)) line(`byhand: the server says its ${notification.method.split('/')[1]} list changed`);
          if (begun) changed.add(notification.method);
          return;
        case 'notifications/resources/updated':
          line(`byhand: updated ${String(p.uri)}`);
          return;
      }
    },
    begin() {
      begun = true;
    },
    progress({ progress, total, message }) {
      const share = total !== undefined && total > 0 ? Math.min(1, progress / total) : undefined;
      const amount = total !== undefined ? `${progress}/${total}` : String(progress);
      const said = message ? ` ${printable(message)}` : '';
      if (!tty) {
        stderr.write(`progress ${amount}${said}\n`);
        return;
      }
      const bar = share !== undefined ? `[${'#'.repeat(Math.round(share * WIDTH)).padEnd(WIDTH, '.')}] ${Math.round(share * 100)}%` : `[${amount}]`;
      stderr.write(`\r\x1b[2K${bar}${said}`);
      barShown = true;
    },
    done() {
      if (barShown) stderr.write('\r\x1b[2K');
      barShown = false;
    },
  };
}
