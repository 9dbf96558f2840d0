/** Compound search: a unit named with its ancestors ranks first; single names rank as the plain search ranks them. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { compoundSearch } from '../../src/address/compound.js';
import { resolverFor } from '../../src/address/resolve.js';
import { buildApp } from '../../src/http/app.js';
import { appOptions, gazetteer, searchIndex } from '../helper.js';

const compound = (q: string, page = { offset: 0, limit: 10 }) => compoundSearch(searchIndex(), resolverFor(gazetteer(), searchIndex()), q, page);

describe('compound search', () => {
  const cases: [string, string][] = [
    ['Tonle Basak Chamkar Mon', '120101'],
    ['Sangkat Tonle Basak, Khan Chamkar Mon', '120101'],
    ['Chamkar Mon Tonle Basak', '120101'],
    ['ទន្លេបាសាក់ ចំការមន', '120101'],
    ['ភូមិ១ សង្កាត់ទន្លេបាសាក់', '12010101'],
    ['Svay Dankum, Siem Reap', '171002'],
    ['Kraom, Prek Anhchanh, Kandal', '08070303'],
  ];
  for (const [q, code] of cases) {
    it(`${q} -> ${code} first`, () => {
      const page = compound(q);
      assert.equal(page.hits[0]?.unit.code, code);
      assert.equal(page.hits[0]?.match, 'compound');
    });
  }

  it('keeps single names exactly as the plain search ranks them (every query of the relevance suite)', () => {
    const relevance = JSON.parse(readFileSync(new URL('../search/relevance-cases.json', import.meta.url), 'utf8')) as { q: string }[];
    let compoundFired = 0;
    for (const { q } of relevance) {
      const plain = searchIndex().search(q, { limit: 5 });
      const mixed = compound(q, { offset: 0, limit: 5 });
      if (mixed.hits[0]?.match === 'compound') {
        compoundFired++;
        continue;
      }
      assert.deepEqual(mixed.hits.map((h) => h.unit.code), plain.hits.map((h) => h.unit.code), q);
      assert.equal(mixed.total, plain.total, q);
    }
    // The suite is made of single names: the compound reading must stay the exception.
    assert.ok(compoundFired <= relevance.length * 0.05, `${compoundFired} compound readings`);
  });

  it('pages through the merged list without repeating the compound unit', () => {
    const all = compound('Tonle Basak Chamkar Mon', { offset: 0, limit: 100 });
    const paged = [...compound('Tonle Basak Chamkar Mon', { offset: 0, limit: 2 }).hits, ...compound('Tonle Basak Chamkar Mon', { offset: 2, limit: 2 }).hits];
    assert.deepEqual(paged.map((h) => h.unit.code), all.hits.slice(0, 4).map((h) => h.unit.code));
    assert.equal(new Set(all.hits.map((h) => h.unit.code)).size, all.hits.length);
  });

  describe('through both search routes', () => {
    let app: FastifyInstance;
    before(async () => {
      app = await buildApp({ ...appOptions(), maxEventLoopDelayMs: 0 });
    });
    after(() => app.close());
    it('ranks the chain\'s unit first on /search and /v1/search', async () => {
      const v1 = (await app.inject('/v1/search?q=Tonle%20Basak%20Chamkar%20Mon')).json();
      assert.equal(v1.data[0].code, '120101');
      assert.equal(v1.data[0].match, 'compound');
      const id = (await app.inject(`/search?lang=km&q=${encodeURIComponent('ទន្លេបាសាក់ ចំការមន')}`)).json();
      assert.equal(id.data.items[0].code, '120101');
      assert.equal(id.data.items[0].name, 'ទន្លេបាសាក់');
      assert.equal((await app.inject('/v1/search?q=Battambang')).json().data[0].code, '02');
    });
  });
});
