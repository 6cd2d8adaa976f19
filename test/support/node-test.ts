// node:test, with a timeout on every test that does not set its own: a test that forgets one fails instead of
// hanging the run. Suites keep node's default (no limit of their own), since they only add up their tests' time.

import { test as nodeTest, type TestContext, type TestOptions } from 'node:test';

export { after, afterEach, before, beforeEach, describe } from 'node:test';

const DEFAULT_TIMEOUT_MS = 60_000;

type TestFn = (t: TestContext) => void | Promise<void>;

export function test(name: string, fn: TestFn): Promise<void>;
export function test(name: string, options: TestOptions, fn: TestFn): Promise<void>;
export function test(name: string, optionsOrFn: TestOptions | TestFn, maybeFn?: TestFn): Promise<void> {
  if (typeof optionsOrFn === 'function') return nodeTest(name, { timeout: DEFAULT_TIMEOUT_MS }, optionsOrFn);
  return nodeTest(name, { timeout: DEFAULT_TIMEOUT_MS, ...optionsOrFn }, maybeFn);
}

export const it = test;
