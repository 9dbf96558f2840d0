/**
 * Crawls the whole hierarchy through the API in both shapes, as a client would, and checks every response against
 * the OpenAPI document and against the gazetteer: every unit reachable, every list as long as its parent's total_*,
 * every id and code resolving, Khmer everywhere with lang=km.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { appOptions, gazetteer } from '../helper.js';
import { openApiValidator } from './openapi-validator.js';

const KHMER = /^[\u1780-\u17FF\u19E0-\u19FF0-9 ().«»‹›"\-/]+$/u;
const LATIN = /^[A-Za-z0-9 ()'.;\-/éâ]+$/u;

type Json = Record<string, unknown>;
interface Item { id: string; name: string; code: string; [key: string]: unknown }

describe('crawl of the whole hierarchy', () => {
  const g = gazetteer();
  let app: FastifyInstance;
  let validate: Awaited<ReturnType<typeof openApiValidator>>;
  before(async () => {
    app = await buildApp(appOptions());
    validate = await openApiValidator(app);
  });
  after(() => app.close());

  /** GET url, expect 200, check the body against the OpenAPI schema of `template`, return data. */
  async function get(template: string, url: string): Promise<Json> {
    const response = await app.inject({ method: 'GET', url });
    assert.equal(response.statusCode, 200, `${url}: ${response.body.slice(0, 200)}`);
    const body = response.json() as Json;
    validate(template, 200, body);
    return body;
  }

  for (const lang of ['en', 'km'] as const) {
    it(`reaches all 16,465 units by id (lang=${lang}), with consistent totals and names in ${lang}`, async () => {
      const script = lang === 'km' ? KHMER : LATIN;
      const checkName = (name: string, where: string) => assert.match(name, script, `${where}: ${name}`);
      const seen = new Set<string>();
      const visit = async (template: string, url: string, code: string) => {
        const data = (await get(template, `${url}?lang=${lang}`)).data as Json;
        const unit = g.byCode(code)!;
        assert.equal(data.id, unit.id);
        assert.equal(data.code, code);
        assert.equal(data.name, lang === 'km' ? unit.name_km : unit.name_latin);
        for (const [key, value] of Object.entries(data)) if (key === 'name' || key.endsWith('_name')) checkName(value as string, `${url} ${key}`);
        seen.add(code);
        return data;
      };
      const list = async (template: string, url: string) =>
        ((await get(template, `${url}?lang=${lang}`)).data as { items: Item[] }).items;

      const provinces = await list('/provinces', '/provinces');
      assert.equal(provinces.length, 25);
      for (const p of provinces) {
        checkName(p.name, p.code);
        const province = await visit('/provinces/{id}', `/provinces/${p.id}`, p.code);
        const districts = await list('/provinces/{id}/districts', `/provinces/${p.id}/districts`);
        assert.equal(districts.length, province.total_districts, p.code);
        let communesInProvince = 0;
        let villagesInProvince = 0;
        for (const d of districts) {
          const district = await visit('/districts/{id}', `/districts/${d.id}`, d.code);
          assert.equal(district.province_id, p.id);
          assert.equal(d.total_communes, district.total_communes);
          const communes = await list('/districts/{id}/communes', `/districts/${d.id}/communes`);
          assert.equal(communes.length, district.total_communes, d.code);
          communesInProvince += communes.length;
          let villagesInDistrict = 0;
          for (const c of communes) {
            const commune = await visit('/communes/{id}', `/communes/${c.id}`, c.code);
            assert.equal(commune.district_id, d.id);
            const villages = await list('/communes/{id}/villages', `/communes/${c.id}/villages`);
            assert.equal(villages.length, commune.total_villages, c.code);
            villagesInDistrict += villages.length;
            for (const v of villages) {
              assert.equal(v.postal_code, commune.postal_code, v.code);
              const village = await visit('/villages/{id}', `/villages/${v.id}`, v.code);
              assert.equal(village.commune_id, c.id);
              assert.equal(village.commune_name, commune.name);
            }
          }
          assert.equal(villagesInDistrict, district.total_villages, d.code);
          villagesInProvince += villagesInDistrict;
        }
        assert.equal(communesInProvince, province.total_communes, p.code);
        assert.equal(villagesInProvince, province.total_villages, p.code);
      }
      assert.equal(seen.size, 16465);
    });
  }

  it('resolves every unit\'s href at /locations to the same record as its id', async () => {
    for (const unit of g.units.filter((_, i) => i % 7 === 0 || _.level !== 'village')) {
      const byHref = (await get('/locations/{path}', unit.href)).data as Json;
      assert.equal(byHref.id, unit.id, unit.href);
      assert.equal(byHref.href, unit.href);
    }
  });

  it('reaches all 16,465 units by code under /v1, lists ordered by code', async () => {
    const seen = new Set<string>();
    const list = async (template: string, url: string) => {
      const records = (await get(template, url)).data as Record<string, string>[];
      const codes = records.map((r) => r.code!);
      assert.deepEqual(codes, [...codes].sort(), url);
      for (const r of records) {
        const unit = g.byCode(r.code!)!;
        assert.equal(r.name_en, unit.name_latin);
        assert.equal(r.name_km, unit.name_km);
        assert.equal(r.postal_code, unit.postal_code);
        seen.add(r.code!);
      }
      return records;
    };
    for (const p of await list('/v1/provinces', '/v1/provinces')) {
      assert.deepEqual((await get('/v1/provinces/{province_code}', `/v1/provinces/${p.code}`)).data, [p]);
      for (const d of await list('/v1/districts/{province_code}', `/v1/districts/${p.code}`)) {
        assert.equal(d.province_code, p.code);
        for (const c of await list('/v1/communes/{district_code}', `/v1/communes/${d.code}`)) {
          assert.equal(c.district_code, d.code);
          for (const v of await list('/v1/villages/{commune_code}', `/v1/villages/${c.code}`)) {
            assert.equal(v.commune_code, c.code);
            assert.equal(v.postal_code, c.postal_code);
          }
        }
      }
    }
    assert.equal(seen.size, 16465);
  });
});
