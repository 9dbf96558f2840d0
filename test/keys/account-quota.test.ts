/**
 * The free plan limits accounts, not keys: all keys of an account share its plan's monthly quota and per-second
 * limit (more keys, or revoking and re-creating one, give no more), an operator's key without an account keeps its
 * own; an account has at most MAX_KEYS_PER_ACCOUNT live keys; /usage and the dashboard show the account's total and
 * each key's share. On both stores.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { AccessControl } from '../../src/keys/access-control.js';
import { createKey } from '../../src/keys/issue-keys.js';
import type { KeyStore } from '../../src/keys/store.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { Client, signedUp } from '../dashboard/helper.js';
import { appOptions } from '../helper.js';
import { freshStore, STORE_KINDS } from './stores.js';

const NOW = new Date('2026-11-10T12:00:00.250Z');

for (const { kind } of STORE_KINDS) {
  describe(`account quotas (${kind} store)`, () => {
    let store: KeyStore;
    let close: () => Promise<void>;
    let meter: UsageMeter;
    let app: FastifyInstance;
    let account = 0;
    before(async () => {
      ({ store, close } = await freshStore(kind));
      await store.createPlan({ name: 'ten', monthlyQuota: 10, perSecond: 1000 });
      await store.createPlan({ name: 'slow', monthlyQuota: 1000, perSecond: 3 });
      meter = new UsageMeter(store, { flushIntervalMs: 60_000, now: () => NOW });
      const access = new AccessControl(store, meter, { keyCacheTtlMs: 0, now: () => NOW });
      app = await buildApp({ ...appOptions(), access, store, dashboard: { operatorContact: '', maxKeysPerAccount: 3 }, maxEventLoopDelayMs: 0 });
    });
    after(async () => {
      await app.close();
      await meter.stop();
      await close();
    });

    const get = (url: string, key: string) => app.inject({ url, headers: { 'x-api-key': key } });
    /** An account on `plan` with `n` keys made as the dashboard makes them. */
    const accountWithKeys = async (plan: string, n: number) => {
      const ownerId = `acct_test${++account}`;
      await store.createAccount({ id: ownerId, email: `${ownerId}@example.com`, passwordHash: 'x', createdAt: NOW.toISOString() });
      const keys = [];
      for (let i = 0; i < n; i++) keys.push(await createKey(store, { plan: 'free', ownerId, name: `k${i}` }));
      await store.setKeyPlan(keys[0]!.record.id, plan); // the operator moves the account
      return { ownerId, keys };
    };

    it('all keys of an account share one monthly quota; revoking and re-creating a key gives no more', async () => {
      const { ownerId, keys: [a, b] } = await accountWithKeys('ten', 2);
      for (let i = 0; i < 5; i++) assert.equal((await get('/v1/provinces', a!.key)).statusCode, 200);
      for (let i = 0; i < 3; i++) assert.equal((await get('/v1/provinces', b!.key)).statusCode, 200);
      const usage = (await get('/usage', b!.key)).json().data;
      assert.deepEqual([usage.quota_scope, usage.used, usage.key_used, usage.remaining, usage.monthly_quota], ['account', 9, 4, 1, 10]);
      assert.equal((await get('/v1/usage', a!.key)).json().data[0].key_used, 6, 'a\'s share (this request included), with the account at 10');
      const refused = await get('/v1/provinces', a!.key);
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().error.code, 'quota_exceeded');
      assert.equal((await get('/v1/provinces', b!.key)).statusCode, 429, 'the other key too');
      await store.revokeKey(a!.record.id, NOW.toISOString());
      const c = await createKey(store, { plan: 'free', ownerId, name: 'new' });
      assert.equal(c.record.plan, 'ten', 'a new key is on the account\'s plan');
      assert.equal((await get('/v1/provinces', c.key)).json().error?.code, 'quota_exceeded', 'a new key starts at the account\'s total, not 0');
      // Written and read back: the account's total in the store covers every key, the revoked one too.
      await meter.flush();
      assert.equal((await store.holderUsage([ownerId], '2026-11')).get(ownerId), 10);
    });

    it('shares the per-second limit across the account\'s keys', async () => {
      const { keys } = await accountWithKeys('slow', 3);
      const statuses = [];
      for (const { key } of [...keys, ...keys]) statuses.push((await get('/v1/provinces', key)).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429]);
    });

    it('keeps per-key accounting for an operator\'s keys without an account', async () => {
      const x = await createKey(store, { plan: 'ten' });
      const y = await createKey(store, { plan: 'ten' });
      for (let i = 0; i < 10; i++) assert.equal((await get('/v1/provinces', x.key)).statusCode, 200);
      assert.equal((await get('/v1/provinces', x.key)).statusCode, 429);
      assert.equal((await get('/v1/provinces', y.key)).statusCode, 200, 'y has its own quota');
      const usage = (await get('/usage', y.key)).json().data;
      assert.deepEqual([usage.quota_scope, usage.used, usage.key_used], ['key', 2, 2]);
    });

    it('caps live keys per account in the dashboard, says so (in Khmer too), and shows the account\'s total and each key\'s share', async () => {
      const client: Client = await signedUp(app, `cap-${kind}@example.com`);
      const created = [];
      for (let i = 0; i < 3; i++) {
        await client.get('/dashboard');
        created.push((await client.post('/dashboard/keys', { name: `key ${i}` })).statusCode);
      }
      assert.deepEqual(created, [303, 303, 303]);
      await client.get('/dashboard?lang=km');
      const fourth = await client.post('/dashboard/keys', { name: 'one too many' });
      assert.equal(fourth.statusCode, 409);
      assert.match(fourth.body, /អ្នកមានសោសកម្ម ៣ រួចហើយ/);
      const ownerId = (await store.findAccountByEmail(`cap-${kind}@example.com`))!.id;
      const keys = await store.listKeys({ ownerId });
      assert.equal(keys.length, 3);
      // Revoking one makes room for another.
      await client.get(`/dashboard/keys/${keys[0]!.id}/revoke`);
      assert.equal((await client.post(`/dashboard/keys/${keys[0]!.id}/revoke`, {})).statusCode, 303);
      await client.get('/dashboard');
      assert.equal((await client.post('/dashboard/keys', { name: 'replacement' })).statusCode, 303);

      // Usage through two secrets of the account: rotate the live keys to learn their secrets, then call.
      const live = (await store.listKeys({ ownerId })).filter((k) => !k.revokedAt);
      const secrets: string[] = [];
      for (const key of live.slice(0, 2)) {
        await client.get(`/dashboard/keys/${key.id}/rotate`);
        const shown = await client.post(`/dashboard/keys/${key.id}/rotate`, {});
        const page = await client.get(String(shown.headers.location));
        secrets.push(/(khk_[A-Za-z0-9]{30})/.exec(page.body)![1]!);
      }
      // (Five: the free plan's per-second limit is the account's too, and the test's clock stands still.)
      for (let i = 0; i < 3; i++) assert.equal((await get('/v1/provinces', secrets[0]!)).statusCode, 200);
      for (let i = 0; i < 2; i++) assert.equal((await get('/v1/provinces', secrets[1]!)).statusCode, 200);
      assert.equal((await get('/v1/provinces', secrets[1]!)).statusCode, 429);
      const page = (await client.get('/dashboard?lang=en')).body;
      assert.match(page, /class="usage-count account-usage">5 of 1000 requests used/);
      assert.match(page, /class="usage-count key-share">this key: 3</);
      assert.match(page, /class="usage-count key-share">this key: 2</);
    });
  });
}
