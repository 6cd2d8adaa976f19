// The suggestion for a mistyped name: a typo or a meaningful part finds its word; one letter finds nothing.

import assert from 'node:assert/strict';
import { test } from './support/node-test.js';
import { didYouMean } from '../packages/byhand/src/shared/did-you-mean.js';

test('a typo or a part of a name is suggested; a word changed whole, or one letter, is not', { timeout: 5_000 }, () => {
  assert.equal(didYouMean('sumarise_wek', ['summarise_week', 'plan']), ' (did you mean summarise_week?)');
  assert.equal(didYouMean('week', ['summarise_week', 'plan']), ' (did you mean summarise_week?)');
  assert.equal(didYouMean('--headles', ['--headless', '--help']), ' (did you mean --headless?)');
  assert.equal(didYouMean('x', ['a', 'b']), '');
  assert.equal(didYouMean('b', ['ab', 'cd']), '');
  assert.equal(didYouMean('foo', ['bar']), '');
});
