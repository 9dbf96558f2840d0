import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Gazetteer } from '../../src/gazetteer/gazetteer.js';
import type { Unit } from '../../src/gazetteer/types.js';
import { gazetteer, unit } from '../helper.js';

const codes = (units: readonly Unit[]) => units.map((u) => u.code);

describe('Gazetteer', () => {
  const g = gazetteer();

  it('holds 25 provinces, 210 districts, 1,652 communes and 14,578 villages', () => {
    const count = (level: string) => g.units.filter((u) => u.level === level).length;
    assert.deepEqual([count('province'), count('district'), count('commune'), count('village')], [25, 210, 1652, 14578]);
    assert.equal(g.provinces().length, 25);
    assert.match(g.version, /^\d{4}\.\d{2}\.\d{2}-pumi\.[0-9a-f]{7}\+prakas77\.2025-12-30$/);
  });

  it('finds a unit by id (any case), by code and by slug path', () => {
    const chamkarMon = unit('1201');
    assert.equal(g.byId(chamkarMon.id), chamkarMon);
    assert.equal(g.byId(chamkarMon.id.toUpperCase()), chamkarMon);
    assert.equal(g.bySlugPath(['phnom-penh', 'chamkar-mon']), chamkarMon);
    assert.equal(g.bySlugPath(['phnom-penh', 'chamkar-mon', 'tonle-basak'])?.code, '120101');
    assert.equal(g.byId('00000000-0000-5000-8000-000000000000'), undefined);
    assert.equal(g.byCode('99'), undefined);
    assert.equal(g.bySlugPath(['phnom-penh', 'nowhere']), undefined);
    assert.equal(g.bySlugPath([]), undefined);
  });

  it('resolves every unit by its own id, code and href', () => {
    for (const u of g.units) {
      assert.equal(g.byId(u.id), u);
      assert.equal(g.byCode(u.code), u);
      assert.equal(g.bySlugPath(u.href.split('/').slice(2)), u);
    }
  });

  it('finds units by postal code from the Prakas table, including codes that differ from the NCDD code', () => {
    assert.equal(g.byPostalCode('120000')?.code, '12');
    // Sangkat Kbal Kaoh (NCDD 121207) has postal code 121001; NCDD 121001 is Chrouy Changvar (postal 121102).
    assert.equal(g.byPostalCode('121001')?.code, '121207');
    assert.equal(g.byPostalCode('121102')?.code, '121001');
    // Khan Chbar Ampov (1212) is 121000 and Khan Chrouy Changvar (1210) is 121100.
    assert.equal(g.byPostalCode('121000')?.code, '1212');
    assert.equal(g.byPostalCode('121100')?.code, '1210');
    // Swapped within Bavel: Khlaeng Meas 020407 -> 020408, Boeung Pram 020408 -> 020407.
    assert.equal(g.byPostalCode('020408')?.code, '020407');
    assert.equal(g.byPostalCode('020407')?.code, '020408');
    assert.equal(g.byPostalCode('999999'), undefined);
  });

  it('lists children ordered by code, and nothing under a village or an unknown code', () => {
    const districts = g.children('12');
    assert.equal(districts.length, 14);
    assert.deepEqual(codes(districts), [...codes(districts)].sort());
    assert.ok(districts.every((d) => d.parent_code === '12' && d.level === 'district'));
    assert.deepEqual(codes(g.children('120101')).slice(0, 2), ['12010101', '12010102']);
    assert.deepEqual(g.children('12010101'), []);
    assert.deepEqual(g.children('nope'), []);
  });

  it('lists ancestors from the province down', () => {
    assert.deepEqual(codes(g.ancestors('12010101')), ['12', '1201', '120101']);
    assert.deepEqual(codes(g.ancestors('12')), []);
  });

  it('counts descendants per level, matching a count over all units', () => {
    assert.deepEqual(g.descendantCounts('12'), { districts: 14, communes: 105, villages: 953 });
    for (const u of g.units.filter((x) => x.level !== 'village')) {
      const under = g.units.filter((d) => d.code.length > u.code.length && d.code.startsWith(u.code));
      const expected = {
        districts: under.filter((d) => d.level === 'district').length,
        communes: under.filter((d) => d.level === 'commune').length,
        villages: under.filter((d) => d.level === 'village').length,
      };
      assert.deepEqual(g.descendantCounts(u.code), expected, u.code);
    }
  });

  it('gives the postal prefix and range of a unit and its descendants', () => {
    assert.deepEqual(g.postalSpan('01'), { prefix: '01', low: '010000', high: '011005', range: '010000-011005' });
    assert.deepEqual(g.postalSpan('0102'), { prefix: '0102', low: '010200', high: '010213', range: '010200-010213' });
    // A commune and its villages share one code: the prefix is all six digits.
    assert.deepEqual(g.postalSpan('120101'), { prefix: '120101', low: '120101', high: '120101', range: '120101-120101' });
    assert.equal(g.postalSpan('12010101').range, '120101-120101');
    // Khan Chbar Ampov (NCDD 1212) got 121000 and its sangkats 121001-121008: the prefix follows the postal codes.
    assert.deepEqual(g.postalSpan('1212'), { prefix: '12100', low: '121000', high: '121008', range: '121000-121008' });
    for (const u of g.units.filter((x) => x.level !== 'village')) {
      const span = g.postalSpan(u.code);
      const all = g.units.filter((d) => d.code.startsWith(u.code)).map((d) => d.postal_code).sort();
      assert.equal(span.range, `${all[0]}-${all.at(-1)}`, u.code);
      assert.ok(all.every((p) => p.startsWith(span.prefix)), u.code);
    }
  });

  it('builds from units in any order', () => {
    const shuffled = { ...{ version: 'v', sources: [], repairs: [] }, units: [...g.units].reverse() };
    const rebuilt = new Gazetteer(shuffled);
    assert.deepEqual(codes(rebuilt.provinces()), codes(g.provinces()));
    assert.deepEqual(rebuilt.descendantCounts('17'), g.descendantCounts('17'));
  });
});
