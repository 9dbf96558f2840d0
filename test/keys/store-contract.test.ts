/** One contract, two stores: SQLite and PostgreSQL must behave the same. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashKey } from '../../src/keys/key-format.js';
import { openStore } from '../../src/keys/open-store.js';
import { FREE_PLAN, type KeyStore, StoreError } from '../../src/keys/store.js';
import { freshStore, STORE_KINDS } from './stores.js';

const newKey = (id: string, plan = 'free', ownerId: string | null = null) => ({
  id, hash: hashKey(`secret-${id}`), prefix: `khk_${id}`, name: `key ${id}`, plan, ownerId, createdAt: `2026-11-0${id.length % 9 + 1}T00:00:00.000Z`,
});

for (const { kind } of STORE_KINDS) {
  describe(`${kind} store contract`, () => {
    let store: KeyStore;
    let close: () => Promise<void>;
    let url: string;
    before(async () => {
      ({ store, close, database: { url } } = await freshStore(kind));
    });
    after(() => close());

    it('migrates idempotently, also from several processes at once', async () => {
      await store.migrate();
      const others = await Promise.all([openStore(url), openStore(url), openStore(url)]);
      await Promise.all(others.map((s) => s.close()));
      assert.deepEqual(await store.listPlans(), [FREE_PLAN]);
    });

    it('has the free plan and lets the operator add and change plans', async () => {
      assert.deepEqual(await store.getPlan('free'), { name: 'free', monthlyQuota: 1000, perSecond: 5 });
      await store.createPlan({ name: 'pro', monthlyQuota: 100_000, perSecond: 50 });
      await assert.rejects(store.createPlan({ name: 'pro', monthlyQuota: 1, perSecond: 1 }), (e) => e instanceof StoreError && e.code === 'conflict');
      assert.deepEqual(await store.updatePlan('pro', { perSecond: 60 }), { name: 'pro', monthlyQuota: 100_000, perSecond: 60 });
      assert.equal(await store.updatePlan('nope', { perSecond: 1 }), undefined);
      assert.deepEqual((await store.listPlans()).map((p) => p.name), ['free', 'pro']);
    });

    it('stores keys by hash, finds them with their plan\'s limits, lists and counts them', async () => {
      assert.equal(await store.countKeys(), 0);
      const created = await store.createKey(newKey('key_a'));
      assert.deepEqual(created, { id: 'key_a', prefix: 'khk_key_a', name: 'key key_a', plan: 'free', ownerId: null,
        createdAt: created.createdAt, revokedAt: null, lastUsedAt: null, allowedOrigins: null });
      await store.createKey(newKey('key_bb', 'pro', 'account_1'));
      await assert.rejects(store.createKey(newKey('key_c', 'nope')), (e) => e instanceof StoreError && e.code === 'not_found');
      const found = await store.findKeyByHash(hashKey('secret-key_bb'));
      assert.equal(found?.id, 'key_bb');
      assert.deepEqual(found?.limits, { name: 'pro', monthlyQuota: 100_000, perSecond: 60 });
      assert.equal(await store.findKeyByHash(hashKey('nothing')), undefined);
      assert.equal(await store.countKeys(), 2);
      assert.deepEqual((await store.listKeys()).map((k) => k.id).sort(), ['key_a', 'key_bb']);
      assert.deepEqual((await store.listKeys({ ownerId: 'account_1' })).map((k) => k.id), ['key_bb']);
    });

    it('revokes, rotates, renames and moves keys between plans', async () => {
      assert.equal(await store.replaceSecret('key_a', hashKey('rotated'), 'khk_rotate'), true);
      assert.equal(await store.findKeyByHash(hashKey('secret-key_a')), undefined);
      assert.equal((await store.findKeyByHash(hashKey('rotated')))?.id, 'key_a');
      assert.equal(await store.setKeyPlan('key_a', 'pro'), true);
      assert.equal((await store.findKeyByHash(hashKey('rotated')))?.limits.monthlyQuota, 100_000);
      await assert.rejects(store.setKeyPlan('key_a', 'nope'), (e) => e instanceof StoreError && e.code === 'not_found');
      assert.equal(await store.setKeyPlan('key_zz', 'free'), false);
      assert.equal(await store.renameKey('key_a', 'renamed'), true);
      assert.equal((await store.getKey('key_a'))?.name, 'renamed');
      assert.equal(await store.revokeKey('key_a', '2026-11-20T00:00:00.000Z'), true);
      assert.equal(await store.revokeKey('key_a', '2026-11-21T00:00:00.000Z'), false);
      assert.equal((await store.getKey('key_a'))?.revokedAt, '2026-11-20T00:00:00.000Z');
      assert.equal(await store.replaceSecret('key_a', hashKey('again'), 'khk_again'), false, 'a revoked key cannot be rotated');
    });

    it('keeps a browser key\'s allowed origins, and changes them only on browser keys', async () => {
      const origins = ['https://shop.example.com', 'http://localhost:5173'];
      const created = await store.createKey({ ...newKey('key_web'), hash: hashKey('secret-web'), prefix: 'khp_web', allowedOrigins: origins });
      assert.deepEqual(created.allowedOrigins, origins);
      assert.deepEqual((await store.findKeyByHash(hashKey('secret-web')))?.allowedOrigins, origins);
      assert.equal(await store.setKeyOrigins('key_web', ['https://other.example']), true);
      assert.deepEqual((await store.getKey('key_web'))?.allowedOrigins, ['https://other.example']);
      assert.equal(await store.setKeyOrigins('key_bb', ['https://other.example']), false, 'a secret key stays secret');
      assert.equal((await store.getKey('key_bb'))?.allowedOrigins, null);
      assert.equal(await store.setKeyOrigins('key_none', ['https://other.example']), false);
      assert.ok((await store.listKeys()).some((k) => k.id === 'key_web' && k.allowedOrigins?.[0] === 'https://other.example'));
    });

    it('adds usage in one batch and reports monthly totals and days', async () => {
      const totals = await store.recordUsage(
        [{ keyId: 'key_bb', day: '2026-11-01', count: 3 }, { keyId: 'key_bb', day: '2026-11-02', count: 4 }, { keyId: 'key_a', day: '2026-10-31', count: 9 }],
        new Map([['key_bb', '2026-11-02T10:00:00.000Z']]), '2026-11', ['account_1', 'key_a']);
      // Totals are per quota holder: key_bb belongs to account_1, key_a to nobody (its own holder).
      assert.deepEqual([...totals], [['account_1', 7]]);
      const again = await store.recordUsage([{ keyId: 'key_bb', day: '2026-11-02', count: 1 }], new Map([['key_bb', '2026-11-01T00:00:00.000Z']]), '2026-11', ['account_1']);
      assert.equal(again.get('account_1'), 8);
      assert.equal((await store.getKey('key_bb'))?.lastUsedAt, '2026-11-02T10:00:00.000Z', 'last used never goes back');
      assert.deepEqual([...(await store.monthlyUsage(['key_a', 'key_bb', 'key_none'], '2026-10'))], [['key_a', 9]]);
      assert.deepEqual(await store.dailyUsage('key_bb', '2026-11-01', '2026-11-30'), [{ day: '2026-11-01', count: 3 }, { day: '2026-11-02', count: 5 }]);
      assert.deepEqual(await store.dailyUsage('key_bb', '2026-11-02', '2026-11-02'), [{ day: '2026-11-02', count: 5 }]);
      assert.deepEqual([...(await store.monthlyUsage([], '2026-11'))], []);
    });

    it('keeps counts exact under concurrent batches', async () => {
      await Promise.all(Array.from({ length: 20 }, () =>
        store.recordUsage([{ keyId: 'key_bb', day: '2026-11-03', count: 5 }], new Map(), '2026-11', ['key_bb'])));
      assert.deepEqual(await store.dailyUsage('key_bb', '2026-11-03', '2026-11-03'), [{ day: '2026-11-03', count: 100 }]);
    });

    it('totals an account\'s usage over all its keys, revoked ones too; an operator\'s key is its own holder', async () => {
      await store.createKey(newKey('key_acct_2', 'free', 'account_1'));
      await store.revokeKey('key_acct_2', '2026-11-04T00:00:00.000Z');
      await store.recordUsage([{ keyId: 'key_acct_2', day: '2026-11-03', count: 50 }, { keyId: 'key_a', day: '2026-11-03', count: 2 }],
        new Map(), '2026-11', []);
      assert.deepEqual(new Map(await store.holderUsage(['account_1', 'key_a', 'key_bb', 'nobody'], '2026-11')),
        new Map([['account_1', 158], ['key_a', 2]]), 'key_bb is no holder of its own: its account is');
      assert.deepEqual([...(await store.monthlyUsage(['key_bb', 'key_acct_2'], '2026-11'))].sort(), [['key_acct_2', 50], ['key_bb', 108]]);
    });

    it('keeps an account\'s keys on one plan: new keys take it, a plan change moves them all', async () => {
      await store.createAccount({ id: 'acct_plans', email: 'plans@example.com', passwordHash: 'x', createdAt: '2026-11-01T00:00:00.000Z' });
      const first = await store.createKey(newKey('key_p1', 'free', 'acct_plans'));
      assert.equal(first.plan, 'free');
      assert.equal(await store.setKeyPlan('key_p1', 'pro'), true);
      const second = await store.createKey(newKey('key_p2', 'free', 'acct_plans'));
      assert.equal(second.plan, 'pro', 'a new key of the account is on the account\'s plan');
      assert.deepEqual((await store.listKeys({ ownerId: 'acct_plans' })).map((k) => k.plan), ['pro', 'pro']);
      await store.setKeyPlan('key_p2', 'free');
      assert.deepEqual((await store.listKeys({ ownerId: 'acct_plans' })).map((k) => k.plan), ['free', 'free']);
    });

    it('caps an account\'s live keys atomically, even under concurrent creations', async () => {
      const attempts = await Promise.allSettled(Array.from({ length: 12 }, (_, i) =>
        store.createKey(newKey(`key_cap_${i}`, 'free', 'acct_capped'), { maxLiveKeysPerOwner: 5 })));
      assert.equal(attempts.filter((a) => a.status === 'fulfilled').length, 5);
      assert.ok(attempts.filter((a) => a.status === 'rejected').every((a) => (a as PromiseRejectedResult).reason instanceof StoreError
        && (a as PromiseRejectedResult).reason.code === 'limit'));
      const live = await store.listKeys({ ownerId: 'acct_capped' });
      assert.equal(live.length, 5);
      await store.revokeKey(live[0]!.id, '2026-11-05T00:00:00.000Z');
      await store.createKey(newKey('key_cap_after', 'free', 'acct_capped'), { maxLiveKeysPerOwner: 5 });
      await assert.rejects(store.createKey(newKey('key_cap_more', 'free', 'acct_capped'), { maxLiveKeysPerOwner: 5 }), (e) => e instanceof StoreError && e.code === 'limit');
      await store.createKey(newKey('key_cap_operator'), { maxLiveKeysPerOwner: 5 });
    });
  });
}

describe('openStore', () => {
  it('refuses a DATABASE_URL of another kind', async () => {
    await assert.rejects(openStore('mysql://localhost/db'), /sqlite: or postgres:\/\//);
  });
});

for (const { kind } of STORE_KINDS) {
  describe(`${kind} store contract: dashboard accounts and sessions`, () => {
    let store: KeyStore;
    let close: () => Promise<void>;
    before(async () => {
      ({ store, close } = await freshStore(kind));
    });
    after(() => close());

    it('creates accounts with unique emails and finds them by email and id', async () => {
      const account = { id: 'acct_1', email: 'dara@example.com', passwordHash: 'scrypt$x', createdAt: '2026-11-01T00:00:00.000Z' };
      assert.deepEqual(await store.createAccount(account), account);
      await assert.rejects(store.createAccount({ ...account, id: 'acct_2' }), (e) => e instanceof StoreError && e.code === 'conflict');
      assert.deepEqual(await store.findAccountByEmail('dara@example.com'), account);
      assert.deepEqual(await store.getAccount('acct_1'), account);
      assert.equal(await store.findAccountByEmail('nobody@example.com'), undefined);
    });

    it('keeps sessions until they expire or are deleted', async () => {
      await store.createSession('hash_a', { accountId: 'acct_1', createdAt: '2026-11-01T00:00:00.000Z', expiresAt: '2026-11-08T00:00:00.000Z' });
      assert.deepEqual(await store.findSession('hash_a', '2026-11-02T00:00:00.000Z'), { accountId: 'acct_1', expiresAt: '2026-11-08T00:00:00.000Z' });
      assert.equal(await store.findSession('hash_a', '2026-11-09T00:00:00.000Z'), undefined, 'expired');
      await store.deleteSession('hash_a');
      assert.equal(await store.findSession('hash_a', '2026-11-02T00:00:00.000Z'), undefined);
    });
  });
}
