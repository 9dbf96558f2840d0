/**
 * What a crash can lose: kill -9 a server under load, restart it, and compare the stored usage with the answers the
 * client received. Documented bound: at most one flush interval's worth of requests are lost, and nothing is counted
 * that was not admitted (at most the requests in flight when it died). SIGTERM loses nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createKey } from '../../src/keys/issue-keys.js';
import { openStore } from '../../src/keys/open-store.js';
import { monthOf } from '../../src/keys/periods.js';
import type { KeyStore } from '../../src/keys/store.js';
import { startServer } from '../server-process.js';
import { throwawaySqlite, type ThrowawayDatabase } from './stores.js';

const FLUSH_MS = 500;
const CONCURRENCY = 8;

/** Sends requests from CONCURRENCY loops until stop() and records when each answer arrived. */
function load(url: string, key: string) {
  const answers: number[] = [];
  let running = true;
  const loops = Array.from({ length: CONCURRENCY }, async () => {
    while (running) {
      try {
        const response = await fetch(`${url}/v1/provinces/12`, { headers: { 'x-api-key': key } });
        await response.arrayBuffer();
        if (response.status < 500) answers.push(performance.now());
      } catch {
        // The server died mid-request: no answer.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  });
  return { answers, stop: async () => { running = false; await Promise.all(loops); } };
}

describe('usage across crashes and shutdowns (SQLite)', () => {
  let database: ThrowawayDatabase;
  let store: KeyStore;
  before(async () => {
    database = await throwawaySqlite();
    store = await openStore(database.url);
    await store.createPlan({ name: 'unlimited', monthlyQuota: 10_000_000, perSecond: 1_000_000 });
  });
  after(async () => {
    await store.close();
    await database.drop();
  });
  const stored = async (keyId: string) => (await store.monthlyUsage([keyId], monthOf(new Date()))).get(keyId) ?? 0;

  it('kill -9 under load loses at most one flush interval of counts', async (t) => {
    const { key, record } = await createKey(store, { plan: 'unlimited' });
    const server = await startServer({ DATABASE_URL: database.url, USAGE_FLUSH_MS: String(FLUSH_MS) });
    const traffic = load(server.url, key);
    await new Promise((resolve) => setTimeout(resolve, 2000 + Math.random() * FLUSH_MS));
    const killedAt = performance.now();
    await server.kill9();
    await traffic.stop();
    const answered = traffic.answers.length;

    const restarted = await startServer({ DATABASE_URL: database.url, USAGE_FLUSH_MS: String(FLUSH_MS) });
    assert.equal((await fetch(`${restarted.url}/v1/provinces/12`, { headers: { 'x-api-key': key } })).status, 200, 'serves again after the crash');
    assert.equal(await restarted.stop(), 0);

    const count = (await stored(record.id)) - 1; // less the request after the restart
    const lastInterval = traffic.answers.filter((at) => at > killedAt - 2 * FLUSH_MS).length;
    t.diagnostic(`answered ${answered} before kill -9; stored ${count}; lost ${answered - count}; answered in the last ${2 * FLUSH_MS} ms: ${lastInterval}`);
    assert.ok(answered > 100, `only ${answered} requests answered: the load did not run`);
    assert.ok(count <= answered + CONCURRENCY, `stored ${count} > answered ${answered} + ${CONCURRENCY} in flight`);
    assert.ok(answered - count <= lastInterval, `lost ${answered - count}, more than the ${lastInterval} answered in the last flush interval`);
  });

  it('SIGTERM after load writes every count: stored equals answered', async (t) => {
    const { key, record } = await createKey(store, { plan: 'unlimited' });
    const server = await startServer({ DATABASE_URL: database.url, USAGE_FLUSH_MS: '60000' });
    const traffic = load(server.url, key);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await traffic.stop();
    assert.equal(await server.stop(), 0);
    t.diagnostic(`answered ${traffic.answers.length}; stored ${await stored(record.id)} (flush interval 60 s: all written at shutdown)`);
    assert.equal(await stored(record.id), traffic.answers.length);
  });
});

describe('first start', () => {
  it('prints a labelled development key once when the store has no key, and not when DEV_KEY=off', async () => {
    const database = await throwawaySqlite();
    try {
      const off = await startServer({ DATABASE_URL: database.url, DEV_KEY: 'off' });
      await off.stop();
      assert.doesNotMatch(off.output(), /DEVELOPMENT API KEY/);

      const first = await startServer({ DATABASE_URL: database.url, DEV_KEY: 'on' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const key = /DEVELOPMENT API KEY[\s\S]*?(khk_[0-9A-Za-z]{30})/.exec(first.output())?.[1];
      assert.ok(key, first.output());
      assert.match(first.output(), /DEV_KEY=off/);
      assert.equal((await fetch(`${first.url}/provinces`, { headers: { 'x-api-key': key } })).status, 200);
      await first.stop();

      const second = await startServer({ DATABASE_URL: database.url, DEV_KEY: 'on' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await second.stop();
      assert.doesNotMatch(second.output(), /DEVELOPMENT API KEY/);
    } finally {
      await database.drop();
    }
  });
});
