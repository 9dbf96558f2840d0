import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../../src/http/app.js';
import { unitId } from '../../../src/gazetteer/uuid.js';
import { appOptions } from '../../helper.js';

interface ErrorBody { code: string; message: string; successors?: { code: string; id: string; name_en: string; name_km: string; href: string }[] }

describe('unit history and 410 Gone (both shapes)', async () => {
  const app = await buildApp(appOptions());
  after(() => app.close());
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> & { error?: ErrorBody } };
  };

  it('answers a retired code with 410 and its successors on every code-based path', async () => {
    const cases = [
      ['/v1/communes/0505', ['0509', '0510']], // the district Odongk, split in 2022
      ['/v1/villages/120102', ['121301']], // commune Boeng Keng Kang 1, recoded into the new khan in 2019
      ['/v1/villages/120601', ['120608', '120609', '120610']], // Stueng Mean Chey, split in three
    ] as const;
    for (const [url, successors] of cases) {
      const { status, body } = await get(url);
      assert.equal(status, 410, url);
      assert.deepEqual(Object.keys(body), ['status', 'error'], url);
      assert.equal(body.error!.code, 'gone');
      assert.deepEqual(body.error!.successors!.map((s) => s.code), successors, url);
      assert.match(body.error!.message, /no longer exists/);
    }
    const first = (await get('/v1/villages/120102')).body.error!.successors![0]!;
    assert.deepEqual(first, { code: '121301', id: unitId('121301'), level: 'commune', name_en: 'Boeng Keng Kang Ti Muoy',
      name_km: 'បឹងកេងកងទី ១', href: first.href });
    assert.equal((await get(first.href)).status, 200);
    // A code that never existed is still a 404.
    assert.equal((await get('/v1/communes/1299')).status, 404);
  });

  it('answers the id of a retired unit with 410 and its successors (identifier shape)', async () => {
    const { status, body } = await get(`/districts/${unitId('0505')}`);
    assert.equal(status, 410);
    assert.equal(body.statusCode, 410);
    assert.equal(body.error!.code, 'gone');
    assert.deepEqual(body.error!.successors!.map((s) => s.code), ['0509', '0510']);
    assert.ok((body.metadata as { correlationId: string }).correlationId);
    assert.equal((await get(`/communes/${unitId('120102')}/villages`)).status, 410);
    // The id of a retired commune asked as a district is not that district: 404.
    assert.equal((await get(`/districts/${unitId('120102')}`)).status, 404);
  });

  it('serves the history of a unit by code, with its events and their sources', async () => {
    const { status, body } = await get('/v1/units/121301/history');
    assert.equal(status, 200);
    const [history] = body.data as Record<string, unknown>[];
    assert.equal(history!.current, true);
    assert.deepEqual(history!.former_codes, ['120102']);
    assert.deepEqual(history!.former_parents, [{ code: '1201', name_en: 'Chamkar Mon', name_km: 'ចំការមន' }]);
    const events = history!.events as { event: string; predecessors: string[]; sources: { source: string }[] }[];
    const recode = events.find((e) => e.event === 'recoded')!;
    assert.deepEqual(recode.predecessors, ['120102']);
    assert.deepEqual(recode.sources.map((s) => s.source), ['pumi-history']);
    assert.ok(events.every((e) => e.sources.length > 0));
  });

  it('serves the history of a retired code (200 here, not 410), with its successors', async () => {
    const { status, body } = await get('/v1/units/0505/history');
    assert.equal(status, 200);
    const [history] = body.data as { current: boolean; successors: { code: string }[]; events: { event: string }[] }[];
    assert.equal(history!.current, false);
    assert.deepEqual(history!.successors.map((s) => s.code), ['0509', '0510']);
    assert.ok(history!.events.some((e) => e.event === 'retired'));
  });

  it('serves the history by id in the identifier shape, names in lang', async () => {
    const { status, body } = await get(`/units/${unitId('2501')}/history?lang=km`);
    assert.equal(status, 200);
    const data = body.data as { name: string; former_parents: { code: string; name: string }[]; events: { event: string; date: string | null; instrument: string | null }[] };
    assert.equal(data.name, 'តំបែរ');
    assert.deepEqual(data.former_parents.map((p) => [p.code, p.name]), [['03', 'កំពង់ចាម']]);
    assert.ok(data.events.some((e) => e.event === 'moved' && e.date === '2013-12-31' && e.instrument === 'Royal Degree 1445'));
    assert.equal((await get(`/units/${unitId('0505')}/history`)).status, 200);
  });

  it('says 400 for a malformed code or id, 404 for one that never existed', async () => {
    for (const url of ['/v1/units/123/history', '/v1/units/abc/history', '/v1/units/121301/history?x=1', '/units/nope/history']) {
      assert.equal((await get(url)).status, 400, url);
    }
    assert.equal((await get('/v1/units/99/history')).status, 404);
    assert.equal((await get(`/units/${unitId('99')}/history`)).status, 404);
  });
});

describe('search by a former name or code', async () => {
  const app = await buildApp(appOptions());
  after(() => app.close());
  const get = async (url: string) => (await app.inject({ method: 'GET', url })).json() as Record<string, unknown>;

  it('finds today\'s units by a retired code, saying match "former" (both shapes)', async () => {
    const v1 = (await get('/v1/search?q=0505')).data as { code: string; match: string }[];
    assert.deepEqual(v1.map((r) => [r.code, r.match]), [['0509', 'former'], ['0510', 'former']]);
    const identifier = (await get('/search?q=120102')).data as { items: { code: string; match: string }[] };
    assert.ok(identifier.items.some((r) => r.code === '121301' && r.match === 'former'));
  });

  it('finds today\'s units by a former name, in Latin and Khmer', async () => {
    const odongk = (await get('/v1/search?q=Odongk')).data as { code: string; match: string }[];
    assert.deepEqual(odongk.slice(0, 2).map((r) => [r.code, r.match]), [['0509', 'former'], ['0510', 'former']]);
    const leav = (await get('/v1/search?q=kampong%20leav&pageSize=50')).data as { code: string; match: string }[];
    assert.ok(leav.some((r) => r.code === '1411' && r.match === 'former'));
    // ចក្រី, the commune's name before Sub-decree 153 of 2011 (today បួរ, Bour).
    const chakkrei = (await get(`/v1/search?q=${encodeURIComponent('ចក្រី')}`)).data as { code: string; match: string }[];
    assert.ok(chakkrei.some((r) => r.code === '021103' && r.match === 'former'), JSON.stringify(chakkrei));
  });
});
