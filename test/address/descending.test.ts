import assert from 'node:assert/strict';
import { test } from 'node:test';
import { descending, FirstThenKept } from '../../src/address/resolve.js';

/** A small seeded PRNG, so that a failure repeats. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

test('descending orders indexes as a stable sort by key (highest first), then tie, then index', () => {
  const rnd = random(42);
  for (let round = 0; round < 500; round++) {
    const n = Math.floor(rnd() * 90);
    // Few distinct values, so that equal keys (and runs already in order) are common.
    const keys = Array.from({ length: n }, () => Math.floor(rnd() * 6) / 2);
    const tie = round % 2 === 0 ? null : Array.from({ length: n }, () => Math.floor(rnd() * 4));
    const expected = keys.map((_, i) => i).sort((a, b) => keys[b]! - keys[a]! || (tie ? tie[a]! - tie[b]! : 0) || a - b);
    assert.deepEqual(descending(keys, tie), expected, `keys ${JSON.stringify(keys)} tie ${JSON.stringify(tie)}`);
  }
  // Already in order, and in reverse order.
  assert.deepEqual(descending([5, 4, 4, 1], null), [0, 1, 2, 3]);
  assert.deepEqual(descending([1, 2, 3, 4], null), [3, 2, 1, 0]);
});

test('FirstThenKept gives the heaviest, then the others it is told to keep, in the order of descending()', () => {
  const rnd = random(7);
  for (let round = 0; round < 300; round++) {
    const keys = Array.from({ length: Math.floor(rnd() * 90) }, () => Math.floor(rnd() * 6) / 2);
    const dropped = new Set(keys.map((_, i) => i).filter(() => rnd() < 0.4));
    let asked = false;
    const order = new FirstThenKept(keys, () => {
      asked = true;
      return (i) => !dropped.has(i);
    });
    const taken: number[] = [];
    for (let i = order.next(); i >= 0; i = order.next()) {
      if (taken.length === 0) assert.equal(asked, false, 'the others are asked about only after the first is taken');
      taken.push(i);
    }
    const all = descending(keys, null);
    assert.deepEqual(taken, all.filter((i, k) => k === 0 || !dropped.has(i)), JSON.stringify(keys));
    assert.equal(order.next(), -1);
  }
});
