/** GET /v1/dataset: files with version, licence and attribution; precompressed by Accept-Encoding; ETag; counted once. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { loadGeography } from '../../../src/geo/geography.js';
import { buildApp } from '../../../src/http/app.js';
import { chooseEncoding } from '../../../src/http/precompressed.js';
import { AccessControl } from '../../../src/keys/access-control.js';
import { createKey } from '../../../src/keys/issue-keys.js';
import { UsageMeter } from '../../../src/keys/usage-meter.js';
import { parseCsvRecords } from '../../../src/lib/csv.js';
import { appOptions, gazetteer } from '../../helper.js';
import { freshStore } from '../../keys/stores.js';

const version = gazetteer().version;

describe('GET /v1/dataset', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildApp(appOptions());
  });
  after(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('serves the whole dataset as JSON by default, with version, licence and attribution, as an attachment', async () => {
    const response = await get('/v1/dataset');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.equal(response.headers['content-disposition'], `attachment; filename="kh-address-${version}-all.json"`);
    assert.equal(response.headers['content-encoding'], undefined);
    assert.equal(Number(response.headers['content-length']), response.rawPayload.length);
    const body = response.json();
    assert.equal(body.version, version);
    assert.equal(body.level, 'all');
    assert.match(body.licence, /MIT/);
    assert.match(body.attribution, /NCDD/);
    assert.match(body.attribution, /Prakas No\. 77/);
    assert.equal(body.count, 25 + 210 + 1652 + 14578);
    assert.equal(body.units.length, body.count);
    const kbalKaoh = body.units.find((u: { code: string }) => u.code === '121207');
    assert.equal(kbalKaoh.postal_code, '121001', 'the Prakas code, not one computed from the NCDD code');
    assert.equal(kbalKaoh.name_km, gazetteer().byCode('121207')!.name_km);
  });

  it('serves CSV per level and for all levels, the version on every row', async () => {
    const provinces = await get('/v1/dataset?format=csv&level=province');
    assert.equal(provinces.statusCode, 200);
    assert.match(String(provinces.headers['content-type']), /^text\/csv/);
    assert.equal(provinces.headers['content-disposition'], `attachment; filename="kh-address-${version}-provinces.csv"`);
    const rows = parseCsvRecords(provinces.body);
    assert.equal(rows.length, 25);
    assert.equal(rows[0]!.code, '01');
    assert.ok(rows.every((r) => r.dataset_version === version && r.level === 'province'));
    assert.deepEqual([rows.find((r) => r.code === '12')!.name_km, rows.find((r) => r.code === '12')!.postal_code], ['ភ្នំពេញ', '120000']);
    const villages = parseCsvRecords((await get('/v1/dataset?format=csv&level=village')).body);
    assert.equal(villages.length, 14578);
    assert.equal(parseCsvRecords((await get('/v1/dataset?format=csv')).body).length, 16465);
  });

  it('serves GeoJSON of centroids with the version and attribution', async () => {
    const response = await get('/v1/dataset?format=geojson&level=province');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/geo\+json/);
    const body = response.json();
    assert.equal(body.type, 'FeatureCollection');
    assert.equal(body.version, version);
    assert.match(body.attribution, /NCDD/);
    assert.equal(body.features.length, 25);
    const pp = body.features.find((f: { id: string }) => f.id === '12');
    assert.equal(pp.geometry.type, 'Point');
    const [lng, lat] = pp.geometry.coordinates as [number, number];
    assert.ok(lng > 104.5 && lng < 105.2 && lat > 11.3 && lat < 11.8, `Phnom Penh at ${lat}, ${lng}`);
  });

  it('sends brotli or gzip by Accept-Encoding, the same content, with Vary and strong ETags', async () => {
    const plain = await get('/v1/dataset?format=csv&level=commune');
    const br = await get('/v1/dataset?format=csv&level=commune', { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await get('/v1/dataset?format=csv&level=commune', { 'accept-encoding': 'gzip' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 4, `brotli ${br.rawPayload.length} of ${plain.rawPayload.length}`);
    assert.deepEqual(zlib.brotliDecompressSync(br.rawPayload), plain.rawPayload);
    assert.deepEqual(zlib.gunzipSync(gz.rawPayload), plain.rawPayload);
    for (const response of [plain, br, gz]) assert.equal(response.headers.vary, 'Accept-Encoding');
    assert.match(String(plain.headers.etag), /^"[\w-]{22}"$/);
    assert.equal(br.headers.etag, String(plain.headers.etag).replace(/"$/, '-br"'));
    assert.notEqual(plain.headers.etag, (await get('/v1/dataset?format=csv&level=district')).headers.etag);
    for (const tag of [plain.headers.etag, br.headers.etag, gz.headers.etag, `W/${String(plain.headers.etag)}`]) {
      const again = await get('/v1/dataset?format=csv&level=commune', { 'if-none-match': String(tag), 'accept-encoding': 'br' });
      assert.equal(again.statusCode, 304, String(tag));
      assert.equal(again.rawPayload.length, 0);
    }
    assert.equal((await get('/v1/dataset?format=csv&level=commune', { 'if-none-match': '"other"' })).statusCode, 200);
  });

  it('refuses unknown formats, levels and parameters with 400 in the /v1 error shape', async () => {
    for (const url of ['/v1/dataset?format=xml', '/v1/dataset?level=city', '/v1/dataset?version=1']) {
      const response = await get(url);
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().status, 'error');
      assert.equal(response.json().error.code, 'invalid_request');
    }
  });

  it('chooses the encoding by q-values', () => {
    assert.equal(chooseEncoding(undefined), 'identity');
    assert.equal(chooseEncoding('gzip, br;q=0'), 'gzip');
    assert.equal(chooseEncoding('br;q=0.5, gzip;q=0.8'), 'br', 'any accepted brotli is smaller');
    assert.equal(chooseEncoding('*'), 'br');
    assert.equal(chooseEncoding('identity'), 'identity');
    assert.equal(chooseEncoding('gzip;q=0, br;q=0'), 'identity');
    assert.equal(chooseEncoding(`${'x,'.repeat(10_000)}br`), 'identity', 'only the start of a huge header is read');
  });
});

describe('GET /v1/dataset?format=geojson with the geography loaded', () => {
  it('gives provinces, districts and communes their boundaries, villages their centroids, with the boundaries\' attribution', async () => {
    const app = await buildApp({ ...appOptions(), geo: loadGeography() });
    try {
      const communes = await app.inject({ url: '/v1/dataset?format=geojson&level=commune', headers: { 'accept-encoding': 'br' } });
      assert.equal(communes.statusCode, 200);
      const body = JSON.parse(zlib.brotliDecompressSync(communes.rawPayload).toString());
      assert.equal(body.features.length, 1652);
      assert.match(body.attribution, /CC BY 4\.0/);
      assert.match(body.attribution, /NCDD/);
      const polygons = body.features.filter((f: { geometry: { type: string } | null }) => f.geometry?.type === 'MultiPolygon');
      assert.equal(polygons.length, 1652, 'every commune drawn (split ones from their 2014 polygons, flagged)');
      const kbalKaoh = body.features.find((f: { id: string }) => f.id === '121207');
      assert.equal(kbalKaoh.properties.postal_code, '121001');
      assert.equal(typeof kbalKaoh.properties.approximate, 'boolean');
      assert.ok(kbalKaoh.geometry.coordinates[0][0].length >= 4);
      const villages = JSON.parse((await app.inject('/v1/dataset?format=geojson&level=village')).body);
      assert.ok(villages.features.every((f: { geometry: { type: string } | null }) => f.geometry === null || f.geometry.type === 'Point'));
    } finally {
      await app.close();
    }
  });
});

describe('GET /v1/dataset with an API key', () => {
  it('counts one download as one request', async () => {
    const { store, close } = await freshStore('sqlite');
    const meter = new UsageMeter(store, { flushIntervalMs: 60_000 });
    const app = await buildApp({ ...appOptions(), access: new AccessControl(store, meter, { keyCacheTtlMs: 10_000 }) });
    try {
      const { key } = await createKey(store);
      const headers = { 'x-api-key': key, 'accept-encoding': 'br' };
      assert.equal((await app.inject({ url: '/v1/dataset?format=json', headers })).statusCode, 200);
      assert.equal((await app.inject({ url: '/v1/dataset?format=csv&level=province', headers })).statusCode, 200);
      assert.equal((await app.inject({ url: '/usage', headers })).json().data.used, 3, 'two downloads and this call');
      assert.equal((await app.inject({ url: '/v1/dataset' })).statusCode, 401);
    } finally {
      await app.close();
      await meter.stop();
      await close();
    }
  });
});
