import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { buildDataset, REPAIRS_PATH } from '../../scripts/build-data.js';
import { CURATED_REPAIRS, KNOWN_UNREPAIRED, repairUnits } from '../../scripts/data/repairs.js';
import type { PostalRow, RawUnit } from '../../scripts/data/sources.js';
import { readSources } from '../../scripts/data/sources.js';
import { validateDataset } from '../../scripts/data/validate.js';
import { DATASET_PATH } from '../../src/gazetteer/load.js';
import type { Dataset, Unit } from '../../src/gazetteer/types.js';

const built = buildDataset();
const sources = readSources();
const units = built.dataset.units;
const byCode = new Map(units.map((u) => [u.code, u]));

describe('build-data', () => {
  it('is deterministic and the committed files are current', () => {
    assert.equal(buildDataset().json, built.json);
    assert.equal(readFileSync(DATASET_PATH, 'utf8'), built.json, 'data/gazetteer.json is stale: run npm run build:data');
    assert.equal(readFileSync(REPAIRS_PATH, 'utf8'), built.repairsMarkdown, 'data/REPAIRS.md is stale: run npm run build:data');
  });

  it('names its sources in the version', () => {
    assert.equal(built.dataset.version, '2026.06.19-pumi.3a5c2be+prakas77.2025-12-30');
    assert.deepEqual(built.dataset.sources.map((s) => s.name), ['pumi', 'prakas77']);
  });

  it('takes every postal code from the Prakas table, villages from their commune', () => {
    const table = new Map(sources.postal.map((r) => [r.ncdd_code, r.postal_code]));
    assert.equal(table.size, 1887);
    let differFromNcdd = 0;
    for (const u of units) {
      const expected = u.level === 'village' ? table.get(u.code.slice(0, 6)) : table.get(u.code);
      assert.equal(u.postal_code, expected, u.code);
      if (u.level !== 'village' && u.postal_code !== u.code.padEnd(6, '0')) differFromNcdd++;
    }
    assert.equal(differFromNcdd, 57);
  });

  it('repairs every known defect and lists each change with its unit code', () => {
    const repaired = (code: string, field: 'name_km' | 'name_latin') =>
      built.dataset.repairs.filter((r) => r.code === code && r.field === field);
    assert.equal(byCode.get('02010508')!.name_latin, 'Pailam');
    assert.equal(byCode.get('02140110')!.name_latin, 'Preaek Chik Muoy');
    assert.ok(repaired('02140110', 'name_latin').some((r) => r.rule === 'trim'));
    const rule = (id: string) => new Set(built.dataset.repairs.filter((r) => r.rule === id).map((r) => r.code));
    assert.equal(rule('remove-zero-width').size, 10);
    assert.equal(rule('collapse-spaces').size, 37);
    for (const c of CURATED_REPAIRS) assert.equal(byCode.get(c.code)![c.field], c.to, c.code);
    assert.deepEqual(['03020808', '03020809', '03020810', '03020811'].map((c) => byCode.get(c)!.name_latin),
      ['Ta Pang 1', 'Ta Pang 2', 'Ta Pang 3', 'Ta Pang 4']);
  });

  it('keeps known unrepaired defects as documented: same names, distinct slugs', () => {
    assert.ok(KNOWN_UNREPAIRED.length > 0);
    const [a, b] = [byCode.get('25030501')!, byCode.get('25030509')!];
    assert.equal(a.name_latin, b.name_latin);
    assert.equal(a.slug, 'dar-kandal');
    assert.equal(b.slug, 'dar-kandal-25030509');
  });

  it('fails a curated repair whose source value changed', () => {
    const raw = sources.units.map((u) => (u.code === '12080301' ? { ...u, name_latin: 'Something Else' } : u));
    assert.throws(() => repairUnits(raw), /12080301\.name_latin expects "Anlong Kngan"/);
  });

  it('cleans names with every general rule', () => {
    const raw: RawUnit = { ...sources.units[0]!, name_latin: ' Kbal\u200B  Spean ( 1 ) ', name_km: 'ក\u200Bខ' };
    const others = sources.units.filter((u) => CURATED_REPAIRS.some((c) => c.code === u.code));
    const { units: out } = repairUnits([raw, ...others]);
    assert.equal(out[0]!.name_latin, 'Kbal Spean (1)');
    assert.equal(out[0]!.name_km, 'កខ');
  });

  it('gives every unit the fields the API needs', () => {
    for (const u of units) {
      assert.match(u.id, /^[0-9a-f-]{36}$/);
      assert.ok(u.href.endsWith(`/${u.slug}`), u.code);
      assert.equal(u.type, u.code === '12' ? 'capital' : u.level);
    }
    const kh = byCode.get('1201')!;
    assert.deepEqual([kh.unit_type_km, kh.unit_type_latin, kh.unit_type_en], ['ខណ្ឌ', 'Khan', 'Section']);
    const bmc = byCode.get('01')!;
    assert.equal(bmc.iso3166_2, 'KH-1');
    assert.equal(bmc.name_ungegn, 'Bântéay Méanchoăy');
    assert.deepEqual(bmc.geo, { lat: 13.7989147, lng: 102.8862666,
      bbox: { min_lat: 13.3579351, max_lat: 14.2502283, min_lng: 102.3338282, max_lng: 103.4427283 } });
  });
});

describe('validateDataset', () => {
  const dataset = (change: (units: Unit[]) => Unit[]): Dataset => ({ ...built.dataset, units: change(units.map((u) => ({ ...u }))) });
  const check = (change: (units: Unit[]) => Unit[], postal: readonly PostalRow[] = sources.postal) =>
    validateDataset(dataset(change), postal).join('\n');

  it('accepts the real dataset', () => {
    assert.deepEqual(validateDataset(built.dataset, sources.postal), []);
  });

  it('rejects wrong counts and orphans', () => {
    assert.match(check((us) => us.filter((u) => u.code !== '12010101')), /14577 village units, expected 14578/);
    assert.match(check((us) => us.filter((u) => u.code !== '120101')), /12010101: parent 120101 missing/);
  });

  it('rejects empty names, zero-width characters, stray spaces and script mix-ups', () => {
    const edit = (code: string, patch: Partial<Unit>) => (us: Unit[]) => us.map((u) => (u.code === code ? { ...u, ...patch } : u));
    assert.match(check(edit('01', { name_latin: '' })), /01 name_latin "": empty/);
    assert.match(check(edit('01', { name_km: 'ក\u200Bខ' })), /zero-width/);
    assert.match(check(edit('01', { name_latin: 'A  B' })), /double space/);
    assert.match(check(edit('01', { name_latin: ' A' })), /leading or trailing space/);
    assert.match(check(edit('01', { name_km: 'ស្ថាពរ1' })), /Latin letter or digit/);
    assert.match(check(edit('01', { name_latin: 'Aក' })), /Khmer letter/);
  });

  it('rejects missing, malformed and duplicate postal codes', () => {
    const edit = (code: string, postal: string) => (us: Unit[]) => us.map((u) => (u.code === code ? { ...u, postal_code: postal } : u));
    assert.match(check(edit('0102', '12345')), /not 6 digits/);
    assert.match(check(edit('0102', '010000')), /postal code 010000 of 0102 is also 01's/);
    assert.match(check(edit('12010101', '120102')), /village postal code differs/);
  });

  it('rejects clashing slugs among siblings', () => {
    assert.match(check((us) => us.map((u) => (u.code === '25030509' ? { ...u, slug: 'dar-kandal' } : u))), /not unique among siblings/);
  });
});
