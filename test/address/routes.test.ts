/** GET /v1/resolve, GET /resolve, POST /v1/resolve and GET /v1/validate through the real app (inject). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { AddressInputError, resolverFor } from '../../src/address/resolve.js';
import { v1Candidate } from '../../src/http/features/resolve/presenters.js';
import { V1BatchResponse } from '../../src/http/features/resolve/schemas.js';
import { schemaController } from '../../src/http/schema-compilers.js';
import { buildApp } from '../../src/http/app.js';
import { AccessControl } from '../../src/keys/access-control.js';
import { createKey } from '../../src/keys/issue-keys.js';
import type { KeyStore } from '../../src/keys/store.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { appOptions, gazetteer, searchIndex } from '../helper.js';
import { freshStore } from '../keys/stores.js';

const q = (text: string) => encodeURIComponent(text);

describe('resolve routes (no key gate)', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildApp({ ...appOptions(), maxEventLoopDelayMs: 0 });
  });
  after(() => app.close());

  it('GET /v1/resolve answers candidates with every field', async () => {
    const response = await app.inject(`/v1/resolve?q=${q('#12, St. 271, Sangkat Toul Tom Poung 1, Khan Chamkar Mon, Phnom Penh')}`);
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body.status, 'success');
    const c = body.data[0];
    assert.equal(c.code, '120110');
    assert.equal(c.level, 'commune');
    assert.equal(c.name_km, 'ទួលទំពូងទី ១');
    assert.equal(c.postal_code, '120110');
    assert.deepEqual(c.province, { code: '12', name_en: 'Phnom Penh', name_km: 'ភ្នំពេញ' });
    assert.equal(c.district.code, '1201');
    assert.equal(c.commune.code, '120110');
    assert.equal(c.village, null);
    assert.equal(c.house_number, '12');
    assert.equal(c.street, 'St. 271');
    assert.equal(c.group, null);
    assert.deepEqual(c.unmatched, []);
    assert.ok(c.matched.some((m: { code: string; how: string }) => m.code === '120110' && m.how === 'alias'));
    assert.ok(c.confidence > 0 && c.confidence <= 1);
    assert.match(c.formatted.km, /^ផ្ទះលេខ១២ ផ្លូវលេខ២៧១ សង្កាត់ទួលទំពូងទី ១ ខណ្ឌចំការមន រាជធានីភ្នំពេញ/);
    assert.ok(response.headers.etag);
  });

  it('GET /resolve answers the identifier shape, localised', async () => {
    const response = await app.inject(`/resolve?lang=km&q=${q('ភូមិ១ សង្កាត់ទន្លេបាសាក់ ខណ្ឌចំការមន')}`);
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body.statusCode, 200);
    assert.ok(body.metadata.correlationId);
    const c = body.data.items[0];
    assert.equal(c.code, '12010101');
    assert.equal(c.name, 'ភូមិ ១');
    assert.equal(c.type, 'village');
    assert.match(c.id, /^[0-9a-f-]{36}$/);
    assert.equal(c.href, '/locations/phnom-penh/chamkar-mon/tonle-basak/phum-1');
    assert.equal(c.commune.name, 'ទន្លេបាសាក់');
    assert.equal(c.formatted_address, c.formatted.km);
    const en = (await app.inject(`/resolve?q=${q('Sangkat Tonle Basak, Khan Daun Penh')}`)).json().data.items[0];
    assert.equal(en.name, 'Tonle Basak');
    assert.equal(en.warnings[0].code, 'UNIT_NOT_IN_PARENT');
    assert.match(en.warnings[0].message, /not in/);
    const km = (await app.inject(`/resolve?lang=km&q=${q('Sangkat Tonle Basak, Khan Daun Penh')}`)).json().data.items[0];
    assert.match(km.warnings[0].message, /[\u1780-\u17FF]/);
  });

  it('answers an empty list, not an error, when nothing matches', async () => {
    const response = await app.inject(`/v1/resolve?q=${q('qqqzx wwwzy')}`);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'success', data: [] });
  });

  it('answers 400 for blank, too long, punctuation-only or emoji-only q, in each shape', async () => {
    for (const bad of ['', '   ', 'x'.repeat(501), '!!!...', '🙂🙂🙂', '\u200B\u200B']) {
      const v1 = await app.inject(`/v1/resolve?q=${q(bad)}`);
      assert.equal(v1.statusCode, 400, JSON.stringify(bad));
      assert.equal(v1.json().status, 'error');
      assert.equal(v1.json().error.code, 'invalid_request');
      const id = await app.inject(`/resolve?q=${q(bad)}`);
      assert.equal(id.statusCode, 400);
      assert.equal(id.json().statusCode, 400);
      assert.equal(id.json().error.code, 'invalid_request');
    }
    assert.equal((await app.inject('/v1/resolve')).statusCode, 400);
    assert.equal((await app.inject(`/v1/resolve?q=a&page=2`)).statusCode, 400);
  });

  it('limit answers the first candidates of the full answer, exactly as there, in each shape and in a batch', async () => {
    // Namesakes (AMBIGUOUS), a commune not in the district named, a former parent: the full answer has several.
    const addresses = ['Phum Kandal', 'Sangkat Tonle Basak, Khan Daun Penh', 'ភូមិថ្មី', 'Kraom Village, Prek Anhchanh Commune, Kandal'];
    for (const address of addresses) {
      const full = (await app.inject(`/v1/resolve?q=${q(address)}`)).json().data;
      assert.ok(full.length >= 2, address);
      for (let limit = 1; limit <= 5; limit++) {
        const limited = await app.inject(`/v1/resolve?q=${q(address)}&limit=${limit}`);
        assert.equal(limited.statusCode, 200);
        assert.deepEqual(limited.json().data, full.slice(0, limit), `${address}, limit ${limit}`);
      }
      const items = (await app.inject(`/resolve?q=${q(address)}&lang=km`)).json().data.items;
      const one = (await app.inject(`/resolve?q=${q(address)}&lang=km&limit=1`)).json().data;
      assert.deepEqual(one.items, items.slice(0, 1));
      assert.equal(one.total, 1);
    }
    const batch = await app.inject({ method: 'POST', url: '/v1/resolve?limit=1', payload: addresses });
    assert.equal(batch.statusCode, 200);
    for (const [i, item] of batch.json().data.entries()) {
      assert.deepEqual(item.data, (await app.inject(`/v1/resolve?q=${q(addresses[i]!)}`)).json().data.slice(0, 1));
    }
    for (const bad of ['0', '6', '1.5', '-1', 'x', '']) {
      const response = await app.inject(`/v1/resolve?q=${q('Phum Kandal')}&limit=${bad}`);
      assert.equal(response.statusCode, 400, bad);
      assert.equal(response.json().error.code, 'invalid_request');
      assert.equal((await app.inject({ method: 'POST', url: `/v1/resolve?limit=${bad}`, payload: ['Phum Kandal'] })).statusCode, 400, bad);
    }
  });

  it('POST /v1/resolve answers a batch in order, with per-item errors', async () => {
    const response = await app.inject({ method: 'POST', url: '/v1/resolve', payload: ['Tonle Basak Chamkar Mon', '   ', 'ក្រុងសៀមរាប', 'qqqzx'] });
    assert.equal(response.statusCode, 200);
    const { data } = response.json();
    assert.equal(data.length, 4);
    assert.equal(data[0].data[0].code, '120101');
    assert.equal(data[1].status, 'error');
    assert.equal(data[1].error.code, 'invalid_request');
    assert.equal(data[2].data[0].code, '1710');
    assert.deepEqual(data[3], { status: 'success', data: [] });
  });

  it('POST /v1/resolve writes, byte for byte, what serializing the whole response object with its schema writes', async () => {
    // The route serializes each address's result as it goes; the reference here is the former way: every result kept
    // as an object and the whole V1BatchResponse serialized at the end by the same compiler, on a bare Fastify.
    const resolver = resolverFor(gazetteer(), searchIndex());
    const reference = Fastify({ schemaController: schemaController() });
    reference.post('/', { schema: { response: { 200: V1BatchResponse } } }, (request) => ({
      status: 'success',
      data: (request.body as string[]).map((address) => {
        try {
          return { status: 'success', data: resolver.resolve(address).candidates.map(v1Candidate) };
        } catch (error) {
          if (error instanceof AddressInputError) return { status: 'error', error: { code: 'invalid_request', message: `This address ${error.message}.` } };
          throw error;
        }
      }),
    }));
    try {
      const evaluation = (JSON.parse(readFileSync(new URL('./eval-cases.json', import.meta.url), 'utf8')) as { input: string }[]).map((c) => c.input);
      const batches = [
        ['Tonle Basak Chamkar Mon', '   ', 'ក្រុងសៀមរាប', 'qqqzx', '#12, St. 271, Sangkat Toul Tom Poung 1, Khan Chamkar Mon, Phnom Penh'],
        ['...'],
        ['qqqzx'],
        evaluation.slice(0, 100),
        ['"quoted" \\ back\tslash', ...evaluation.slice(100, 130), '\u0000'],
      ];
      for (const batch of batches) {
        const expected = await reference.inject({ method: 'POST', url: '/', payload: batch });
        const response = await app.inject({ method: 'POST', url: '/v1/resolve', payload: batch });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal(expected.statusCode, 200);
        assert.equal(response.body, expected.body, `batch of ${batch.length} starting ${JSON.stringify(batch[0])}`);
        assert.equal(Number(response.headers['content-length']), Buffer.byteLength(expected.body));
      }
    } finally {
      await reference.close();
    }
  });

  it('POST /v1/resolve refuses what is not a JSON array of 1 to 100 short strings', async () => {
    const bad = [
      { payload: Array(101).fill('Kampot') },
      { payload: [] },
      { payload: { addresses: ['Kampot'] } },
      { payload: ['x'.repeat(501)] },
      { payload: [['nested']] },
      { payload: [1, 2] },
      { payload: 'Kampot', headers: { 'content-type': 'text/plain' } },
      { payload: '["Kampot"', headers: { 'content-type': 'application/json' } },
      { payload: JSON.stringify(Array(100).fill('x'.repeat(500))) + ' '.repeat(300_000), headers: { 'content-type': 'application/json' } },
    ];
    for (const { payload, headers } of bad) {
      const response = await app.inject({ method: 'POST', url: '/v1/resolve', payload: payload as never, headers });
      assert.equal(response.statusCode, 400, `${JSON.stringify(payload).slice(0, 60)}: ${response.body.slice(0, 200)}`);
      assert.equal(response.json().status, 'error');
      assert.equal(response.json().error.code, 'invalid_request');
    }
  });

  it('GET /v1/validate answers valid chains, problems and the corrected chain', async () => {
    const ok = (await app.inject('/v1/validate?province=12&district=Chamkar%20Mon&commune=Tonle%20Bassac&postal_code=120101')).json().data;
    assert.equal(ok.valid, true, JSON.stringify(ok.problems));
    assert.equal(ok.corrected.code, '120101');
    const wrong = (await app.inject(`/v1/validate?province=${q('ភ្នំពេញ')}&district=Daun%20Penh&commune=Tonle%20Basak`)).json().data;
    assert.equal(wrong.valid, false);
    assert.deepEqual(wrong.problems.map((p: { code: string; field: string }) => [p.field, p.code]), [['district', 'UNIT_NOT_IN_PARENT']]);
    assert.equal(wrong.corrected.code, '120101');
    assert.equal(wrong.corrected.district.code, '1201');
    const postal = (await app.inject('/v1/validate?commune=Tonle%20Basak&postal_code=120201')).json().data;
    assert.deepEqual(postal.problems.map((p: { code: string }) => p.code), ['POSTAL_CODE_MISMATCH']);
    assert.equal(postal.corrected.code, '120101');
    const unknown = (await app.inject('/v1/validate?commune=Qqqzx&postal_code=999999')).json().data;
    assert.deepEqual(unknown.problems.map((p: { code: string }) => p.code), ['NOT_FOUND', 'POSTAL_CODE_UNKNOWN']);
    const level = (await app.inject('/v1/validate?district=12')).json().data;
    assert.equal(level.problems[0].code, 'WRONG_LEVEL');
    assert.equal((await app.inject('/v1/validate')).json().data.problems[0].code, 'EMPTY');
    assert.equal((await app.inject('/v1/validate?city=x')).statusCode, 400);
  });
});

describe('POST /v1/resolve and the quota', () => {
  let app: FastifyInstance;
  let store: KeyStore;
  let close: () => Promise<void>;
  before(async () => {
    ({ store, close } = await freshStore('sqlite'));
    await store.createPlan({ name: 'tiny', monthlyQuota: 10, perSecond: 1000 });
    const access = new AccessControl(store, new UsageMeter(store, { flushIntervalMs: 60_000 }), { keyCacheTtlMs: 600_000 });
    app = await buildApp({ ...appOptions(), access, store, maxEventLoopDelayMs: 0 });
  });
  after(async () => {
    await app.close();
    await close();
  });

  it('counts each address as one request, and refuses a batch the quota cannot cover without counting it', async () => {
    const { key } = await createKey(store, { plan: 'tiny' });
    const post = (n: number) => app.inject({ method: 'POST', url: '/v1/resolve', headers: { 'x-api-key': key }, payload: Array(n).fill('Kampot') });
    const first = await post(4);
    assert.equal(first.statusCode, 200);
    assert.match(String(first.headers.ratelimit), /"monthly";r=6;/);
    const tooMany = await post(7);
    assert.equal(tooMany.statusCode, 429);
    assert.equal(tooMany.json().error.code, 'quota_exceeded');
    assert.ok(Number(tooMany.headers['retry-after']) > 0);
    // The refused batch's call itself was admitted (one request): 5 remain of 10.
    const rest = await post(5);
    assert.equal(rest.statusCode, 200, rest.body.slice(0, 200));
    assert.match(String(rest.headers.ratelimit), /"monthly";r=0;/);
    assert.equal((await app.inject({ url: '/v1/resolve?q=Kampot', headers: { 'x-api-key': key } })).statusCode, 429);
  });

  it('holds the quota under concurrent batches', async () => {
    const { key } = await createKey(store, { plan: 'tiny' });
    await app.inject({ url: '/v1/resolve?q=Kampot', headers: { 'x-api-key': key } });
    const results = await Promise.all(Array.from({ length: 5 }, () =>
      app.inject({ method: 'POST', url: '/v1/resolve', headers: { 'x-api-key': key }, payload: ['Kampot', 'Kep', 'Takeo'] })));
    const resolved = results.filter((r) => r.statusCode === 200).length;
    // 1 + 3 per batch admitted; refused batches cost their one admitted call.
    assert.ok(resolved * 3 + (5 - resolved) + 1 <= 10, `${resolved} batches resolved`);
    assert.ok(resolved >= 2);
  });
});
