/**
 * Another process holding SQLite's write lock while the server serves: requests keep being answered promptly
 * (better-sqlite3 waits synchronously, so the busy timeout is short), usage writes fail and are retried, and
 * nothing is lost once the lock is released.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createKey } from '../../src/keys/issue-keys.js';
import { openStore } from '../../src/keys/open-store.js';
import { monthOf } from '../../src/keys/periods.js';
import { startServer } from '../server-process.js';
import { throwawaySqlite } from './stores.js';

describe('SQLite locked by another process', () => {
  it('keeps answering while the lock is held, and writes all usage after', async (t) => {
    const database = await throwawaySqlite();
    try {
      const store = await openStore(database.url);
      await store.createPlan({ name: 'roomy', monthlyQuota: 1_000_000, perSecond: 10_000 });
      const { key, record } = await createKey(store, { plan: 'roomy' });
      const server = await startServer({ DATABASE_URL: database.url, USAGE_FLUSH_MS: '100' });
      assert.equal((await fetch(`${server.url}/v1/provinces`, { headers: { 'x-api-key': key } })).status, 200);

      const locker = new Database(database.url.slice('sqlite:'.length));
      locker.exec('BEGIN EXCLUSIVE');
      let answered = 1;
      let slowest = 0;
      const until = Date.now() + 2000;
      while (Date.now() < until) {
        const started = performance.now();
        const response = await fetch(`${server.url}/v1/provinces`, { headers: { 'x-api-key': key } });
        await response.arrayBuffer();
        slowest = Math.max(slowest, performance.now() - started);
        assert.equal(response.status, 200);
        answered++;
      }
      locker.exec('ROLLBACK');
      locker.close();
      assert.equal(await server.stop(), 0);
      const stored = (await store.monthlyUsage([record.id], monthOf(new Date()))).get(record.id);
      await store.close();
      t.diagnostic(`${answered} requests answered during a 2 s lock, slowest ${slowest.toFixed(0)} ms; stored ${stored}`);
      assert.ok(slowest < 1000, `a request took ${slowest.toFixed(0)} ms`);
      assert.equal(stored, answered);
    } finally {
      await database.drop();
    }
  });
});
