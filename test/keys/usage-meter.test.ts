/** The usage meter against a real SQLite store: counting in memory, flushing in batches, losing nothing on errors. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { hashKey } from '../../src/keys/key-format.js';
import { SqliteStore } from '../../src/keys/sqlite-store.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';

describe('UsageMeter', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kh-meter-'));
  const path = join(dir, 'keys.db');
  const store = new SqliteStore(path, { busyTimeoutMs: 20 });
  let now = new Date('2026-11-30T23:59:59.000Z');
  const meter = new UsageMeter(store, { flushIntervalMs: 60_000, now: () => now });
  before(async () => {
    await store.migrate();
    for (const id of ['key_a', 'key_b']) {
      await store.createKey({ id, hash: hashKey(id), prefix: 'khk_x', name: null, plan: 'free', createdAt: now.toISOString() });
    }
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts in memory and writes nothing until a flush', async () => {
    await meter.load('key_a');
    for (let i = 0; i < 5; i++) meter.count('key_a');
    assert.equal(meter.used('key_a'), 5);
    assert.equal(meter.unflushed, 5);
    assert.deepEqual([...(await store.monthlyUsage(['key_a'], '2026-11'))], []);
    await meter.flush();
    assert.equal(meter.unflushed, 0);
    assert.equal(meter.used('key_a'), 5);
    assert.deepEqual(await store.dailyUsage('key_a', '2026-11-01', '2026-11-30'), [{ day: '2026-11-30', count: 5 }]);
    assert.ok((await store.getKey('key_a'))!.lastUsedAt);
  });

  it('sees usage another process wrote, at the next flush', async () => {
    await store.recordUsage([{ keyId: 'key_a', day: '2026-11-29', count: 100 }], new Map(), '2026-11', []);
    assert.equal(meter.used('key_a'), 5);
    await meter.flush();
    assert.equal(meter.used('key_a'), 105);
  });

  it('keeps the counts of a failed write for the next one', async () => {
    meter.count('key_a');
    meter.count('key_a');
    const locker = new Database(path);
    locker.exec('BEGIN EXCLUSIVE');
    await assert.rejects(meter.flush(), /locked|busy/i);
    assert.equal(meter.stats.failures, 1);
    meter.count('key_a');
    assert.equal(meter.unflushed, 3);
    assert.equal(meter.used('key_a'), 108, 'enforcement still sees the unwritten counts');
    locker.exec('ROLLBACK');
    locker.close();
    await meter.flush();
    assert.equal(meter.unflushed, 0);
    assert.equal((await store.monthlyUsage(['key_a'], '2026-11')).get('key_a'), 108);
  });

  it('starts each month at zero, writing the counts on the day they happened', async () => {
    meter.count('key_a');
    now = new Date('2026-12-01T00:00:01.000Z');
    meter.count('key_a');
    assert.equal(meter.used('key_a'), 1, 'December so far');
    await meter.flush();
    assert.equal((await store.monthlyUsage(['key_a'], '2026-11')).get('key_a'), 109);
    assert.equal((await store.monthlyUsage(['key_a'], '2026-12')).get('key_a'), 1);
    await meter.load('key_a');
    assert.equal(meter.used('key_a'), 1);
  });

  it('keeps days and months apart across midnight, a month\'s turn, a failed write and counts made meanwhile', async () => {
    let clock = new Date('2027-01-31T23:59:58.000Z');
    const other = new UsageMeter(store, { flushIntervalMs: 60_000, now: () => clock });
    await other.load('key_b');
    other.count('key_b');
    other.count('key_b');
    clock = new Date('2027-02-01T00:00:01.000Z');
    for (let i = 0; i < 3; i++) other.count('key_b');
    assert.equal(other.used('key_b'), 3, 'February so far');
    assert.equal(other.used('key_b', { month: '2027-01' }), 2);
    assert.equal(other.unwrittenOf('key_b', { month: '2027-01' }), 2);
    assert.equal(other.unwrittenOf('key_b', { month: '2027-02' }), 3);
    const locker = new Database(path);
    locker.exec('BEGIN EXCLUSIVE');
    await assert.rejects(other.flush(), /locked|busy/i);
    other.count('key_b');
    clock = new Date('2027-02-02T08:00:00.000Z');
    other.count('key_b');
    assert.equal(other.unflushed, 7);
    assert.equal(other.used('key_b'), 5);
    assert.equal(other.used('key_b', { month: '2027-01' }), 2);
    assert.equal(other.unwrittenOf('key_b', { month: '2027-02' }), 5);
    locker.exec('ROLLBACK');
    locker.close();
    await other.flush();
    assert.equal(other.unflushed, 0);
    assert.deepEqual(await store.dailyUsage('key_b', '2027-01-01', '2027-02-28'),
      [{ day: '2027-01-31', count: 2 }, { day: '2027-02-01', count: 4 }, { day: '2027-02-02', count: 1 }]);
    assert.equal(other.used('key_b'), 5, 'the stored total, nothing unconfirmed counted twice');
    assert.equal(other.used('key_b', { month: '2027-01' }), 0, 'January is no longer this process\'s to report');
  });

  it('writes what is left when stopped', async () => {
    await meter.load('key_b');
    meter.count('key_b');
    await meter.stop();
    assert.equal((await store.monthlyUsage(['key_b'], '2026-12')).get('key_b'), 1);
  });
});
