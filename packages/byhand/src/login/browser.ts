// Opening a URL in the user's browser, best effort: $BROWSER, else the platform's opener. Failure is
// silent; the URL is always printed too.

import { spawn } from 'node:child_process';

export function openBrowser(url: string, env: Readonly<Record<string, string | undefined>> = process.env): void {
  const [command, ...args] = env.BROWSER
    ? [env.BROWSER, url]
    : process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : ['xdg-open', url];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no opener: the printed URL is enough
  }
}
