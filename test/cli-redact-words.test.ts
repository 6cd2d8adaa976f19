// The CLI's rule for printing a command line back: the values of secret-named words go, everything else stays.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { redactWords } from '../packages/byhand/src/shared/redact-words.js';

test('secret-named flags, pairs, headers and auth schemes lose their values; the rest is kept byte for byte', { timeout: 5_000 }, () => {
  const cases: [string, string][] = [
    ['npx server --api-key sk-1 --port 3', 'npx server --api-key (redacted) --port 3'],
    ['node s.js --token=abc API_KEY=xyz HOME=/x', 'node s.js --token=(redacted) API_KEY=(redacted) HOME=/x'],
    ["remote https://h/x?token=1 --header 'Authorization: Bearer abc'", "remote https://h/x?token=(redacted) --header 'Authorization: Bearer (redacted)'"],
    ['--header Authorization:Bearer\\ x', '--header Authorization:Bearer\\ (redacted)'],
    ["python -m srv --password 'a b c' --verbose", "python -m srv --password '(redacted)' --verbose"],
    ['node server.js --verbose --keyboard us', 'node server.js --verbose --keyboard us'],
  ];
  for (const [input, expected] of cases) assert.equal(redactWords(input), expected, input);
});
