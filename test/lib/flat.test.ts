import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flat } from '../../src/lib/flat.js';

test('flat gives the same text as the template, numbers and Khmer included', () => {
  const name = 'ភូមិកណ្ដាល';
  const n = 990017731;
  assert.equal(flat`${name} is in ${'Svay Dankum'} (${n}); ${0}`, `${name} is in Svay Dankum (${n}); 0`);
  assert.equal(flat`no values`, 'no values');
  assert.equal(flat`${''}${'a'}${''}`, 'a');
  assert.equal(flat`"monthly";r=${12};t=${3}, "per-second";r=${-0};t=1`, `"monthly";r=12;t=3, "per-second";r=${-0};t=1`);
});
