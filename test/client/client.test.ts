/**
 * The typed client (packages/client) against a real running server (Fastify listening on a port, a real SQLite key
 * store): one method per operation, both shapes, typed errors with the API's codes, retries on 429 and 503 after
 * Retry-After, the key from the environment; and the committed generated types match the served OpenAPI document.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { KhAddressClient, KhAddressError, OPERATIONS } from '../../packages/client/src/index.js';
import { generateClientFiles, servedOpenApi, staleClientFiles } from '../../scripts/client/generate.js';
import { buildApp } from '../../src/http/app.js';
import { AccessControl } from '../../src/keys/access-control.js';
import { createKey } from '../../src/keys/issue-keys.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { appOptions, unit } from '../helper.js';
import { freshStore } from '../keys/stores.js';

describe('@kh-address/client against a running server', () => {
  let app: FastifyInstance;
  let baseUrl: string;
  let key: string;
  let slowKey: string;
  let meter: UsageMeter;
  let closeStore: () => Promise<void>;
  let document: Record<string, unknown>;

  before(async () => {
    const fresh = await freshStore('sqlite');
    closeStore = fresh.close;
    await fresh.store.createPlan({ name: 'roomy', monthlyQuota: 100_000, perSecond: 1000 });
    await fresh.store.createPlan({ name: 'slow', monthlyQuota: 100_000, perSecond: 1 });
    meter = new UsageMeter(fresh.store, { flushIntervalMs: 60_000 });
    app = await buildApp({ ...appOptions(), access: new AccessControl(fresh.store, meter, { keyCacheTtlMs: 10_000 }), store: fresh.store });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    ({ key } = await createKey(fresh.store, { plan: 'roomy' }));
    ({ key: slowKey } = await createKey(fresh.store, { plan: 'slow' }));
    document = await servedOpenApi();
  });
  after(async () => {
    await app.close();
    await meter.stop();
    await closeStore();
  });

  it('has the committed generated types of the served OpenAPI document (npm run generate:client when this fails)', async () => {
    assert.deepEqual(await staleClientFiles(document), []);
  });

  it('would notice a changed document: the generated types follow it', async () => {
    const changed = structuredClone(document) as { paths: Record<string, { get?: { operationId?: string } }> };
    changed.paths['/v1/provinces']!.get!.operationId = 'renamedForTheTest';
    const files = await generateClientFiles(changed);
    assert.match(files['src/operations.ts'], /"renamedForTheTest"/);
    assert.notEqual(files['src/openapi.ts'], (await generateClientFiles(document))['src/openapi.ts']);
  });

  it('has one method per operation of the document, both shapes', () => {
    const client = new KhAddressClient({ baseUrl, apiKey: key });
    const ids: string[] = [];
    for (const item of Object.values(document.paths as Record<string, Record<string, { operationId?: string }>>)) {
      for (const operation of Object.values(item)) if (operation.operationId) ids.push(operation.operationId);
    }
    assert.deepEqual(Object.keys(OPERATIONS).sort(), ids.sort());
    for (const id of ids) assert.equal(typeof (client as unknown as Record<string, unknown>)[id], 'function', id);
    for (const id of ['listProvinces', 'v1ListProvinces', 'search', 'v1Search', 'v1Dataset']) assert.ok(ids.includes(id), id);
  });

  it('calls both shapes with typed parameters and results', async () => {
    const kh = new KhAddressClient({ baseUrl, apiKey: key });
    const v1 = await kh.v1ListDistricts({ path: { province_code: '12' } });
    assert.equal(v1.status, 'success');
    assert.equal(v1.data.length, 14);
    assert.equal(v1.data[0]!.province_code, '12');
    const provinces = await kh.listProvinces({ query: { lang: 'km' } });
    assert.equal(provinces.statusCode, 200);
    const province = await kh.getProvince({ path: { id: unit('12').id }, query: { lang: 'en' } });
    assert.equal(province.data.name, 'Phnom Penh');
    const found = await kh.v1Search({ query: { q: 'Battambang', pageSize: 3 } });
    assert.equal(found.data[0]!.code, '02');
    const byPath = await kh.getLocationBySlugPath({ path: { path: 'phnom-penh/chamkar-mon' } });
    assert.equal(byPath.data.code, '1201');
    const csv = await kh.v1Dataset({ query: { format: 'csv', level: 'province' } });
    assert.equal(typeof csv, 'string');
    assert.equal((csv as unknown as string).trim().split('\r\n').length, 26);
  });

  it('validates what the picker submits, server side (the README walk-through)', async () => {
    const kh = new KhAddressClient({ baseUrl, apiKey: key });
    const submitted = { province_code: '12', district_code: '1204', commune_code: '120403', village_code: '12040301', postal_code: '120403' };
    const check = (form: typeof submitted) => kh.v1Validate({ query: {
      province: form.province_code, district: form.district_code, commune: form.commune_code, village: form.village_code, postal_code: form.postal_code,
    } });
    const ok = await check(submitted);
    assert.equal(ok.data.valid, true);
    assert.equal(ok.data.corrected?.village?.code, '12040301');
    const tampered = await check({ ...submitted, commune_code: '120101' });
    assert.equal(tampered.data.valid, false);
    assert.ok(tampered.data.problems.length > 0);
    assert.ok(tampered.data.problems.every((p) => p.message_km.length > 0), 'problems in Khmer too');
  });

  it('throws KhAddressError with the API\'s code, status, details and correlation id', async () => {
    const kh = new KhAddressClient({ baseUrl, apiKey: key });
    await assert.rejects(kh.v1ListDistricts({ path: { province_code: '99' } }), (error: unknown) => {
      assert.ok(error instanceof KhAddressError);
      assert.equal(error.status, 404);
      assert.equal(error.code, 'not_found');
      assert.match(error.correlationId ?? '', /^[0-9a-f-]{36}$/);
      return true;
    });
    await assert.rejects(kh.v1ListDistricts({ path: { province_code: '1' } }), (error: unknown) =>
      error instanceof KhAddressError && error.code === 'invalid_request' && error.details?.[0]?.parameter === 'province_code');
    await assert.rejects(new KhAddressClient({ baseUrl, apiKey: '' }).v1ListProvinces(), (error: unknown) =>
      error instanceof KhAddressError && error.status === 401 && error.code === 'missing_api_key');
    await assert.rejects(new KhAddressClient({ baseUrl: 'http://127.0.0.1:1', apiKey: key, retries: 0 }).v1ListProvinces(), (error: unknown) =>
      error instanceof KhAddressError && error.code === 'network_error' && error.status === 0);
  });

  it('takes the key and the address from the environment', async () => {
    const saved = { key: process.env.KH_ADDRESS_KEY, url: process.env.KH_ADDRESS_URL };
    process.env.KH_ADDRESS_KEY = key;
    process.env.KH_ADDRESS_URL = baseUrl;
    try {
      const kh = new KhAddressClient();
      assert.equal(kh.baseUrl, baseUrl);
      assert.equal((await kh.v1GetProvince({ path: { province_code: '12' } })).data[0]!.name_km, 'ភ្នំពេញ');
    } finally {
      for (const [name, value] of [['KH_ADDRESS_KEY', saved.key], ['KH_ADDRESS_URL', saved.url]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('retries a 429 after its Retry-After, and gives up when told to', async () => {
    const statuses: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    const kh = new KhAddressClient({ baseUrl, apiKey: slowKey, fetch: counting });
    // One request a second on this plan. Two calls can fall on both sides of a second's boundary and both be served,
    // but of three calls made back to back at least two share a second: one is refused (429, Retry-After: 1), and
    // the client waits and tries it again, so every call returns data and no 429 reaches the caller.
    for (let i = 0; i < 3; i++) assert.equal((await kh.v1ListProvinces()).data.length, 25);
    assert.ok(statuses.includes(429), `a 429 was met: ${statuses.join(', ')}`);
    statuses.forEach((status, i) => {
      if (status === 429) assert.equal(statuses[i + 1], 200, `a 429 is followed by a served retry: ${statuses.join(', ')}`);
    });
    assert.equal(statuses.filter((status) => status === 200).length, 3, statuses.join(', '));
    // Without retries the 429 reaches the caller as a typed error (of two calls back to back, one shares a second
    // with the call before it).
    const impatient = new KhAddressClient({ baseUrl, apiKey: slowKey, retries: 0 });
    const refusals = (await Promise.allSettled([impatient.v1ListProvinces(), impatient.v1ListProvinces()]))
      .filter((result) => result.status === 'rejected').map((result) => (result as PromiseRejectedResult).reason as unknown);
    assert.ok(refusals.length >= 1, 'one of two calls in the same second is refused');
    for (const error of refusals) {
      assert.ok(error instanceof KhAddressError && error.status === 429 && error.code === 'rate_limited' && error.retryAfter === 1, String(error));
    }
  });

  it('retries a 503 after its Retry-After (a real server that is briefly unavailable)', async () => {
    let calls = 0;
    const flaky = createServer((_request, response) => {
      calls += 1;
      if (calls === 1) {
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        response.end(JSON.stringify({ status: 'error', error: { code: 'service_unavailable', message: 'down for a moment' } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'success', data: [] }));
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const address = flaky.address() as { port: number };
      const kh = new KhAddressClient({ baseUrl: `http://127.0.0.1:${address.port}`, apiKey: key });
      assert.deepEqual(await kh.v1ListProvinces(), { status: 'success', data: [] });
      assert.equal(calls, 2);
    } finally {
      flaky.close();
    }
  });
});
