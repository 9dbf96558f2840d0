/**
 * Real store faults on real PostgreSQL, made with a TCP relay between the app and the server (see tcp-relay.ts), not
 * mocks: the server unreachable (connections cut), the network stalled (connections open, no answers), a dropped
 * table and a dropped database. Known keys keep working on their last known record (bounded by KEY_STALE_MS),
 * everything else on the admission path is a 503 with Retry-After, every store call ends within its timeout, one hung
 * usage write does not block the later ones, and the dashboard says it is unavailable (503) while public pages work.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/http/app.js';
import { AccessControl } from '../../src/keys/access-control.js';
import { createKey } from '../../src/keys/issue-keys.js';
import { openStore } from '../../src/keys/open-store.js';
import { monthOf } from '../../src/keys/periods.js';
import type { KeyStore } from '../../src/keys/store.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { Client, signedUp } from '../dashboard/helper.js';
import { appOptions } from '../helper.js';
import { throwawayPostgres, type ThrowawayDatabase } from './stores.js';
import { postgresTarget, TcpRelay } from './tcp-relay.js';

/** Far above what a query takes even on a loaded machine; a stalled query waits this long. */
const TIMEOUT_MS = 4000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL faults through a relay', { timeout: 120_000 }, () => {
  let database: ThrowawayDatabase;
  let relay: TcpRelay;
  let store: KeyStore;
  let meter: UsageMeter;
  let access: AccessControl;
  let app: FastifyInstance;
  let known: string;
  let knownId: string;
  let unseen: string;
  let developer: Client;

  before(async () => {
    database = await throwawayPostgres();
    relay = await new TcpRelay(postgresTarget(database.url)).start();
    store = await openStore(relay.urlFor(database.url), { timeoutMs: TIMEOUT_MS });
    await store.createPlan({ name: 'roomy', monthlyQuota: 1_000_000, perSecond: 10_000 });
    ({ key: known, record: { id: knownId } } = await createKey(store, { plan: 'roomy' }));
    ({ key: unseen } = await createKey(store, { plan: 'roomy' }));
    meter = new UsageMeter(store, { flushIntervalMs: 600_000 });
    // A short TTL, so that the outage outlasts it; the last known record is served for up to a minute.
    access = new AccessControl(store, meter, { keyCacheTtlMs: 100, keyStaleMs: 60_000, storeRetryMs: 200 });
    app = await buildApp({ ...appOptions(), access, store, dashboard: { operatorContact: '' }, maxEventLoopDelayMs: 0 });
    developer = await signedUp(app, 'dev@example.com');
  });
  after(async () => {
    relay.restore();
    await app.close();
    await meter.stop().catch(() => undefined);
    await store.close().catch(() => undefined);
    await relay.close();
    await database.drop();
  });

  const get = (url: string, key?: string, client?: Client) => (client ? client.get(url) : app.inject({ url, headers: key ? { 'x-api-key': key } : {} }));

  it('server unreachable: a known key keeps working past the TTL; an unseen key, /ready and the dashboard say 503', async () => {
    assert.equal((await get('/v1/provinces', known)).statusCode, 200);
    await meter.flush();
    relay.cut();
    await sleep(200); // past KEY_CACHE_TTL_MS
    for (let i = 0; i < 5; i++) assert.equal((await get('/v1/provinces', known)).statusCode, 200, 'served on its last known record');
    const refused = await get('/provinces', unseen);
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.headers['retry-after'], '5');
    assert.equal(refused.json().error.code, 'service_unavailable');
    assert.equal((await get('/ready')).statusCode, 503);

    const page = await developer.get('/dashboard?lang=km');
    assert.equal(page.statusCode, 503);
    assert.ok(page.headers['retry-after']);
    assert.match(page.body, /ផ្ទាំងគ្រប់គ្រងមិនអាចភ្ជាប់ទៅមូលដ្ឋានទិន្នន័យ/);
    assert.match((await developer.get('/dashboard?lang=en')).body, /cannot reach its database/);
    const landing = await developer.get('/?lang=en');
    assert.equal(landing.statusCode, 200, 'public pages work (signed out)');
    assert.equal((await new Client(app).get('/signin')).statusCode, 200);

    // Only for so long: a key the store has not confirmed for longer than KEY_STALE_MS is refused with a 503.
    const strict = new AccessControl(store, meter, { keyCacheTtlMs: 1, keyStaleMs: 2, storeRetryMs: 1 });
    relay.restore();
    assert.equal((await strict.admit(known)).outcome, 'admitted');
    relay.cut();
    await sleep(50); // past both
    await assert.rejects(async () => strict.admit(known), (e: Error) => /key store unavailable/.test(e.message));
    relay.restore();
    assert.equal((await get('/provinces', unseen)).statusCode, 200, 'back once the store is');
  });

  it('network stall: every store call ends within its timeout, and one hung write does not block the next', async () => {
    await meter.flush();
    assert.equal(meter.unflushed, 0);
    const before = (await store.monthlyUsage([knownId], monthOf(new Date()))).get(knownId) ?? 0;
    relay.stall();
    await sleep(200);
    for (let i = 0; i < 3; i++) assert.equal((await get('/v1/provinces', known)).statusCode, 200);
    const fresh = (await createKeyOutside()).key;
    // Without timeouts each of these hung forever (the test's own timeout would fail it).
    assert.equal((await get('/provinces', fresh)).statusCode, 503);
    await assert.rejects(meter.flush());
    await assert.rejects(meter.flush(), 'a second write is attempted (and bounded), not stuck behind the first');
    assert.equal((await get('/ready')).statusCode, 503);
    assert.equal((await developer.get('/dashboard')).statusCode, 503);
    relay.restore();
    // Connections that timed out were discarded; the next write goes through on a fresh one, with the kept counts.
    await meter.flush();
    const afterRestore = (await store.monthlyUsage([knownId], monthOf(new Date()))).get(knownId) ?? 0;
    assert.equal(afterRestore - before, 3, 'the three requests of the stall were written after it');
    assert.equal((await get('/provinces', fresh)).statusCode, 200);
  });

  it('a dropped table and a dropped database are a 503 with Retry-After, not a 500', async () => {
    const other = (await createKeyOutside()).key;
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query('DROP TABLE api_keys CASCADE');
    await admin.end();
    const noTable = await get('/provinces', other);
    assert.deepEqual([noTable.statusCode, noTable.headers['retry-after']], [503, '5'], '42P01');
    await database.drop();
    const noDatabase = await get('/v1/provinces', other);
    assert.deepEqual([noDatabase.statusCode, noDatabase.headers['retry-after']], [503, '5'], '3D000 (or the connection ended)');
    assert.deepEqual([(await get('/v1/provinces', other)).statusCode], [503], '3D000 on a new connection');
    assert.equal((await developer.get('/dashboard')).statusCode, 503);
    assert.equal((await developer.get('/')).statusCode, 200);
  });

  /** A key made directly on the database (not through the relay), so that the app has never seen it. */
  async function createKeyOutside() {
    const direct = await openStore(database.url);
    try {
      return await createKey(direct, { plan: 'roomy' });
    } finally {
      await direct.close();
    }
  }
});
