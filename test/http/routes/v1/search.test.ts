import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../../../src/http/app.js';
import { appOptions } from '../../../helper.js';

describe('GET /v1/search', async () => {
  const app = await buildApp(appOptions());
  after(() => app.close());
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> & { data: Record<string, string>[] } };
  };

  it('answers code-based records with level and match, and meta', async () => {
    const { status, body } = await get('/v1/search?q=Kbal%20Kaoh&pageSize=3');
    assert.equal(status, 200);
    assert.equal(body.status, 'success');
    assert.deepEqual((body.meta as { page: number; pageSize: number }).pageSize, 3);
    assert.ok((body.meta as { total: number }).total >= 1);
    assert.deepEqual(body.data.find((r) => r.code === '121207'), {
      code: '121207', name_en: 'Kbal Kaoh', name_km: 'ក្បាលកោះ', district_code: '1212', postal_code: '121001', level: 'commune', match: 'exact',
    });
  });

  it('gives each level its own record', async () => {
    const records = (await get('/v1/search?q=Kep&pageSize=4')).body.data;
    assert.deepEqual(records[0], { code: '23', name_en: 'Kep', name_km: 'កែប', postal_code: '230000', level: 'province', match: 'exact' });
    assert.deepEqual(Object.keys(records[1]!), ['code', 'name_en', 'name_km', 'province_code', 'postal_code', 'level', 'match']);
  });

  it('finds by postal code', async () => {
    assert.equal((await get('/v1/search?q=120101')).body.data[0]!.code, '120101');
  });

  it('rejects bad parameters in the code-based envelope', async () => {
    for (const url of ['/v1/search', '/v1/search?q=%20', '/v1/search?q=x&lang=km', '/v1/search?q=x&pageSize=500', '/v1/search?q=x&page=-1']) {
      const { status, body } = await get(url);
      assert.equal(status, 400, url);
      assert.deepEqual(Object.keys(body), ['status', 'error'], url);
      assert.equal((body.error as { code: string }).code, 'invalid_request', url);
    }
  });
});
