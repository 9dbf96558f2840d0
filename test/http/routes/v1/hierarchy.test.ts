import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../../../src/http/app.js';
import { unitLocator } from '../../../../src/geo/locations.js';
import { appOptions, gazetteer, geography } from '../../../helper.js';

/** The `location` extension of a record (a point inside the unit and its box: src/geo/locations.ts). */
const locate = unitLocator(geography(), gazetteer());
const location = (code: string) => locate(gazetteer().byCode(code)!);

describe('code-based hierarchy routes (/v1)', async () => {
  const app = await buildApp(appOptions());
  after(() => app.close());
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json() as { status: string; data: Record<string, unknown>[]; error?: { code: string; message: string } } };
  };

  it('lists provinces with code, names and postal code (strings), and their location', async () => {
    const { status, body } = await get('/v1/provinces');
    assert.equal(status, 200);
    assert.equal(body.status, 'success');
    assert.equal(body.data.length, 25);
    assert.deepEqual(body.data[0], { code: '01', name_en: 'Banteay Meanchey', name_km: 'បន្ទាយមានជ័យ', postal_code: '010000', location: location('01') });
  });

  it('answers one province as a one-element array', async () => {
    assert.deepEqual((await get('/v1/provinces/12')).body, {
      status: 'success', data: [{ code: '12', name_en: 'Phnom Penh', name_km: 'ភ្នំពេញ', postal_code: '120000', location: location('12') }],
    });
  });

  it('lists districts (with their postal code), communes and villages of a parent', async () => {
    assert.deepEqual((await get('/v1/districts/12')).body.data[9],
      { code: '1210', name_en: 'Chrouy Changvar', name_km: 'ជ្រោយចង្វារ', province_code: '12', postal_code: '121100', location: location('1210') });
    const communes = (await get('/v1/communes/1212')).body.data;
    assert.deepEqual(communes.find((c) => c.code === '121207'),
      { code: '121207', name_en: 'Kbal Kaoh', name_km: 'ក្បាលកោះ', district_code: '1212', postal_code: '121001', location: location('121207') });
    const villages = (await get('/v1/villages/020105')).body.data;
    assert.deepEqual(villages.find((v) => v.code === '02010508'),
      { code: '02010508', name_en: 'Pailam', name_km: 'ប៉ៃឡាំ', commune_code: '020105', postal_code: '020105' });
  });

  it('says 400 for a code of the wrong form and 404 for an unknown one', async () => {
    for (const url of ['/v1/provinces/1', '/v1/provinces/123', '/v1/provinces/ab', '/v1/districts/012', '/v1/communes/12',
      '/v1/villages/1201010', '/v1/villages/12010101', '/v1/provinces?lang=km']) {
      const { status, body } = await get(url);
      assert.equal(status, 400, url);
      assert.equal(body.status, 'error', url);
      assert.equal(body.error!.code, 'invalid_request', url);
    }
    for (const url of ['/v1/provinces/26', '/v1/districts/99', '/v1/communes/1299', '/v1/villages/129999']) {
      const { status, body } = await get(url);
      assert.equal(status, 404, url);
      assert.deepEqual(Object.keys(body), ['status', 'error']);
      assert.equal(body.error!.code, 'not_found', url);
    }
  });
});
