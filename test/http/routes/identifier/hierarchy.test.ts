import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../../../src/http/app.js';
import { unitLocator } from '../../../../src/geo/locations.js';
import { appOptions, gazetteer, geography, unit } from '../../../helper.js';

/** The `location` extension of province, district and commune details (src/geo/locations.ts). */
const locate = unitLocator(geography(), gazetteer());

describe('identifier-based hierarchy routes', async () => {
  const app = await buildApp(appOptions());
  after(() => app.close());
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json() as { data: Record<string, unknown> & { items: Record<string, unknown>[] } }, headers: response.headers };
  };

  it('lists the 25 provinces with the spec\'s fields, Phnom Penh as Capital', async () => {
    const { status, body } = await get('/provinces');
    assert.equal(status, 200);
    assert.equal(body.data.items.length, 25);
    assert.deepEqual(body.data.items[11], {
      id: unit('12').id, name: 'Phnom Penh', slug: 'phnom-penh', type: 'Capital', prefix: '12', postalCodePrefix: '12',
      code: '12', unit_type: 'Reach Theani',
    });
    assert.equal(body.data.items[0]!.type, 'Province');
  });

  it('answers a province with totals, postal prefix and range', async () => {
    const { body } = await get(`/provinces/${unit('12').id}`);
    assert.deepEqual(body, {
      statusCode: 200,
      data: {
        id: unit('12').id, name: 'Phnom Penh', type: 'capital', postal_code_prefix: '12', postal_code_range: '120000-121407',
        total_districts: 14, total_communes: 105, total_villages: 953, code: '12', unit_type: 'Reach Theani',
        slug: 'phnom-penh', href: '/locations/phnom-penh', postal_code: '120000', location: locate(unit('12')),
      },
      metadata: { correlationId: (body as unknown as { metadata: { correlationId: string } }).metadata.correlationId },
    });
  });

  it('answers in Khmer with lang=km, parents included', async () => {
    const { body } = await get(`/villages/${unit('12010101').id}?lang=km`);
    assert.deepEqual(body.data, {
      id: unit('12010101').id, name: 'ភូមិ ១', type: 'village', postal_code: '120101',
      commune_id: unit('120101').id, commune_name: 'ទន្លេបាសាក់', district_id: unit('1201').id, district_name: 'ចំការមន',
      province_id: unit('12').id, province_name: 'ភ្នំពេញ', code: '12010101', unit_type: 'ភូមិ',
      slug: 'phum-1', href: '/locations/phnom-penh/chamkar-mon/tonle-basak/phum-1',
    });
  });

  it('lists children with the spec\'s list fields, ordered by code', async () => {
    const districts = (await get(`/provinces/${unit('12').id}/districts`)).body.data.items;
    assert.equal(districts.length, 14);
    assert.deepEqual(districts[11], {
      id: unit('1212').id, name: 'Chbar Ampov', type: 'district', postal_code_prefix: '12100', postal_code_range: '121000-121008',
      total_communes: 8, total_villages: 49, code: '1212', unit_type: 'Khan',
    });
    const communes = (await get(`/districts/${unit('1212').id}/communes?lang=km`)).body.data.items;
    assert.deepEqual(communes.map((c) => Object.keys(c)), communes.map(() => ['id', 'name', 'code', 'unit_type']));
    assert.deepEqual(communes.map((c) => c.code), ['121201', '121202', '121203', '121204', '121205', '121206', '121207', '121208']);
    // Sangkat Kbal Kaoh keeps its official postal code, 121001, down to its villages.
    const villages = (await get(`/communes/${unit('121207').id}/villages`)).body.data.items;
    assert.ok(villages.length > 0 && villages.every((v) => v.postal_code === '121001' && v.type === 'village'));
  });

  it('says 404 for an id of another level or an unknown id, 400 for a malformed one', async () => {
    const wrongLevel = await get(`/provinces/${unit('1201').id}`);
    assert.equal(wrongLevel.status, 404);
    assert.match(String((wrongLevel.body as unknown as { error: { message: string } }).error.message), /No province has id/);
    assert.equal((await get('/villages/00000000-0000-5000-8000-000000000000')).status, 404);
    assert.equal((await get(`/communes/${unit('120101').id}/villages`)).status, 200);
    assert.equal((await get(`/communes/${unit('12010101').id}/villages`)).status, 404);
    assert.equal((await get('/districts/1201')).status, 400);
  });

  it('accepts ids in upper case', async () => {
    assert.equal((await get(`/districts/${unit('1201').id.toUpperCase()}`)).body.data.code, '1201');
  });

  it('resolves a slug path at /locations, with one trailing slash allowed', async () => {
    assert.equal((await get('/locations/phnom-penh/chamkar-mon/tonle-basak')).body.data.id, unit('120101').id);
    assert.equal((await get('/locations/phnom-penh/')).body.data.code, '12');
    assert.equal((await get('/locations/tboung-khmum/memot/dar/dar-kandal-25030509')).body.data.code, '25030509');
    assert.equal((await get('/locations/phnom-penh/nowhere')).status, 404);
    assert.equal((await get('/locations/a/b/c/d/e')).status, 400);
    assert.equal((await get('/locations/Phnom-Penh')).status, 400);
  });

  it('works when a client sends Content-Type: application/json with no body, as the spec\'s examples do', async () => {
    const response = await app.inject({ method: 'GET', url: '/provinces', headers: { 'content-type': 'application/json' } });
    assert.equal(response.statusCode, 200);
  });
});
