import assert from 'node:assert/strict';
import { test } from 'node:test';
import { descending, DescendingQueue } from '../../src/address/resolve.js';

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

test('DescendingQueue gives the indexes in the order of descending(keys, null), one at a time', () => {
  const rnd = random(7);
  for (let round = 0; round < 300; round++) {
    const keys = Array.from({ length: Math.floor(rnd() * 90) }, () => Math.floor(rnd() * 6) / 2);
    const queue = new DescendingQueue(keys);
    const taken: number[] = [];
    for (let i = queue.next(); i >= 0; i = queue.next()) taken.push(i);
    assert.deepEqual(taken, descending(keys, null), JSON.stringify(keys));
    assert.equal(queue.next(), -1);
  }
});
