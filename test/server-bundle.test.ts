/**
 * What `npm start` runs: dist/server.bundle.js, the build's one-file bundle of the server (scripts/bundle.ts). Every
 * module in it must still find its files from where it was: the dataset and unit history, the build's snapshots, the
 * package's version, the picker's script, the API docs' static files (found by a package from its __dirname).
 * Needs `npm run build` (CI builds before it tests); without a build at all, skipped.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createKey } from '../src/keys/issue-keys.js';
import { openStore } from '../src/keys/open-store.js';
import { startServer, type ServerProcess } from './server-process.js';
import { throwawaySqlite, type ThrowawayDatabase } from './keys/stores.js';

const root = new URL('..', import.meta.url).pathname;
const start = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: { start: string }; version: string });
const words = start.scripts.start.split(/\s+/);
const entry = words.at(-1)!;
const built = existsSync(`${root}dist/server.js`);

describe('the server bundle npm start runs', { skip: built ? false : 'no build (npm run build makes dist/)' }, () => {
  let database: ThrowawayDatabase;
  let server: ServerProcess;
  let key: string;
  before(async () => {
    database = await throwawaySqlite();
    const store = await openStore(database.url);
    await store.createPlan({ name: 'unlimited', monthlyQuota: 10_000_000, perSecond: 1_000_000 });
    ({ key } = await createKey(store, { plan: 'unlimited' }));
    await store.close();
    server = await startServer({ DATABASE_URL: database.url }, { args: [...words.filter((w) => w.startsWith('--')), entry] });
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
  });
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { 'x-api-key': key } });

  it('is what npm start runs, and the build made it', () => {
    assert.equal(entry, 'dist/server.bundle.js');
    assert.ok(existsSync(`${root}${entry}`), 'dist/server.js is built but the bundle is not: run npm run build');
  });

  it('reads the dataset and the build\'s snapshots from where they are', async () => {
    const output = server.output();
    assert.match(output, /"units":16465/);
    assert.match(output, /search index loaded from the build's snapshot/);
    assert.match(output, /address resolver's tables loaded from the build's snapshot/);
    const provinces = await get('/v1/provinces');
    assert.equal(provinces.status, 200);
    assert.equal(((await provinces.json()) as { data: unknown[] }).data.length, 25);
    // The resolver, with its tables from the build's snapshot and the unit history (Tonle Basak is in Chamkar Mon).
    const resolved = await get(`/v1/resolve?q=${encodeURIComponent('ផ្ទះលេខ២ ផ្លូវ២៣ ភូមិ១ សង្កាត់ទន្លេបាសាក់ ខណ្ឌចំការមន រាជធានីភ្នំពេញ')}&limit=1`);
    assert.equal(resolved.status, 200);
    const [best] = ((await resolved.json()) as { data: { code: string; level: string; house_number: string }[] }).data;
    assert.deepEqual([best?.code, best?.level, best?.house_number], ['12010101', 'village', '2']);
  });

  it('serves the files modules and packages find from their own place', async () => {
    const openapi = (await (await get('/openapi.json')).json()) as { info: { version: string } };
    assert.equal(openapi.info.version, start.version);
    const picker = await get('/widget/kh-address-picker.js');
    assert.equal(picker.status, 200);
    assert.equal(await picker.text(), readFileSync(`${root}packages/picker/kh-address-picker.js`, 'utf8'));
    const css = await get('/docs/static/swagger-ui.css');
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /text\/css/);
    assert.ok((await css.text()).length > 10_000);
  });
});
