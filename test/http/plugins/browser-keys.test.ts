/** Browser (publishable) keys over HTTP, on both stores: served only to their origins, CORS naming the origin. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/http/app.js';
import { AccessControl } from '../../../src/keys/access-control.js';
import { createKey } from '../../../src/keys/issue-keys.js';
import { hashKey } from '../../../src/keys/key-format.js';
import { MIGRATIONS } from '../../../src/keys/migrations.js';
import { openStore } from '../../../src/keys/open-store.js';
import type { KeyStore } from '../../../src/keys/store.js';
import { UsageMeter } from '../../../src/keys/usage-meter.js';
import { appOptions } from '../../helper.js';
import { freshStore, STORE_KINDS, throwawayPostgres, throwawaySqlite } from '../../keys/stores.js';

const SHOP = 'https://shop.example.com';
const LOCAL = 'http://localhost:5173';

for (const { kind } of STORE_KINDS) {
  describe(`browser keys over HTTP (${kind} store)`, () => {
    let app: FastifyInstance;
    let store: KeyStore;
    let closeStore: () => Promise<void>;
    let browserKey: string;
    let browserKeyId: string;
    let secretKey: string;

    before(async () => {
      ({ store, close: closeStore } = await freshStore(kind));
      await store.createPlan({ name: 'roomy', monthlyQuota: 1000, perSecond: 1000 });
      const meter = new UsageMeter(store, { flushIntervalMs: 60_000 });
      const access = new AccessControl(store, meter, { keyCacheTtlMs: 0 });
      app = await buildApp({ ...appOptions(), access });
      ({ key: browserKey, record: { id: browserKeyId } } = await createKey(store, { name: 'shop', plan: 'roomy', origins: [SHOP, LOCAL] }));
      ({ key: secretKey } = await createKey(store, { name: 'server', plan: 'roomy' }));
    });
    after(async () => {
      await app.close();
      await closeStore();
    });

    const get = (url: string, key: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url, headers: { 'x-api-key': key, ...headers } });
    /** The browser key's monthly usage, asked with the key itself (which counts one). */
    const used = async () => (await get('/usage', browserKey, { origin: SHOP })).json().data.used as number;

    it('has its own prefix and is listed with its origins', async () => {
      assert.match(browserKey, /^khp_/);
      assert.deepEqual((await store.getKey(browserKeyId))?.allowedOrigins, [SHOP, LOCAL]);
    });

    it('is served to an allowed Origin, and CORS names that origin with Vary: Origin', async () => {
      for (const origin of [SHOP, LOCAL]) {
        const response = await get('/v1/provinces', browserKey, { origin });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['access-control-allow-origin'], origin);
        assert.match(String(response.headers.vary), /Origin/);
        assert.ok(response.headers.ratelimit, 'counted like any key: RateLimit headers');
      }
    });

    it('falls back on the Referer when there is no Origin', async () => {
      const response = await get('/provinces', browserKey, { referer: `${SHOP}/checkout?step=2` });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['access-control-allow-origin'], SHOP);
    });

    it('refuses any other origin, or none, with 403 origin_not_allowed in both shapes, not counted', async () => {
      const before = await used();
      const v1 = await get('/v1/provinces', browserKey, { origin: 'https://evil.example' });
      assert.equal(v1.statusCode, 403);
      assert.deepEqual(v1.json(), { status: 'error', error: { code: 'origin_not_allowed',
        message: 'This browser key is not allowed from the origin https://evil.example. Add the origin to the key in the dashboard, or use another key.' } });
      assert.match(String(v1.headers.vary), /Origin/);
      assert.notEqual(v1.headers['access-control-allow-origin'], 'https://evil.example');
      const identifier = await get('/provinces', browserKey);
      assert.equal(identifier.statusCode, 403);
      assert.equal(identifier.json().statusCode, 403);
      assert.equal(identifier.json().error.code, 'origin_not_allowed');
      assert.match(identifier.json().error.message, /names none/);
      assert.equal((await get('/provinces', browserKey, { referer: 'https://evil.example/' })).statusCode, 403);
      assert.equal((await get('/provinces', browserKey, { origin: 'null', referer: `${SHOP}/` })).statusCode, 403);
      assert.equal((await get('/provinces', browserKey, { origin: `${SHOP}.evil.example` })).statusCode, 403);
      assert.equal((await get('/provinces', browserKey, { origin: 'http://shop.example.com' })).statusCode, 403, 'the scheme is part of the origin');
      assert.equal(await used(), before + 1, 'only the /usage call itself counted');
    });

    it('counts admitted requests against the key', async () => {
      const before = await used();
      await get('/v1/provinces', browserKey, { origin: SHOP });
      await get('/v1/provinces', browserKey, { origin: LOCAL });
      assert.equal(await used(), before + 3);
    });

    it('takes new origins from the store (dashboard/CLI edit)', async () => {
      assert.equal(await store.setKeyOrigins(browserKeyId, ['https://new.example']), true);
      assert.equal((await get('/v1/provinces', browserKey, { origin: SHOP })).statusCode, 403);
      assert.equal((await get('/v1/provinces', browserKey, { origin: 'https://new.example' })).statusCode, 200);
    });

    it('leaves secret keys as they were: served from anywhere, CORS *', async () => {
      const response = await get('/v1/provinces', secretKey, { origin: 'https://anywhere.example' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['access-control-allow-origin'], '*');
      assert.equal(response.headers.vary, undefined);
      assert.equal((await get('/v1/provinces', secretKey)).statusCode, 200);
    });
  });
}

describe('the browser-key migration upgrades an existing store', () => {
  const upToV2 = MIGRATIONS.filter((m) => m.version <= 2);
  const keyRow = ['key_old', hashKey('old-secret'), 'khk_old', 'old key', 'free', null, '2026-01-01T00:00:00.000Z'];

  it('on SQLite: old keys stay secret keys, new ones can list origins', async () => {
    const database = await throwawaySqlite();
    try {
      const db = new Database(database.url.slice('sqlite:'.length));
      db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      for (const m of upToV2) {
        db.exec(m.sqlite);
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-01-01T00:00:00.000Z');
      }
      db.prepare('INSERT INTO api_keys (id, key_hash, prefix, name, plan, owner_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(...keyRow);
      db.close();
      const store = await openStore(database.url);
      assert.equal((await store.getKey('key_old'))?.allowedOrigins, null);
      const { record } = await createKey(store, { origins: [SHOP] });
      assert.deepEqual((await store.getKey(record.id))?.allowedOrigins, [SHOP]);
      await store.close();
    } finally {
      await database.drop();
    }
  });

  it('on PostgreSQL: old keys stay secret keys, new ones can list origins', async () => {
    const database = await throwawayPostgres();
    try {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
      for (const m of upToV2) {
        await client.query(m.postgres);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      }
      await client.query('INSERT INTO api_keys (id, key_hash, prefix, name, plan, owner_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', keyRow);
      await client.end();
      const store = await openStore(database.url);
      assert.equal((await store.getKey('key_old'))?.allowedOrigins, null);
      const { record } = await createKey(store, { origins: [SHOP] });
      assert.deepEqual((await store.getKey(record.id))?.allowedOrigins, [SHOP]);
      await store.close();
    } finally {
      await database.drop();
    }
  });
});
