import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../../../src/http/app.js';
import { appOptions, unit } from '../../../helper.js';
import { openApiValidator } from '../../openapi-validator.js';

interface Body {
  statusCode: number;
  data: { items: Record<string, unknown>[]; total: number; page: number; pageSize: number } & Record<string, unknown>;
  error?: { code: string; message: string; details?: { in: string; parameter: string; message: string }[] };
}

describe('GET /search and GET /lookup/{postcode}', async () => {
  const app = await buildApp(appOptions());
  after(() => app.close());
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json() as Body };
  };

  it('answers the spec\'s search items with code, id and match, paged', async () => {
    const { status, body } = await get('/search?q=Chamkar%20Mon');
    assert.equal(status, 200);
    assert.equal(body.data.page, 1);
    assert.equal(body.data.pageSize, 10);
    assert.ok(body.data.total >= 1);
    assert.deepEqual(body.data.items[0], {
      kind: 'location', slug: 'chamkar-mon', name: 'Chamkar Mon', type: 'district', href: '/locations/phnom-penh/chamkar-mon',
      postal_code_prefix: '1201', parent_name: 'Phnom Penh', code: '1201', id: unit('1201').id, match: 'exact',
    });
  });

  it('leaves parent_name out on provinces and speaks Khmer with lang=km', async () => {
    const { body } = await get('/search?q=Kampot&lang=km&pageSize=1');
    assert.deepEqual(body.data.items[0], {
      kind: 'location', slug: 'kampot', name: 'កំពត', type: 'province', href: '/locations/kampot', postal_code_prefix: '070',
      code: '07', id: unit('07').id, match: 'exact',
    });
  });

  it('pages: page 2 continues page 1, total is the same', async () => {
    const one = (await get('/search?q=phum&pageSize=5')).body.data;
    const two = (await get('/search?q=phum&pageSize=5&page=2')).body.data;
    const ten = (await get('/search?q=phum&pageSize=10')).body.data;
    assert.equal(one.total, two.total);
    assert.deepEqual([...one.items, ...two.items].map((i) => i.code), ten.items.map((i) => i.code));
    const beyond = (await get(`/search?q=phum&page=${Math.ceil(one.total / 100) + 1}&pageSize=100`)).body.data;
    assert.deepEqual(beyond.items, []);
    assert.equal(beyond.total, one.total);
  });

  it('rejects a missing, blank or too long q and out-of-range paging, naming the parameter', async () => {
    const cases: [string, string][] = [
      ['/search', 'q'], ['/search?q=', 'q'], ['/search?q=%20%20', 'q'], [`/search?q=${'a'.repeat(201)}`, 'q'],
      ['/search?q=x&page=0', 'page'], ['/search?q=x&page=abc', 'page'], ['/search?q=x&page=1.5', 'page'],
      ['/search?q=x&page=99999999999999999999', 'page'], ['/search?q=x&pageSize=0', 'pageSize'],
      ['/search?q=x&pageSize=101', 'pageSize'], ['/search?q=x&lang=fr', 'lang'], ['/search?q=x&q=y', 'q'], ['/search?q=x&sort=name', 'sort'],
    ];
    for (const [url, parameter] of cases) {
      const { status, body } = await get(url);
      assert.equal(status, 400, url);
      assert.equal(body.statusCode, 400, url);
      assert.equal(body.error!.code, 'invalid_request', url);
      assert.ok(body.error!.details!.some((d) => d.parameter === parameter && d.in === 'query'), `${url}: ${JSON.stringify(body.error)}`);
    }
  });

  it('looks up a commune\'s postal code, including one that differs from the NCDD code', async () => {
    const { status, body } = await get('/lookup/121001');
    assert.equal(status, 200);
    assert.deepEqual(body.data, {
      slug: 'kbal-kaoh', name: 'Kbal Kaoh', type: 'commune', postal_code: '121001', postal_code_prefix: '121001',
      postal_code_range: '121001-121001', province_slug: 'phnom-penh', province_name: 'Phnom Penh', district_slug: 'chbar-ampov',
      district_name: 'Chbar Ampov', commune_slug: 'kbal-kaoh', commune_name: 'Kbal Kaoh', code: '121207', id: unit('121207').id,
      href: '/locations/phnom-penh/chbar-ampov/kbal-kaoh',
    });
  });

  it('looks up district and province codes with the lower levels null, in Khmer too', async () => {
    const district = (await get('/lookup/121000')).body.data;
    assert.equal(district.code, '1212');
    assert.equal(district.district_name, 'Chbar Ampov');
    assert.equal(district.commune_slug, null);
    assert.equal(district.commune_name, null);
    const province = (await get('/lookup/120000?lang=km')).body.data;
    assert.equal(province.name, 'ភ្នំពេញ');
    assert.equal(province.type, 'capital');
    assert.deepEqual([province.district_slug, province.district_name, province.commune_slug, province.commune_name], [null, null, null, null]);
  });

  it('accepts surrounding spaces and Khmer digits', async () => {
    assert.equal((await get('/lookup/%20120101%20')).body.data.code, '120101');
    assert.equal((await get(`/lookup/${encodeURIComponent('១២០១០១')}`)).body.data.code, '120101');
  });

  it('says what a postal code looks like when it is not 6 digits, and 404 when unassigned', async () => {
    for (const code of ['12010', '1201011', 'abcdef', '12-01-01', '%20']) {
      const { status, body } = await get(`/lookup/${code}`);
      assert.equal(status, 400, code);
      assert.match(body.error!.message, /6 digits/, code);
    }
    const { status, body } = await get('/lookup/999999');
    assert.equal(status, 404);
    assert.equal(body.error!.code, 'not_found');
  });
});

describe('search responses match the OpenAPI document', async () => {
  const app = await buildApp(appOptions());
  after(() => app.close());
  const validate = await openApiValidator(app);

  it('for every kind of query, in both shapes, and for lookups', async () => {
    for (const q of ['Battambang', 'ភ្នំពេញ', '12', '121001', 'Battambnag', 'Toul Kork', 'Kompong Cham', 'phum', 'zzzz']) {
      for (const lang of ['en', 'km']) {
        const response = await app.inject(`/search?q=${encodeURIComponent(q)}&lang=${lang}&pageSize=100`);
        validate('/search', 200, response.json());
      }
      validate('/v1/search', 200, (await app.inject(`/v1/search?q=${encodeURIComponent(q)}&pageSize=100`)).json());
    }
    for (const code of ['120000', '121000', '121001']) validate('/lookup/{postcode}', 200, (await app.inject(`/lookup/${code}`)).json());
    validate('/lookup/{postcode}', 400, (await app.inject('/lookup/123')).json());
    validate('/lookup/{postcode}', 404, (await app.inject('/lookup/999999')).json());
    validate('/search', 400, (await app.inject('/search?q=%20')).json());
    validate('/v1/search', 400, (await app.inject('/v1/search?q=x&page=0')).json());
  });
});
