/** The API-key gate over HTTP, in both shapes, against both stores. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/http/app.js';
import { AccessControl } from '../../../src/keys/access-control.js';
import { createKey, rotateKey } from '../../../src/keys/issue-keys.js';
import { generateKey } from '../../../src/keys/key-format.js';
import type { KeyStore } from '../../../src/keys/store.js';
import { UsageMeter } from '../../../src/keys/usage-meter.js';
import { appOptions } from '../../helper.js';
import { freshStore, STORE_KINDS } from '../../keys/stores.js';

/** A fixed clock: 20 days and 1.5 s before the quota resets on 1 December 2026. */
const NOW = new Date('2026-11-10T23:59:58.500Z');
const SECONDS_TO_RESET = 20 * 86400 + 2;

function parseRateLimit(header: string | undefined) {
  const policies: Record<string, Record<string, number>> = {};
  for (const item of String(header).split(',')) {
    const [name, ...params] = item.trim().split(';');
    policies[JSON.parse(name!) as string] = Object.fromEntries(params.map((p) => [p.split('=')[0]!, Number(p.split('=')[1])]));
  }
  return policies;
}

for (const { kind } of STORE_KINDS) {
  describe(`API keys over HTTP (${kind} store)`, () => {
    let app: FastifyInstance;
    let store: KeyStore;
    let meter: UsageMeter;
    let closeStore: () => Promise<void>;
    let key: string;
    let keyId: string;

    before(async () => {
      ({ store, close: closeStore } = await freshStore(kind));
      await store.createPlan({ name: 'tiny', monthlyQuota: 3, perSecond: 100 });
      await store.createPlan({ name: 'slow', monthlyQuota: 1000, perSecond: 2 });
      await store.createPlan({ name: 'roomy', monthlyQuota: 1000, perSecond: 1000 });
      meter = new UsageMeter(store, { flushIntervalMs: 60_000, now: () => NOW });
      // No key cache: a revocation or plan change in the store applies to the next request.
      const access = new AccessControl(store, meter, { keyCacheTtlMs: 0, now: () => NOW });
      app = await buildApp({ ...appOptions(), access });
      ({ key, record: { id: keyId } } = await createKey(store, { plan: 'roomy', name: 'test' }));
    });
    after(async () => {
      await app.close();
      await closeStore();
    });

    const get = (url: string, apiKey?: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url, headers: { ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }), ...headers } });
    const usedBy = async (apiKey: string) => (await get('/usage', apiKey)).json().data.used as number;

    it('leaves /health, /openapi.json and /docs open', async () => {
      for (const url of ['/health', '/openapi.json', '/docs']) {
        const response = await get(url);
        assert.ok(response.statusCode < 400, `${url}: ${response.statusCode}`);
      }
    });

    for (const [shape, url, envelope] of [['identifier', '/provinces', ['statusCode', 'error', 'metadata']], ['code-based', '/v1/provinces', ['status', 'error']]] as const) {
      it(`refuses missing, malformed, unknown and revoked keys with 401 (${shape} shape)`, async () => {
        const missing = await get(url);
        assert.equal(missing.statusCode, 401);
        assert.deepEqual(Object.keys(missing.json()), envelope);
        assert.equal(missing.json().error.code, 'missing_api_key');
        assert.equal(missing.headers.ratelimit, undefined);
        const typo = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
        const { key: revoked, record } = await createKey(store);
        await store.revokeKey(record.id, NOW.toISOString());
        for (const bad of ['nonsense', typo, generateKey(), revoked]) {
          const response = await get(url, bad);
          assert.equal(response.statusCode, 401, bad);
          assert.deepEqual(Object.keys(response.json()), envelope);
          assert.equal(response.json().error.code, 'invalid_api_key', bad);
        }
      });

      it(`admits a valid key with RateLimit headers for both policies (${shape} shape)`, async () => {
        const before = await usedBy(key);
        const response = await get(url, key);
        assert.equal(response.statusCode, 200);
        assert.deepEqual(parseRateLimit(response.headers['ratelimit-policy'] as string),
          { monthly: { q: 1000, w: 30 * 86400 }, 'per-second': { q: 1000, w: 1 } });
        const state = parseRateLimit(response.headers.ratelimit as string);
        // `before` counted the /usage request that read it; this request makes one more.
        assert.deepEqual(state.monthly, { r: 1000 - before - 1, t: SECONDS_TO_RESET });
        assert.equal(state['per-second']!.t, 1);
      });
    }

    it('counts every admitted request whatever its status, and not the refused ones', async () => {
      const start = await usedBy(key);
      const statuses = [];
      for (const url of ['/provinces', '/provinces?lang=fr', '/v1/provinces/99', '/nowhere/at/all']) statuses.push((await get(url, key)).statusCode);
      assert.deepEqual(statuses, [200, 400, 404, 404]);
      await get('/provinces');
      await get('/provinces', 'khk_wrong');
      // Three data requests (200, 400, 404) count; /nowhere is outside the API (no key needed, not counted); the
      // requests without a valid key do not count; the /usage request that reads the total counts itself.
      assert.equal(await usedBy(key), start + 3 + 1);
    });

    it('counts a 304 revalidation', async () => {
      const etag = String((await get('/v1/provinces', key)).headers.etag);
      const start = await usedBy(key);
      assert.equal((await get('/v1/provinces', key, { 'if-none-match': etag })).statusCode, 304);
      assert.equal(await usedBy(key), start + 2);
    });

    for (const [shape, url, usageUrl] of [['identifier', '/provinces', '/usage'], ['code-based', '/v1/provinces', '/v1/usage']] as const) {
      it(`says 429 quota_exceeded with Retry-After to next month once the quota is used (${shape} shape)`, async () => {
        const { key: tiny, record } = await createKey(store, { plan: 'tiny' });
        for (let i = 0; i < 3; i++) assert.equal((await get(url, tiny)).statusCode, 200);
        const refused = await get(url, tiny);
        assert.equal(refused.statusCode, 429);
        assert.equal(refused.json().error.code, 'quota_exceeded');
        assert.equal(refused.headers['retry-after'], String(SECONDS_TO_RESET));
        assert.equal(parseRateLimit(refused.headers.ratelimit as string).monthly!.r, 0);
        // Refused requests are not counted: usage is still the quota (and /usage itself is refused now).
        assert.equal((await get(usageUrl, tiny)).statusCode, 429);
        assert.equal(meter.used(record.id), 3);
      });

      it(`says 429 rate_limited with Retry-After over the per-second limit (${shape} shape)`, async () => {
        const { key: slow } = await createKey(store, { plan: 'slow' });
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await get(url, slow)).statusCode);
        assert.deepEqual(statuses, [200, 200, 429, 429]);
        const refused = await get(url, slow);
        assert.equal(refused.json().error.code, 'rate_limited');
        assert.equal(refused.headers['retry-after'], '1');
        assert.deepEqual(parseRateLimit(refused.headers.ratelimit as string)['per-second'], { r: 0, t: 1 });
      });
    }

    it('answers /usage and /v1/usage with plan, quota, used, remaining and reset', async () => {
      const { key: fresh, record } = await createKey(store, { plan: 'roomy' });
      await get('/provinces', fresh);
      assert.deepEqual((await get('/usage', fresh)).json().data, {
        key_id: record.id, key_prefix: record.prefix, plan: 'roomy', monthly_quota: 1000, per_second: 1000, quota_scope: 'key', used: 2,
        key_used: 2, remaining: 998, period: '2026-11', resets_at: '2026-12-01T00:00:00.000Z',
      });
      const v1 = (await get('/v1/usage', fresh)).json();
      assert.equal(v1.status, 'success');
      assert.equal(v1.data[0].used, 3);
      assert.equal((await get('/usage')).statusCode, 401);
    });

    it('keeps id and usage across a rotation; the old secret stops working', async () => {
      const before = await usedBy(key);
      const { key: rotated, record } = await rotateKey(store, keyId);
      assert.equal(record.id, keyId);
      assert.equal((await get('/provinces', key)).json().error.code, 'invalid_api_key');
      assert.equal(await usedBy(rotated), before + 1);
      key = rotated;
    });

    it('applies a plan change', async () => {
      await store.setKeyPlan(keyId, 'tiny');
      assert.equal((await get('/provinces', key)).json().error.code, 'quota_exceeded');
      await store.setKeyPlan(keyId, 'roomy');
      assert.equal((await get('/provinces', key)).statusCode, 200);
    });

    it('writes the counted usage to the store at the flush', async () => {
      await meter.flush();
      const stored = (await store.monthlyUsage([keyId], '2026-11')).get(keyId);
      assert.equal(stored, meter.used(keyId));
      assert.ok(stored! > 10);
    });
  });
}
