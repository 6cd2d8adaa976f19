// The command as `bin/byhand.js` runs it: dist/bin/, the bundle packages/byhand/bundle-bin.mjs makes of dist/cli.js
// and the workspace under it. What is shipped must be what the build makes from dist/.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from './support/node-test.js';
import { assertShippedIsRebuilt } from './support/rebuilt.js';

const root = fileURLToPath(new URL('..', import.meta.url));

test('what bin/byhand.js runs is what the build makes from dist/', { timeout: 60_000 }, async () => {
  await assertShippedIsRebuilt(join(root, 'packages/byhand/bundle-bin.mjs'), join(root, 'packages/byhand/dist/bin'), root);
});
