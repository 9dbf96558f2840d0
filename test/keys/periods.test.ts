import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dayOf, monthDays, monthOf, monthSeconds, nextMonthStart, secondsToNextMonth } from '../../src/keys/periods.js';

describe('UTC periods', () => {
  it('names days and months in UTC', () => {
    const at = new Date('2026-11-30T23:59:59.500Z');
    assert.equal(dayOf(at), '2026-11-30');
    assert.equal(monthOf(at), '2026-11');
    assert.equal(nextMonthStart(at).toISOString(), '2026-12-01T00:00:00.000Z');
    assert.equal(secondsToNextMonth(at), 1);
    assert.equal(nextMonthStart(new Date('2026-12-15T00:00:00Z')).toISOString(), '2027-01-01T00:00:00.000Z');
  });

  it('knows month lengths, leap years included', () => {
    assert.equal(monthSeconds(new Date('2028-02-10T00:00:00Z')), 29 * 86400);
    assert.equal(monthSeconds(new Date('2026-02-10T00:00:00Z')), 28 * 86400);
    assert.deepEqual(monthDays('2026-11'), { first: '2026-11-01', last: '2026-11-30' });
    assert.deepEqual(monthDays('2028-02'), { first: '2028-02-01', last: '2028-02-29' });
  });
});
