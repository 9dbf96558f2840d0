import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SearchIndex } from '../../src/search/search-index.js';
import { gazetteer, searchIndex } from '../helper.js';

const codes = (index: SearchIndex, q: string, limit = 5) => index.search(q, { limit }).hits.map((h) => h.unit.code);
const first = (index: SearchIndex, q: string) => index.search(q, { limit: 1 }).hits[0];

describe('SearchIndex', () => {
  const index = searchIndex();

  it('puts an exact province name before everything', () => {
    assert.deepEqual(first(index, 'Battambang'), { unit: gazetteer().byCode('02'), match: 'exact' });
    assert.equal(first(index, 'kampong cham')!.unit.code, '03');
    assert.equal(first(index, 'ខេត្តកំពត')!.unit.code, '07');
  });

  it('ranks by match, then level, then name', () => {
    const { hits } = index.search('Kampong Cham', { limit: 50 });
    const exact = hits.filter((h) => h.match === 'exact');
    assert.deepEqual(exact.slice(0, 3).map((h) => h.unit.code), ['03', '0305', '030502']);
    // Every exact match comes before every other match.
    assert.equal(hits.findIndex((h) => h.match !== 'exact'), exact.length);
    const levels = exact.map((h) => ['province', 'district', 'commune', 'village'].indexOf(h.unit.level));
    assert.deepEqual(levels, [...levels].sort());
  });

  it('matches romanizations, typos and spacing, and says how', () => {
    assert.deepEqual([first(index, 'Batdambang')!.unit.code, first(index, 'Batdambang')!.match], ['02', 'exact']);
    assert.equal(first(index, 'Kompong Thom')!.unit.code, '06');
    assert.equal(first(index, 'Kompong Thom')!.match, 'alias'); // the anglicised province name is in the alias table
    assert.equal(first(index, 'Kampong Thum')!.unit.code, '06');
    assert.equal(first(index, 'Battambnag')!.match, 'typo');
    assert.equal(first(index, 'Siemreap')!.unit.code, '17');
    assert.deepEqual([first(index, 'Kg. Chhnang')!.unit.code, first(index, 'Kg. Chhnang')!.match], ['04', 'exact']);
  });

  it('finds postal codes, the owner first, and prefixes', () => {
    assert.deepEqual(codes(index, '121001', 2), ['121207', '12120701']);
    assert.equal(first(index, ' ១២០០០០ ')!.unit.code, '12');
    assert.equal(first(index, '120000')!.match, 'postal_code');
    assert.equal(index.search('12', { limit: 1 }).total, 1 + 14 + 105 + 953);
  });

  it('finds Khmer names whole, from the start and inside', () => {
    assert.equal(first(index, 'ភ្នំពេញ')!.unit.code, '12');
    assert.equal(first(index, 'ខណ្ឌ ចំការមន')!.unit.code, '1201');
    assert.ok(codes(index, 'ចង្វារ', 10).includes('1210'));
  });

  it('pages through one ranking: pages join up to the full list, total stays', () => {
    const all = index.search('phum', { limit: 10_000 });
    const pages = [0, 1, 2, 3].flatMap((p) => index.search('phum', { offset: p * 25, limit: 25 }).hits);
    assert.deepEqual(pages.map((h) => h.unit.code), all.hits.slice(0, 100).map((h) => h.unit.code));
    assert.equal(index.search('phum', { offset: 50, limit: 25 }).total, all.total);
    assert.deepEqual(index.search('phum', { offset: all.total, limit: 10 }).hits, []);
  });

  it('is deterministic: a fresh index gives the same results', () => {
    const fresh = new SearchIndex(gazetteer().units, []);
    for (const q of ['Kampong', 'ភូមិ', 'tuol', '12']) assert.deepEqual(codes(fresh, q, 50), codes(new SearchIndex(gazetteer().units, []), q, 50), q);
  });

  it('finds nothing for nothing useful', () => {
    assert.equal(index.search('zzzzqqq').total, 0);
    assert.equal(index.search('🙂').total, 0);
  });

  it('rejects an alias that points at no unit', () => {
    assert.throws(() => new SearchIndex(gazetteer().units, [{ alias: 'Nowhere', codes: ['99'], source: 'test', note: '' }]), /unknown unit 99/);
  });
});
