/**
 * Three server processes on one PostgreSQL database share one monthly quota, of a key or of an account's keys: with a
 * quota of 300, at most 300 plus two blocks (a tenth of the quota each) get through, however fast the burst, and the
 * stored usage equals what was admitted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createKey } from '../../src/keys/issue-keys.js';
import { openStore } from '../../src/keys/open-store.js';
import type { KeyStore } from '../../src/keys/store.js';
import { startServer, type ServerProcess } from '../server-process.js';
import { throwawayPostgres, type ThrowawayDatabase } from './stores.js';

const QUOTA = 300;
const FLUSH_MS = 1000;
const REQUESTS = 900;
const CONCURRENCY = 48;
const REPLICAS = 3;

describe('three replicas on PostgreSQL', () => {
  let database: ThrowawayDatabase;
  let store: KeyStore;
  let servers: ServerProcess[] = [];
  before(async () => {
    database = await throwawayPostgres();
    store = await openStore(database.url);
    servers = await Promise.all(Array.from({ length: REPLICAS }, () => startServer({ DATABASE_URL: database.url, USAGE_FLUSH_MS: String(FLUSH_MS) })));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
    await store.close();
    await database.drop();
  });

  for (const holder of ['key', 'account'] as const) {
    it(`admit at most ${QUOTA} + ${REPLICAS - 1} blocks on ${holder === 'key' ? 'a key' : 'an account\'s three keys'} with quota ${QUOTA}`, async (t) => {
      const plan = `shared-300-${holder}`;
      await store.createPlan({ name: plan, monthlyQuota: QUOTA, perSecond: 100_000 });
      let keys: string[];
      let keyIds: string[];
      if (holder === 'key') {
        const { key, record } = await createKey(store, { plan });
        [keys, keyIds] = [[key], [record.id]];
      } else {
        await store.createAccount({ id: 'acct_replicas', email: 'replicas@example.com', passwordHash: 'x', createdAt: new Date().toISOString() });
        const issued = [];
        for (let i = 0; i < 3; i++) issued.push(await createKey(store, { plan: 'free', ownerId: 'acct_replicas' }));
        await store.setKeyPlan(issued[0]!.record.id, plan);
        [keys, keyIds] = [issued.map((k) => k.key), issued.map((k) => k.record.id)];
      }
      const statuses: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          const i = next++;
          const response = await fetch(`${servers[i % REPLICAS]!.url}/v1/villages/120101`, { headers: { 'x-api-key': keys[i % keys.length]! } });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
      }));
      const seconds = (performance.now() - started) / 1000;
      const admitted = statuses.filter((s) => s === 200).length;
      const refused = statuses.filter((s) => s === 429).length;
      assert.equal(admitted + refused, REQUESTS, 'every answer is a 200 or a 429');
      // The design bound (see the README): when the quota runs out, each other replica is at most one block ahead,
      // a block being a tenth of what the store last said was left.
      const bound = QUOTA + (REPLICAS - 1) * Math.ceil(QUOTA / 10);
      t.diagnostic(`${holder}: ${REQUESTS} requests over ${REPLICAS} replicas in ${seconds.toFixed(2)} s (${(REQUESTS / seconds).toFixed(0)} req/s, ${CONCURRENCY} at a time): ${admitted} admitted, ${refused} refused; bound ${bound}`);
      assert.ok(admitted >= QUOTA, `only ${admitted} admitted`);
      assert.ok(admitted <= bound, `${admitted} admitted, more than ${bound}`);

      // Stopping the replicas writes their last counts: the store then holds exactly the admitted requests.
      await Promise.all(servers.map((s) => s.stop()));
      const stored = (await store.holderUsage([holder === 'key' ? keyIds[0]! : 'acct_replicas'], new Date().toISOString().slice(0, 7)));
      t.diagnostic(`stored usage after shutdown: ${[...stored.values()][0]}`);
      assert.equal([...stored.values()][0], admitted);
      servers = await Promise.all(Array.from({ length: REPLICAS }, () => startServer({ DATABASE_URL: database.url, USAGE_FLUSH_MS: String(FLUSH_MS) })));
    });
  }
});
