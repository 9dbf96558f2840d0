import assert from 'node:assert/strict';
import { test } from 'node:test';
import { median, medianInterval } from '../../bench/stats.js';

test('median: middle value, mean of the two middle ones, NaN for none; order does not matter', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.ok(Number.isNaN(median([])));
});

test('medianInterval: the order statistics of the distribution-free 95% interval', () => {
  const ranks = (n: number) => medianInterval(Array.from({ length: n }, (_, i) => n - i)); // values n..1, unsorted
  assert.deepEqual(medianInterval([]), []);
  assert.deepEqual(ranks(1), [1, 1]);
  assert.deepEqual(ranks(5), [1, 5]); // too few values for better than min-max (94%)
  assert.deepEqual(ranks(8), [1, 8]); // [x2, x7] would cover only 93%
  assert.deepEqual(ranks(9), [2, 8]); // 96%
  assert.deepEqual(ranks(12), [3, 10]); // 96%
  assert.deepEqual(ranks(20), [6, 15]); // 96%
});

test('medianInterval: covers the true median about 95% of the time (or more, where ranks are coarse)', () => {
  // Deterministic pseudo-random samples from a skewed distribution whose median is ln 2 (exponential, rate 1).
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (const n of [9, 12, 20]) {
    let covered = 0;
    const trials = 4000;
    for (let t = 0; t < trials; t++) {
      const sample = Array.from({ length: n }, () => -Math.log(1 - random()));
      const [low, high] = medianInterval(sample) as [number, number];
      if (low <= Math.LN2 && Math.LN2 <= high) covered++;
    }
    const coverage = covered / trials;
    assert.ok(coverage >= 0.93 && coverage <= 0.99, `n=${n}: coverage ${coverage}`);
  }
});
