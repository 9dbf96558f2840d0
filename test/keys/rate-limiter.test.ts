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

  it('keeps only the current window: a new one forgets every address of the last (issue 14.26)', () => {
    const limiter = new RateLimiter();
    const t = 1_800_000_000_000;
    for (let i = 0; i < 10_000; i++) limiter.take(`10.0.${i >> 8}.${i & 255}`, 5, t + 10);
    assert.equal(limiter.size, 10_000);
    limiter.take('10.9.9.9', 5, t + 1010);
    assert.equal(limiter.size, 1, 'the previous second\'s windows are gone');
    // ... and the limit still holds within a window.
    for (let i = 0; i < 4; i++) limiter.take('10.9.9.9', 5, t + 1020);
    assert.equal(limiter.take('10.9.9.9', 5, t + 1030).allowed, false);
  });

  it('keeps at most maxKeys keys within one window, the oldest forgotten first', () => {
    const limiter = new RateLimiter(1000, 100);
    for (let i = 0; i < 1000; i++) limiter.take(`k${i}`, 1, 5000);
    assert.equal(limiter.size, 100);
    assert.equal(limiter.take('k999', 1, 5001).allowed, false, 'a recent key is still limited');
  });

  it('minute windows forget too (the dashboard\'s key actions)', () => {
    const limiter = new RateLimiter(60_000);
    limiter.take('a', 1, 0);
    limiter.take('b', 1, 59_999);
    assert.equal(limiter.size, 2);
    limiter.take('c', 1, 60_000);
    assert.equal(limiter.size, 1);
  });
});
