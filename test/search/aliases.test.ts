import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { honorificAliases, loadAliases, parseAliases } from '../../src/search/aliases.js';
import { latinForms } from '../../src/search/latin.js';
import { gazetteer, searchIndex } from '../helper.js';

const SOURCES = ['pumi-misspellings', 'province-ncdd', 'province-anglicised', 'province-ungegn', 'prakas77-annex', 'former-name',
  'city-name', 'abbreviation', 'common-usage'];

describe('data/aliases.csv', () => {
  const aliases = loadAliases();

  it('says for every alias which units it means and where it came from', () => {
    assert.ok(aliases.length >= 200, `${aliases.length} aliases`);
    for (const a of aliases) {
      assert.ok(SOURCES.includes(a.source), `${a.alias}: source ${a.source}`);
      assert.ok(a.note.length > 0, `${a.alias}: no note`);
      for (const code of a.codes) assert.ok(gazetteer().byCode(code), `${a.alias}: no unit ${code}`);
    }
  });

  it('covers every source and every province', () => {
    for (const source of SOURCES) assert.ok(aliases.some((a) => a.source === source), source);
    const provinces = new Set(aliases.flatMap((a) => a.codes).filter((c) => c.length === 2));
    assert.ok(provinces.size >= 20, `${provinces.size} provinces have an alias`);
  });

  it('lists each alias once and never repeats a unit\'s own name', () => {
    const seen = new Set<string>();
    for (const a of aliases) {
      const key = a.alias.toLowerCase();
      assert.ok(!seen.has(key), `duplicate alias ${a.alias}`);
      seen.add(key);
      for (const code of a.codes) assert.notEqual(a.alias.toLowerCase(), gazetteer().byCode(code)!.name_latin.toLowerCase(), a.alias);
    }
  });

  it('includes pumi\'s NCDD misspellings and the Khmer names people use', () => {
    assert.ok(aliases.some((a) => a.alias === 'Paoy Paet' && a.codes.includes('0110')));
    assert.ok(aliases.filter((a) => /[\u1780-\u17FF]/.test(a.alias)).length >= 15);
    assert.ok(aliases.some((a) => latinForms(a.alias).core.join(' ') === 'sihanoukville' && a.codes.includes('18')));
  });

  it('refuses a row without codes', () => {
    assert.throws(() => parseAliases('alias,codes,source,note\r\nSomewhere,,common-usage,x\r\n'), /alias and codes are required/);
  });
});

describe('names without their honorific', () => {
  const aliases = honorificAliases(gazetteer());
  const of = (code: string) => aliases.filter((a) => a.codes.includes(code)).map((a) => a.alias).sort();

  it('takes the title off the start or the end, in Khmer and in Latin', () => {
    assert.deepEqual(of('13030704'), ['Bosbov', 'បុស្សស្បូវ']);
    assert.deepEqual(of('13030701'), ['Thomacheat', 'ធម្មជាតិ']);
    assert.deepEqual(of('13030706'), ['Steung Kheav', 'ស្ទឹងខៀវ']);
    assert.deepEqual(of('1715'), ['Run Ta Aek', 'រុនតាឯក']);
  });

  it('keeps no alias too short to be a name, nor one a sibling has', () => {
    assert.deepEqual(of('08020704'), []); // កោះតេជោ: កោះ alone is no name
    for (const a of aliases) {
      assert.ok(a.alias.length >= 4, a.alias);
      const unit = gazetteer().byCode(a.codes[0]!)!;
      for (const s of gazetteer().children(unit.parent_code!)) {
        if (s.code !== unit.code) assert.ok(s.name_km !== a.alias && s.name_latin.toLowerCase() !== a.alias.toLowerCase(), `${a.alias}: ${s.code}`);
      }
    }
  });

  it('is searched: the name without its title finds the unit', () => {
    assert.equal(searchIndex().search('បុស្សស្បូវ', { limit: 1 }).hits[0]?.unit.code, '13030704');
  });
});
