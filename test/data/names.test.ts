import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildDataset } from '../../scripts/build-data.js';
import { countDefects, numbered, reorderKhmerClusters } from '../../scripts/data/names.js';
import { validateDataset } from '../../scripts/data/validate.js';
import { readSources } from '../../scripts/data/sources.js';
import { unitId } from '../../src/gazetteer/uuid.js';
import { buildApp } from '../../src/http/app.js';
import { appOptions, gazetteer, searchIndex, unit } from '../helper.js';

const found = (q: string) => searchIndex().search(q, { limit: 50 }).hits.map((h) => h.unit.code);

describe('name repairs', () => {
  const built = buildDataset();

  it('leaves no defect of the five classes, from the counts the issue measured', () => {
    assert.deepEqual(Object.values(built.defects).map((d) => d.after), [0, 0, 0, 0, 0]);
    assert.equal(built.defects['latin-capitalisation']!.before, 73);
    for (const d of Object.values(built.defects)) assert.ok(d.before > 0);
  });

  it('fails the build when a defect comes back', () => {
    const units = built.dataset.units.map((u) => (u.code === '24010105' ? { ...u, name_km: 'សួនអំំពៅកើត' } : u.code === '1209' ? { ...u, name_latin: 'Pur SenChey' } : u));
    const problems = validateDataset({ ...built.dataset, units }, readSources().postal).join('\n');
    assert.match(problems, /khmer-encoding: 24010105/);
    assert.match(problems, /latin-capitalisation: 1209/);
  });

  it('finds the correctly typed Khmer names, and the sources\' defective spellings too', () => {
    assert.ok(found('អូរឫស្សី').includes('01100501')); // source: អូរឬស្សី
    assert.ok(found('អូរឬស្សី').includes('01100501'));
    assert.ok(found('ប្រឡាយ').includes('02060111')); // source: ប្រទ្បាយ
    assert.ok(found('ប្រទ្បាយ').includes('02060111'));
    assert.deepEqual(found('សួនអំពៅកើត'), ['24010105']); // source: សួនអំំពៅកើត
    assert.deepEqual(found('សួនអំំពៅកើត'), ['24010105']);
    assert.equal(unit('24010105').name_km, 'សួនអំពៅកើត');
    assert.equal(unit('03030401').name_km, 'ព្នៅលិច'); // source: ពៅ្នលិច
    assert.equal(unit('08').name_km, 'កណ្ដាល');
  });

  it('finds "Phum Ti Dab" by "Phum Ti 10", and Latin names by their source spelling', () => {
    for (const code of ['03050204', '03080210', '03080810']) assert.ok(found('Phum Ti 10').includes(code), code);
    assert.ok(found('Phum Dab Muoy').includes('03020209'));
    assert.ok(found('PhumThmei').includes('03030904'));
    assert.ok(found('Preaek Phnov').includes('121101')); // the child's own spelling, now "Praek Pnov" like its khan
    // A child respelt as its parent of the same Khmer name gives the parent its source spelling too: Pteas Prey, the
    // village 15050411's, is the sangkat Phteah Prey's (ផ្ទះព្រៃ) as well.
    assert.deepEqual(['150504', '15050411'].map((code) => found('Pteas Prey').includes(code)), [true, true]);
    assert.equal(unit('1209').name_latin, 'Pur Sen Chey');
    assert.equal(unit('12060707').name_latin, 'Preaek Ta Long Pir'); // source: "Preaek Ta Long II"
    assert.equal(unit('10').name_latin, 'Kratie');
  });

  it('keeps every id: ids come from codes, not names', () => {
    for (const u of gazetteer().units) assert.equal(u.id, unitId(u.code));
  });

  it('puts Khmer marks in cluster order and reads series numbers', () => {
    assert.equal(reorderKhmerClusters('ពៅ្ន'), 'ព្នៅ');
    assert.equal(reorderKhmerClusters('ត្រពាំងអញា្ចញ'), 'ត្រពាំងអញ្ចាញ');
    assert.equal(reorderKhmerClusters('តាកេរិ៍្ដ'), 'តាកេរ្ដិ៍');
    assert.equal(reorderKhmerClusters('ពោធិ៍លំ្យុ'), 'ពោធិ៍ល្យុំ');
    assert.equal(reorderKhmerClusters('ក្ដី្ករុន'), 'ក្ដី្ករុន'); // ambiguous: left alone
    assert.equal(reorderKhmerClusters('ស្ត្រី'), 'ស្ត្រី');
    assert.deepEqual(numbered('Ou Ruessei Ti Pir'), { base: 'Ou Ruessei', ti: true, value: 2, style: 'word' });
    assert.deepEqual(numbered('Preaek Ta Long III'), { base: 'Preaek Ta Long', ti: false, value: 3, style: 'roman' });
    assert.equal(numbered('Phsar Kandal'), undefined);
    // A final I is a numeral only when the Khmer name ends with a number: ស្រែអ៊ី is Srae I, the vowel ី.
    assert.equal(numbered('Srae I', 'ស្រែអ៊ី'), undefined);
    assert.deepEqual(numbered('Prek Ta Kong I', 'ព្រែកតាគង់១'), { base: 'Prek Ta Kong', ti: false, value: 1, style: 'roman' });
    assert.equal(unit('11050404').name_latin, 'Srae I');
    assert.equal(unit('12060603').name_latin, 'Prek Ta Kong Muoy'); // source: "Prek Ta Kong I", ព្រែកតាគង់១
    assert.deepEqual(countDefects([{ code: '01', name_km: 'ក', name_latin: 'Phum thmei' }])['latin-capitalisation'], 1);
  });
});

describe('old slugs keep resolving', async () => {
  const app = await buildApp(appOptions());
  after(() => app.close());

  it('answers 301 to the current path for a slug from before a repair', async () => {
    const kratie = unit('1002'); // Kracheh -> Kratie, as its province
    assert.deepEqual(kratie.former_slugs, ['kracheh']);
    const response = await app.inject({ method: 'GET', url: '/locations/kratie/kracheh?lang=km' });
    assert.equal(response.statusCode, 301);
    assert.equal(response.headers.location, `${kratie.href}?lang=km`);
    const deeper = await app.inject({ method: 'GET', url: '/locations/kratie/kracheh/kracheh' });
    assert.equal(deeper.statusCode, 301);
    assert.equal(deeper.headers.location, unit('100209').href);
    const current = await app.inject({ method: 'GET', url: kratie.href });
    assert.equal(current.statusCode, 200);
    assert.equal((current.json() as { data: { code: string } }).data.code, '1002');
    assert.equal((await app.inject({ method: 'GET', url: '/locations/kratie/nowhere' })).statusCode, 404);
  });

  it('answers 301 for the slug of a repair since withdrawn (Srae Muoy, served until 2026-11-27, is Srae I)', async () => {
    const srae = unit('11050404');
    assert.deepEqual([srae.slug, srae.former_slugs], ['srae-i', ['srae-muoy']]);
    const response = await app.inject({ method: 'GET', url: srae.href.replace(/srae-i$/, 'srae-muoy') });
    assert.equal(response.statusCode, 301);
    assert.equal(response.headers.location, srae.href);
  });
});
