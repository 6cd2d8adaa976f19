// What a test opens (servers, clients, listeners, workers), closed when the test ends, passed or failed, the last
// opened first. Each is registered the moment it exists, before the next step that can fail: a connect that throws,
// or an assertion, can no longer leave a server running that holds the test file open until the runner gives up.
//
//   const cleanup = cleanupAfter(t);
//   const server = cleanup(await listen(handler));
//   const client = cleanup(await connect(server.url));

import type { TestContext } from 'node:test';

export type Closable = { close(): unknown } | { stop(): unknown } | { dispose(): unknown };

/** How long closing everything a test opened may take before the test fails, rather than the run hanging. */
const CLOSE_MS = 30_000;

export function cleanupAfter(t: TestContext): <T extends Closable>(resource: T) => T {
  const opened: Closable[] = [];
  t.after(async () => {
    const errors: unknown[] = [];
    for (const resource of opened.reverse()) {
      try {
        await closeOne(resource);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }, { timeout: CLOSE_MS });
  return (resource) => {
    opened.push(resource);
    return resource;
  };
}

function closeOne(resource: Closable): unknown {
  if ('close' in resource) return resource.close();
  if ('stop' in resource) return resource.stop();
  return resource.dispose();
}
