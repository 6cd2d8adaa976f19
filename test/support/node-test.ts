// node:test, with what every test needs and none should have to remember:
// - a timeout on every test that does not set its own: a test that forgets one fails instead of hanging the run
//   (suites keep node's default, no limit of their own, since they only add up their tests' time);
// - its own era verdicts: the client's process-wide verdict cache starts empty for each test, so no test finds
//   an era probed by an earlier one on a reused port (a test that needs more than one cache passes `verdicts`).

import { test as nodeTest, type TestContext, type TestOptions } from 'node:test';
// The cache itself, not the client's index: a test file that never connects should not load the whole client.
import { processVerdicts } from '../../packages/client/src/verdict.js';

export { after, afterEach, before, beforeEach, describe } from 'node:test';

const DEFAULT_TIMEOUT_MS = 60_000;

type TestFn = (t: TestContext) => void | Promise<void>;

export function test(name: string, fn: TestFn): Promise<void>;
export function test(name: string, options: TestOptions, fn: TestFn): Promise<void>;
export function test(name: string, optionsOrFn: TestOptions | TestFn, maybeFn?: TestFn): Promise<void> {
  const [options, fn] = typeof optionsOrFn === 'function' ? [{}, optionsOrFn] : [optionsOrFn, maybeFn];
  return nodeTest(name, { timeout: DEFAULT_TIMEOUT_MS, ...options }, fn && ((t) => {
    processVerdicts.clear();
    return fn(t);
  }));
}

export const it = test;
