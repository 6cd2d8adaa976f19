// A real browser for byhand inspect's tests: Debian's Chromium (/usr/bin/chromium, which .ci/run installs), driven by
// playwright-core from tools/browser by its executable path (no browser is downloaded), with the flags this machine
// needs and a new, empty profile folder removed when it closes. The types are the few this suite uses, so the type
// check passes before the test tools are installed.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Locator {
  click(options?: { timeout?: number }): Promise<void>;
  fill(value: string): Promise<void>;
  selectOption(value: string): Promise<unknown>;
  textContent(): Promise<string | null>;
  getAttribute(name: string): Promise<string | null>;
  waitFor(options?: { state?: 'attached' | 'visible' | 'hidden' | 'detached'; timeout?: number }): Promise<void>;
  locator(selector: string): Locator;
  first(): Locator;
  count(): Promise<number>;
  allTextContents(): Promise<string[]>;
}

export interface FrameLocator {
  locator(selector: string): Locator;
  frameLocator(selector: string): FrameLocator;
}

export interface Page {
  goto(url: string): Promise<{ status(): number } | null>;
  locator(selector: string): Locator;
  frameLocator(selector: string): FrameLocator;
  evaluate<T>(fn: () => T): Promise<T>;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  setViewportSize(size: { width: number; height: number }): Promise<void>;
  content(): Promise<string>;
  close(): Promise<void>;
}

export interface Browser {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium; .ci/run does it when missing)`);
  const requireTool = createRequire(fileURLToPath(new URL('../../tools/browser/package.json', import.meta.url)));
  const { chromium } = requireTool('playwright-core') as { chromium: { launchPersistentContext(dir: string, options: object): Promise<{ newPage(): Promise<Page>; close(): Promise<void> }> } };
  const profile = mkdtempSync(join(tmpdir(), 'byhand-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1200, height: 800 } });
    return {
      newPage: () => context.newPage(),
      close: async () => {
        await context.close().catch(() => undefined);
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
