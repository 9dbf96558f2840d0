import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiter } from '../../src/keys/rate-limiter.js';

describe('RateLimiter', () => {
  it('allows the limit per second per key, then refuses until the next second', () => {
    const limiter = new RateLimiter();
    const t = 1_800_000_000_000;
    const taken = Array.from({ length: 7 }, () => limiter.take('a', 5, t + 100));
    assert.deepEqual(taken.map((d) => d.allowed), [true, true, true, true, true, false, false]);
    assert.deepEqual(taken.map((d) => d.remaining), [4, 3, 2, 1, 0, 0, 0]);
    assert.equal(limiter.take('b', 5, t + 100).allowed, true, 'keys are independent');
    assert.equal(limiter.take('a', 5, t + 1000).allowed, true, 'a new second');
  });

  it('forgets ended windows', () => {
    const limiter = new RateLimiter();
    limiter.take('a', 1, 1000);
    limiter.prune(5000);
    assert.equal(limiter.take('a', 1, 1500).allowed, true);
  });
});
