import type { ElicitParams, ElicitResult } from '@byhand/client';
import { noAnswer } from './answers-file.js';
import type { PromptOptions } from './elicit-form.js';
import { printable, type Terminal } from './terminal.js';

/**
 * URL mode: the user sees the whole URL and its host and says whether they will open it.
 * byhand never opens or fetches it; accepting only tells the server the user consented.
 */
export async function askUrlConsent(params: ElicitParams, terminal: Terminal, options: PromptOptions): Promise<ElicitResult> {
  terminal.write(`\nThe server asks you to open a URL (${printable(options.from)}):\n  ${printable(params.message)}\n${urlLines(params.url)}`);
  for (;;) {
    const line = await terminal.ask('Will you open it? [a]ccept / [d]ecline / [c]ancel: ', options.signal);
    if (line === null && !terminal.interactive) throw noAnswer(params, options.key, options.from);
    const answer = line?.trim().toLowerCase();
    if (answer === undefined || answer === 'c' || answer === 'cancel') return { action: 'cancel' };
    if (answer === 'a' || answer === 'accept') return { action: 'accept' };
    if (answer === 'd' || answer === 'decline') return { action: 'decline' };
    terminal.write('  ✗ type a, d or c\n');
  }
}

/** The full URL, the host it really points at, and a warning when it is not plain https. */
export function urlLines(url: string | undefined): string {
  const raw = url ?? '';
  const lines = [`  URL:  ${printable(raw) || '(none given)'}`];
  const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!parsed) lines.push('  ! this is not a valid URL');
  else {
    lines.push(`  Host: ${printable(parsed.host || '(none)')}`);
    if (parsed.protocol !== 'https:') lines.push(`  ! it uses ${printable(parsed.protocol)}, not https:`);
    if (parsed.username || parsed.password) lines.push('  ! it carries a user name or password before the host');
  }
  lines.push('  byhand will not open or fetch it; open it yourself only if you trust it.');
  return lines.join('\n') + '\n';
}
