/**
 * The key cache on real stores: one store lookup per uncached key however many requests wait for it (single
 * flight), and a rotation or revocation forgets only that key (a rotate loop must not evict everyone's keys).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccessControl, type KeyMemo } from '../../src/keys/access-control.js';
import { createKey, rotateKey } from '../../src/keys/issue-keys.js';
import type { KeyStore } from '../../src/keys/store.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { freshStore, STORE_KINDS } from './stores.js';

for (const { kind } of STORE_KINDS) {
  describe(`key cache (${kind} store)`, () => {
    let store: KeyStore;
    let close: () => Promise<void>;
    let lookups = 0;
    let access: AccessControl;
    let meter: UsageMeter;
    before(async () => {
      const fresh = await freshStore(kind);
      close = fresh.close;
      // The real store, with its key lookups counted.
      store = Object.create(fresh.store, {
        findKeyByHash: { value: (hash: string) => { lookups++; return fresh.store.findKeyByHash(hash); } },
      }) as KeyStore;
      meter = new UsageMeter(store, { flushIntervalMs: 60_000 });
      access = new AccessControl(store, meter, { keyCacheTtlMs: 600_000 });
      await store.createPlan({ name: 'roomy', monthlyQuota: 1_000_000, perSecond: 10_000 });
    });
    after(async () => {
      await meter.stop();
      await close();
    });

    it('looks an uncached key up once, however many requests wait for it', async () => {
      const { key } = await createKey(store, { plan: 'roomy' });
      const unknown = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`; // well-formed or not: either way one lookup at most
      lookups = 0;
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => access.admit(key)));
      assert.deepEqual(new Set(outcomes.map((a) => a.outcome)), new Set(['admitted']));
      assert.equal(lookups, 1, `${lookups} store lookups for 50 concurrent requests of one key`);
      await Promise.all(Array.from({ length: 20 }, () => access.admit(unknown)));
      assert.ok(lookups <= 2);
    });

    it('forgets only the rotated or revoked key: the others stay cached', async () => {
      const a = await createKey(store, { plan: 'roomy' });
      const b = await createKey(store, { plan: 'roomy' });
      await access.admit(a.key);
      await access.admit(b.key);
      lookups = 0;
      const rotated = await rotateKey(store, a.record.id);
      access.forgetKey(a.record.id);
      assert.equal((await access.admit(a.key)).outcome, 'invalid', 'the old secret is refused at once');
      assert.equal((await access.admit(rotated.key)).outcome, 'admitted');
      assert.equal((await access.admit(b.key)).outcome, 'admitted');
      assert.equal(lookups, 2, 'the old and new secrets of the rotated key were looked up; the other key was not');
      await store.revokeKey(b.record.id, new Date().toISOString());
      access.forgetKey(b.record.id);
      assert.equal((await access.admit(b.key)).outcome, 'invalid', 'a revocation applies at once');
      assert.equal((await access.admit(rotated.key)).outcome, 'admitted');
      assert.equal(lookups, 3);
    });

    it('a connection\'s memo of its last key skips the lookup, and ends with any change of the cache', async () => {
      const d = await createKey(store, { plan: 'roomy' });
      const e = await createKey(store, { plan: 'roomy' });
      const memo: Partial<KeyMemo> = {};
      assert.equal((await access.admit(d.key, undefined, memo)).outcome, 'admitted');
      assert.equal(memo.secret, undefined, 'a key looked up in the store is remembered by the next request');
      assert.equal((await access.admit(d.key, undefined, memo)).outcome, 'admitted');
      assert.equal(memo.secret, d.key, 'the connection remembers the key it presented');
      // Another key on the same connection (a proxy's connection serving several clients): looked up, remembered.
      assert.equal((await access.admit(e.key, undefined, memo)).outcome, 'admitted');
      assert.equal((await access.admit(e.key, undefined, memo)).outcome, 'admitted');
      assert.equal(memo.secret, e.key);
      lookups = 0;
      const usedBefore = meter.used(e.record.id);
      assert.equal((await access.admit(e.key, undefined, memo)).outcome, 'admitted');
      assert.equal(meter.used(e.record.id), usedBefore + 1, 'a request admitted through the memo is counted');
      assert.equal(lookups, 0);
      // A key revoked here is refused on the next request of the same connection.
      await store.revokeKey(e.record.id, new Date().toISOString());
      access.forgetKey(e.record.id);
      assert.equal((await access.admit(e.key, undefined, memo)).outcome, 'invalid', 'a revocation applies at once, memo or not');
      // An unknown key is never taken from the memo of a known one.
      const unknown = `${d.key.slice(0, -1)}${d.key.endsWith('a') ? 'b' : 'a'}`;
      assert.equal((await access.admit(d.key, undefined, memo)).outcome, 'admitted');
      assert.notEqual((await access.admit(unknown, undefined, memo)).outcome, 'admitted');
    });

    it('a lookup that started before a revocation does not cache the revoked key again', async () => {
      const c = await createKey(store, { plan: 'roomy' });
      const pending = access.admit(c.key); // the lookup is under way
      await store.revokeKey(c.record.id, new Date().toISOString());
      access.forgetKey(c.record.id);
      await pending;
      assert.equal((await access.admit(c.key)).outcome, 'invalid');
    });
  });
}
