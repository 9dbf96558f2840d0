/**
 * Sustained load on the real server (keys, metering, SQLite): zero errors, and memory that stops growing.
 * LOAD_TEST_SECONDS sets the length (60 by default in CI; longer on demand, e.g. 600).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import autocannon from 'autocannon';
import { createKey } from '../src/keys/issue-keys.js';
import { openStore } from '../src/keys/open-store.js';
import { gazetteer } from './helper.js';
import { throwawaySqlite } from './keys/stores.js';
import { startServer } from './server-process.js';

const SECONDS = Number(process.env.LOAD_TEST_SECONDS ?? 60);
/** Resident memory may grow by this much after the first tenth of the run (caches filling, JIT): more is a leak. */
const GROWTH_BOUND_MB = 64;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

describe('sustained load', () => {
  it(`answers ${SECONDS} s of load with zero errors and bounded memory`, { timeout: (SECONDS + 60) * 1000 }, async (t) => {
    const database = await throwawaySqlite();
    const store = await openStore(database.url);
    await store.createPlan({ name: 'load', monthlyQuota: 1_000_000_000, perSecond: 1_000_000 });
    const { key } = await createKey(store, { plan: 'load' });
    await store.close();
    const server = await startServer({ DATABASE_URL: database.url });
    try {
      const headers = { 'x-api-key': key };
      const district = gazetteer().byCode('1201')!.id;
      const requests = [
        { path: '/provinces', headers }, { path: `/districts/${district}?lang=km`, headers }, { path: '/v1/villages/120101', headers },
        { path: '/lookup/121001', headers }, { path: '/search?q=Battambang', headers }, { path: '/search?q=%E1%9E%97%E1%9F%92%E1%9E%93%E1%9F%86', headers },
        { path: '/v1/search?q=toul%20kork', headers },
      ];
      const pid = server.child.pid!;
      let earlyRss = 0;
      const sampler = setTimeout(() => (earlyRss = rssMb(pid)), (SECONDS * 1000) / 10);
      const result = await autocannon({ url: server.url, connections: 50, duration: SECONDS, requests });
      clearTimeout(sampler);
      const lateRss = rssMb(pid);
      t.diagnostic(`${result.requests.total} requests in ${SECONDS} s (${result.requests.average.toFixed(0)} req/s), `
        + `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts; p99 ${result.latency.p99} ms; `
        + `RSS ${earlyRss.toFixed(0)} MB at ${SECONDS / 10} s, ${lateRss.toFixed(0)} MB at the end`);
      assert.ok(result.requests.total > SECONDS * 100, 'the load ran');
      assert.equal(result.errors + result.timeouts, 0);
      assert.equal(result.non2xx, 0);
      assert.ok(lateRss - earlyRss < GROWTH_BOUND_MB, `RSS grew ${(lateRss - earlyRss).toFixed(0)} MB`);
      assert.equal(await server.stop(), 0);
    } finally {
      await server.stop().catch(() => undefined);
      await database.drop();
    }
  });
});
