/** Operations in-process: readiness, metrics, security headers, and a 503 (not a 500) when the store is down. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { AccessControl } from '../../src/keys/access-control.js';
import { createKey } from '../../src/keys/issue-keys.js';
import { generateKey } from '../../src/keys/key-format.js';
import type { KeyStore } from '../../src/keys/store.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { appOptions } from '../helper.js';
import { freshStore } from '../keys/stores.js';

const TOKEN = 'metrics-token-for-tests-0123';

describe('operations', () => {
  let app: FastifyInstance;
  let store: KeyStore;
  let meter: UsageMeter;
  let closeStore: () => Promise<void>;
  let key: string;
  before(async () => {
    ({ store, close: closeStore } = await freshStore('sqlite'));
    meter = new UsageMeter(store, { flushIntervalMs: 60_000 });
    const access = new AccessControl(store, meter, { keyCacheTtlMs: 600_000 });
    app = await buildApp({ ...appOptions(), access, store, dashboard: { operatorContact: '' }, metricsToken: TOKEN });
    ({ key } = await createKey(store));
  });
  after(async () => {
    await app.close();
    await closeStore().catch(() => undefined);
  });

  it('answers /health and /ready without a key', async () => {
    assert.equal((await app.inject('/health')).statusCode, 200);
    const ready = await app.inject('/ready');
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ready', datasetVersion: appOptions().gazetteer.version, store: 'sqlite' });
  });

  it('serves Prometheus metrics only with the token', async () => {
    await app.inject({ url: '/provinces', headers: { 'x-api-key': key } });
    await app.inject('/provinces');
    assert.equal((await app.inject('/metrics')).statusCode, 401);
    assert.equal((await app.inject({ url: '/metrics', headers: { authorization: 'Bearer wrong-token-of-same-size!!' } })).statusCode, 401);
    const metrics = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(metrics.statusCode, 200);
    assert.match(metrics.body, /http_requests_total\{route="\/provinces",method="GET",status="200"\} 1/);
    assert.match(metrics.body, /api_refusals_total\{reason="missing_api_key"\} 1/);
    assert.match(metrics.body, /http_request_duration_seconds_bucket\{le="0.005",route="\/provinces"\}/);
    assert.match(metrics.body, /usage_unflushed_requests 1/);
    assert.match(metrics.body, /process_resident_memory_bytes/);
    // Without a token configured, there is no /metrics at all.
    const open = await buildApp(appOptions());
    assert.equal((await open.inject('/metrics')).statusCode, 404);
    await open.close();
  });

  it('puts security headers and a nonce-based CSP on dashboard pages, not on JSON', async () => {
    const page = await app.inject('/');
    assert.match(String(page.headers['content-security-policy']), /default-src 'self';.*script-src 'nonce-[^']+'/);
    assert.doesNotMatch(String(page.headers['content-security-policy']), /upgrade-insecure-requests/);
    const nonce = /style-src[^;]*'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))?.[1];
    assert.ok(nonce && page.body.includes(`<style nonce="${nonce}">`));
    assert.equal(page.headers['x-frame-options'], 'SAMEORIGIN');
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.equal((await app.inject({ url: '/provinces', headers: { 'x-api-key': key } })).headers['content-security-policy'], undefined);
  });

  it('keeps serving known keys when the store goes away, answers 503 for the rest, and is not ready', async () => {
    const { key: unseen } = await createKey(store);
    await closeStore();
    assert.equal((await app.inject({ url: '/provinces', headers: { 'x-api-key': key } })).statusCode, 200, 'a cached key still works');
    for (const [url, apiKey] of [['/provinces', unseen], ['/v1/provinces', generateKey()]] as const) {
      const response = await app.inject({ url, headers: { 'x-api-key': apiKey } });
      assert.equal(response.statusCode, 503, url);
      assert.equal(response.headers['retry-after'], '5');
      assert.equal(response.json().error.code, 'service_unavailable');
    }
    const ready = await app.inject('/ready');
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().error.code, 'service_unavailable');
    const unwritten = meter.unflushed;
    assert.ok(unwritten >= 3, 'the three requests made with the known key');
    await assert.rejects(meter.flush(), 'the usage write fails too');
    assert.equal(meter.unflushed, unwritten, 'and keeps its counts');
  });
});

/** Blocks the event loop (a stuck handler, a GC storm) so that under-pressure measures the lag. */
async function blockEventLoop(ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) { /* busy */ }
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('load shedding', () => {
  it('answers 503 with Retry-After in the error envelope while the event loop lags', async () => {
    // Its own threshold (under-pressure compares the mean delay of its last sample to it, so a 1.5 s block among
    // ~10 ms samples must exceed a low one).
    const app = await buildApp({ ...appOptions(), maxEventLoopDelayMs: 50 });
    try {
      await app.ready();
      assert.equal((await app.inject('/v1/provinces')).statusCode, 200);
      await blockEventLoop(1500);
      const shed = await app.inject('/v1/provinces');
      assert.equal(shed.statusCode, 503);
      assert.equal(shed.headers['retry-after'], '5');
      assert.deepEqual(shed.json(), { status: 'error', error: { code: 'service_unavailable', message: 'The server is overloaded; retry after Retry-After seconds.' } });
    } finally {
      await app.close();
    }
  });
});

describe('tests other than the shedding one', () => {
  it('build the app with shedding off: a lagging event loop (a busy machine) does not turn their requests into 503', async () => {
    const app = await buildApp(appOptions());
    try {
      await app.ready();
      await blockEventLoop(1500);
      assert.equal((await app.inject('/v1/provinces')).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});
