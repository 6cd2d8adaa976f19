// The page itself: a document with the token and the sandbox's origin in meta tags (read by the script, never put in
// a URL), its style, and its script as ES modules. The script is the page folder's TypeScript, compiled with the rest
// of the package to dist/inspect/page/; it is read from there, found through the package's own name so the bundled
// command finds it as the library does. No framework and no CDN: everything the page runs is in this package.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PAGE_CSS } from './page-style.js';

export function pageHtml(options: { token: string; sandboxOrigin: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="byhand-token" content="${options.token}">
<meta name="byhand-sandbox" content="${options.sandboxOrigin}">
<title>byhand inspect</title>
<link rel="stylesheet" href="/page/page.css">
<script type="module" src="/page/main.js"></script>
</head>
<body>
<header><strong>byhand inspect</strong> <span id="server-line">not connected</span></header>
<main id="app"><p class="muted">loading…</p></main>
</body>
</html>
`;
}

/** Where the compiled page modules are: dist/inspect/page/ of the byhand package. */
let folder: string | undefined;
function pageFolder(): string {
  folder ??= join(dirname(createRequire(import.meta.url).resolve('byhand/package.json')), 'dist', 'inspect', 'page');
  return folder;
}

/** A page asset by its name alone (no path): the style, or one compiled module. */
export async function pageAsset(name: string): Promise<{ type: string; body: string } | undefined> {
  if (name === 'page.css') return { type: 'text/css; charset=utf-8', body: PAGE_CSS };
  if (!/^[a-z][a-z-]*\.js$/.test(name)) return undefined;
  try {
    return { type: 'text/javascript; charset=utf-8', body: await readFile(join(pageFolder(), name), 'utf8') };
  } catch {
    return undefined;
  }
}
