/** The geography routes over HTTP (real Fastify, real data): reverse in both shapes, bulk with the quota, boundaries. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadGeography } from '../../src/geo/geography.js';
import { buildApp } from '../../src/http/app.js';
import { AccessControl } from '../../src/keys/access-control.js';
import { createKey } from '../../src/keys/issue-keys.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { appOptions } from '../helper.js';
import { freshStore } from '../keys/stores.js';

const geo = loadGeography();
/** A point inside Tonle Basak (120101), Phnom Penh, away from its edges. */
const [INSIDE_LNG, INSIDE_LAT] = geo.shape('120101')!.point;

describe('geography routes (open)', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildApp({ ...appOptions(), geo });
  });
  after(() => app.close());
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('GET /v1/reverse answers the commune with its district, province, postal code and the attribution', async () => {
    const response = await get(`/v1/reverse?lat=${INSIDE_LAT}&lng=${INSIDE_LNG}`);
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['x-attribution']), /Open Development Cambodia.*CC BY 4\.0/);
    const body = response.json();
    assert.equal(body.status, 'success');
    assert.match(body.attribution, /geoBoundaries/);
    assert.equal(body.data.length, 1);
    const [record] = body.data;
    assert.equal(record.level, 'commune');
    assert.equal(record.code, '120101');
    assert.equal(record.commune.code, '120101');
    assert.equal(record.district.code, '1201');
    assert.equal(record.province.code, '12');
    assert.equal(record.province.name_km, 'ភ្នំពេញ');
    assert.match(record.postal_code, /^12\d{4}$/);
    assert.equal(record.distance_m, 0);
    assert.equal(record.approximate, false);
    assert.deepEqual(record.approximate_reasons, []);
    assert.equal(body.reason, undefined);
  });

  it('GET /reverse answers the identifier shape in English and Khmer', async () => {
    const en = (await get(`/reverse?lat=${INSIDE_LAT}&lng=${INSIDE_LNG}`)).json();
    assert.equal(en.statusCode, 200);
    assert.match(en.metadata.correlationId, /.+/);
    const [item] = en.data.items;
    assert.equal(item.code, '120101');
    assert.match(item.id, /^[0-9a-f-]{36}$/);
    assert.equal(item.province.name, 'Phnom Penh');
    assert.match(en.data.attribution, /CC BY 4\.0/);
    const km = (await get(`/reverse?lat=${INSIDE_LAT}&lng=${INSIDE_LNG}&lang=km`)).json();
    assert.equal(km.data.items[0].province.name, 'ភ្នំពេញ');
    assert.equal(km.data.items[0].id, item.id);
  });

  it('reverse answers carry an ETag (304 when current), and each point gets its own answer, cached or not', async () => {
    const first = await get(`/v1/reverse?lat=${INSIDE_LAT}&lng=${INSIDE_LNG}`);
    const etag = String(first.headers.etag);
    assert.match(etag, /^W\/"/);
    assert.match(String(first.headers['cache-control']), /max-age/);
    const notModified = await get(`/v1/reverse?lat=${INSIDE_LAT}&lng=${INSIDE_LNG}`, { 'if-none-match': etag });
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.body, '');
    // Another point well inside the same commune: the same body (served from the cache the second time).
    const shape = geo.shape('120101')!;
    const [minLng, minLat, maxLng, maxLat] = shape.bbox;
    const others = [];
    for (let i = 1; i < 40 && others.length < 3; i++) {
      const lng = minLng + ((maxLng - minLng) * i) / 40;
      const lat = minLat + ((maxLat - minLat) * i) / 40;
      const answer = geo.reverse(lat, lng);
      if (answer.hit?.code === '120101' && answer.hit.near.length === 0) others.push([lat, lng]);
    }
    assert.ok(others.length > 0);
    for (const [lat, lng] of others) assert.equal((await get(`/v1/reverse?lat=${lat}&lng=${lng}`)).body, first.body);
    // Points near an edge carry their own distances: never another point's answer.
    const near: string[] = [];
    for (let i = 0; i < 400 && near.length < 2; i++) {
      const lng = minLng + ((maxLng - minLng) * (i % 20)) / 20;
      const lat = minLat + ((maxLat - minLat) * Math.floor(i / 20)) / 20;
      const answer = geo.reverse(lat, lng);
      if (answer.hit && answer.hit.near.length > 0) {
        const body = (await get(`/v1/reverse?lat=${lat}&lng=${lng}`)).json();
        assert.deepEqual(body.data[0].near.map((n: { code: string; distance_m: number }) => [n.code, n.distance_m]),
          answer.hit.near.map((n) => [n.code, n.distanceM]));
        near.push(JSON.stringify(body.data[0].near));
        const identifier = (await get(`/reverse?lat=${lat}&lng=${lng}`)).json();
        assert.equal(identifier.data.items[0].code, answer.hit.code);
      }
    }
    assert.equal(near.length, 2);
    assert.notEqual(near[0], near[1]);
    // The identifier shape keeps its per-request correlation id inside a cached body.
    const a = (await get(`/reverse?lat=${INSIDE_LAT}&lng=${INSIDE_LNG}`, { 'x-correlation-id': 'first-call' })).json();
    const b = (await get(`/reverse?lat=${INSIDE_LAT}&lng=${INSIDE_LNG}`, { 'x-correlation-id': 'second-call' })).json();
    assert.equal(a.metadata.correlationId, 'first-call');
    assert.equal(b.metadata.correlationId, 'second-call');
    assert.deepEqual(a.data, b.data);
  });

  it('outside Cambodia: data is empty with a reason, not an error', async () => {
    const v1 = await get('/v1/reverse?lat=13.7563&lng=100.5018');
    assert.equal(v1.statusCode, 200);
    assert.deepEqual(v1.json().data, []);
    assert.equal(v1.json().reason, 'outside_cambodia');
    const id = (await get('/reverse?lat=13.7563&lng=100.5018&lang=km')).json();
    assert.deepEqual(id.data.items, []);
    assert.equal(id.data.reason, 'outside_cambodia');
  });

  it('Tonle Sap: the nearest commune, approximate, with its distance', async () => {
    const [record] = (await get('/v1/reverse?lat=12.85&lng=104.10')).json().data;
    assert.equal(record.approximate, true);
    assert.deepEqual(record.approximate_reasons, ['outside_polygons']);
    assert.ok(record.distance_m > 1000);
  });

  it('a commune split after 2014 lists the candidates by code and name', async () => {
    const [lng, lat] = geo.shape('120608')!.point;
    const [record] = (await get(`/v1/reverse?lat=${lat}&lng=${lng}`)).json().data;
    assert.deepEqual(record.candidates.map((c: { code: string }) => c.code), ['120608', '120609', '120610']);
    assert.ok(record.candidates.every((c: { name_km: string }) => c.name_km.length > 0));
    assert.ok(record.approximate_reasons.includes('split_after_2014'));
  });

  it('invalid coordinates are a 400 in the documented shape', async () => {
    const bad = ['lat=abc&lng=104', 'lat=NaN&lng=104', 'lat=Infinity&lng=104', 'lat=1e309&lng=104', 'lat=91&lng=104', 'lat=11&lng=-180.5',
      'lat=11&lng=181', 'lat=0x10&lng=104', 'lat=&lng=104', 'lng=104', 'lat=11', `lat=${'1'.repeat(5000)}&lng=104`, 'lat=11&lng=104&x=1',
      'lat=11&lat=12&lng=104', 'lat=-90.0000001&lng=0'];
    for (const query of bad) {
      for (const path of ['/v1/reverse', '/reverse']) {
        const response = await get(`${path}?${query}`);
        assert.equal(response.statusCode, 400, `${path}?${query.slice(0, 40)}`);
        const body = response.json();
        assert.equal(body.error.code, 'invalid_request');
        assert.ok(body.error.details?.length > 0, `${path}?${query.slice(0, 40)}: details`);
        if (path === '/reverse') assert.equal(body.statusCode, 400);
        else assert.equal(body.status, 'error');
      }
    }
    // The extremes are valid.
    for (const query of ['lat=90&lng=180', 'lat=-90&lng=-180', 'lat=-0&lng=0.000']) {
      assert.equal((await get(`/v1/reverse?${query}`)).statusCode, 200, query);
    }
  });

  it('POST /v1/reverse answers each point in order; bad bodies are 400', async () => {
    const points = [{ lat: INSIDE_LAT, lng: INSIDE_LNG }, { lat: 13.7563, lng: 100.5018 }, { lat: 12.85, lng: 104.1 }];
    const response = await app.inject({ method: 'POST', url: '/v1/reverse', payload: { points } });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.match(response.headers['x-attribution'] as string, /CC BY 4\.0/);
    assert.equal(body.data.length, 3);
    assert.equal(body.data[0].data[0].code, '120101');
    assert.equal(body.data[0].lat, INSIDE_LAT);
    assert.deepEqual(body.data[1].data, []);
    assert.equal(body.data[1].reason, 'outside_cambodia');
    assert.equal(body.data[2].data[0].approximate, true);
    const tooMany = Array.from({ length: 101 }, () => ({ lat: 11.5, lng: 104.9 }));
    for (const payload of [{ points: tooMany }, { points: [] }, { points: [{ lat: 91, lng: 0 }] },
      { points: [{ lat: 11 }] }, {}, { points: [{ lat: 11, lng: 104, x: 1 }] }]) {
      const refused = await app.inject({ method: 'POST', url: '/v1/reverse', payload });
      assert.equal(refused.statusCode, 400, JSON.stringify(payload).slice(0, 60));
      assert.equal(refused.json().error.code, 'invalid_request');
    }
    // 1e309 in JSON is Infinity: out of range.
    const infinite = await app.inject({ method: 'POST', url: '/v1/reverse', headers: { 'content-type': 'application/json' },
      payload: '{"points":[{"lat":1e309,"lng":104}]}' });
    assert.equal(infinite.statusCode, 400);
  });

  it('GET /v1/boundaries/{code}: a GeoJSON Feature as application/geo+json, with ETag and 304', async () => {
    const response = await get('/v1/boundaries/1201');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/geo\+json/);
    assert.match(String(response.headers['cache-control']), /max-age=\d{4,}/);
    const feature = response.json();
    assert.equal(feature.type, 'Feature');
    assert.equal(feature.properties.level, 'district');
    assert.equal(feature.properties.code, '1201');
    assert.equal(feature.properties.parent_code, '12');
    assert.match(feature.properties.attribution, /CC BY 4\.0/);
    assert.equal(feature.geometry.type, 'MultiPolygon');
    const ring = feature.geometry.coordinates[0][0];
    assert.deepEqual(ring[0], ring.at(-1), 'rings are closed');
    assert.ok(ring[0][0] > 104 && ring[0][0] < 105 && ring[0][1] > 11 && ring[0][1] < 12, 'lng, lat order');
    const etag = String(response.headers.etag);
    const again = await get('/v1/boundaries/1201', { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  it('boundaries: provinces, communes, simplify levels fewer vertices, split communes approximate, 404 and 400', async () => {
    const count = (feature: { geometry: { coordinates: number[][][][] } }) => feature.geometry.coordinates.flat(2).length;
    const full = (await get('/v1/boundaries/17')).json();
    const simple = (await get('/v1/boundaries/17?simplify=3')).json();
    assert.equal(full.properties.level, 'province');
    assert.ok(count(simple) < count(full) / 3, `${count(simple)} vs ${count(full)}`);
    assert.equal(simple.properties.simplify, 3);
    const commune = (await get('/v1/boundaries/120608')).json();
    assert.deepEqual(commune.properties.split_into, ['120609', '120610']);
    const split = (await get('/v1/boundaries/120609')).json();
    assert.equal(split.properties.approximate, true);
    assert.deepEqual(split.properties.split_from, ['120608']);
    assert.equal((await get('/v1/boundaries/99')).statusCode, 404);
    assert.equal((await get('/v1/boundaries/99')).json().error.code, 'not_found');
    for (const url of ['/v1/boundaries/12010101', '/v1/boundaries/123', '/v1/boundaries/12?simplify=4', '/v1/boundaries/12?simplify=x', '/v1/boundaries/12?z=1']) {
      const response = await get(url);
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().status, 'error');
    }
  });

  it('province, district and commune records carry their location: a point inside from the boundaries, else pumi\'s', async () => {
    const listed = await get('/v1/communes/1206');
    assert.match(String(listed.headers['x-attribution']), /CC BY 4\.0/, 'locations come with the attribution');
    const communes = listed.json().data as { code: string; location: { lat: number; lng: number; source: string; bbox: unknown } | null }[];
    for (const c of communes) {
      assert.ok(c.location, c.code);
      if (geo.unshapedCommune(c.code)) {
        assert.equal(c.location.source, 'pumi', c.code); // created after 2014: no polygon of its own
      } else {
        assert.equal(c.location.source, 'boundaries', c.code);
        assert.equal(geo.communeAt(c.location.lng, c.location.lat), c.code, `${c.code}: its point is inside it`);
      }
    }
    const { gazetteer } = await import('../helper.js');
    const districtResponse = await get(`/districts/${gazetteer().byCode('1201')!.id}`);
    assert.match(String(districtResponse.headers['x-attribution']), /Open Development Cambodia/);
    const district = districtResponse.json().data;
    assert.equal(district.location.source, 'boundaries');
    assert.ok(geo.communeAt(district.location.lng, district.location.lat)?.startsWith('1201'));
    const { min_lat, max_lat, min_lng, max_lng } = district.location.bbox;
    assert.ok(min_lat < district.location.lat && district.location.lat < max_lat && min_lng < district.location.lng && district.location.lng < max_lng);
    const village = (await get(`/villages/${gazetteer().byCode('12010101')!.id}`)).json().data;
    assert.equal(village.location, undefined, 'villages have no location');
    const villages = (await get('/v1/villages/120101')).json().data;
    assert.equal(villages[0].location, undefined);
  });

  it('the dataset download has the locations from the boundaries, with their attribution', async () => {
    const response = await get('/v1/dataset?format=json&level=district');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['x-attribution']), /CC BY 4\.0/);
    const body = response.json();
    assert.match(body.attribution, /Open Development Cambodia/);
    for (const unit of body.units as Record<string, string | number>[]) {
      assert.equal(unit.location_source, 'boundaries', String(unit.code));
      assert.ok(geo.contains(geo.shape(String(unit.code))!, Number(unit.lng), Number(unit.lat)), `${unit.code}: its point is inside it`);
    }
  });

  it('the OpenAPI document has the geography operations and the attribution', async () => {
    const doc = (await get('/openapi.json')).json();
    for (const path of ['/v1/reverse', '/reverse', '/v1/boundaries/{code}']) assert.ok(doc.paths[path], path);
    assert.ok(doc.paths['/v1/reverse'].post);
    assert.match(JSON.stringify(doc.tags), /CC BY 4\.0/);
  });
});

describe('POST /v1/reverse against the quota', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let key: string;
  before(async () => {
    const fresh = await freshStore('sqlite');
    close = fresh.close;
    await fresh.store.createPlan({ name: 'ten', monthlyQuota: 10, perSecond: 1000 });
    const meter = new UsageMeter(fresh.store, { flushIntervalMs: 60_000 });
    const access = new AccessControl(fresh.store, meter, { keyCacheTtlMs: 60_000 });
    app = await buildApp({ ...appOptions(), geo, access });
    ({ key } = await createKey(fresh.store, { plan: 'ten', name: 'bulk' }));
  });
  after(async () => {
    await app.close();
    await close();
  });

  it('each point counts as one request; a bulk larger than what is left is refused whole', async () => {
    const post = (n: number) => app.inject({ method: 'POST', url: '/v1/reverse', headers: { 'x-api-key': key },
      payload: { points: Array.from({ length: n }, () => ({ lat: INSIDE_LAT, lng: INSIDE_LNG })) } });
    const used = async () => (await app.inject({ method: 'GET', url: '/usage', headers: { 'x-api-key': key } })).json().data.used as number;
    assert.equal((await post(4)).statusCode, 200);
    assert.equal(await used(), 5, '4 points + the /usage request');
    // 5 left: 6 points do not fit (the refused request itself counts once).
    const refused = await post(6);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().error.code, 'quota_exceeded');
    assert.equal(await used(), 7);
    // Concurrent bulks cannot together overrun: 3 left, two bulks of 2 → one passes.
    const results = await Promise.all([post(2), post(2)]);
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 429]);
    assert.equal((await post(1)).statusCode, 429);
  });
});
