// A config file as the editors write it (comments, trailing commas) is read; a broken one is named in words, at the
// line and column where the reader stopped.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { JsoncError, parseJsonc } from '../packages/byhand/src/shared/jsonc.js';

function failure(text: string): string {
  try {
    parseJsonc(text);
  } catch (error) {
    assert.ok(error instanceof JsoncError);
    return error.message;
  }
  assert.fail(`${JSON.stringify(text)} was read`);
}

test('comments and trailing commas are read; each kind of error is said in words at its line:column', { timeout: 5_000 }, () => {
  assert.deepEqual(parseJsonc('{\n  // a note\n  "servers": { "a": { "url": "https://x" }, },\n}'), { servers: { a: { url: 'https://x' } } });
  assert.equal(failure('{\n  servers: 1\n}'), 'not a JSON value, found "servers" at 2:3');
  assert.equal(failure('{ "a" 1 }'), 'expected ":", found "1" at 1:7');
  assert.equal(failure('{ "a": 1 "b": 2 }'), 'expected ",", found "\\"b\\"" at 1:10');
  assert.equal(failure('{ "a": /* open'), 'a comment is not closed, found "/* open" at 1:8');
  assert.equal(failure('{ "a": "\\q" }'), 'not a valid escape, found "\\"\\\\q\\"" at 1:8');
  assert.equal(failure('{ "a": "\\u12" }'), 'not a valid \\u escape, found "\\"\\\\u12\\"" at 1:8');
  assert.equal(failure('{"a": "open'), 'a string is not closed, found "\\"open" at 1:7');
  assert.equal(failure('{ "a": "x\u0001" }'), 'a control character inside a string, found "\\"x\\u0001\\"" at 1:8');
  assert.equal(failure('[1,'), 'the file ends too early at 1:4');
});
