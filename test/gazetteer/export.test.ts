import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXPORT_COLUMNS, exportDataset, type ExportRecord } from '../../src/gazetteer/export.js';
import { parseCsvRecords } from '../../src/lib/csv.js';
import { gazetteer } from '../helper.js';

const text = (chunks: Iterable<string>) => [...chunks].join('');

describe('exportDataset', () => {
  const g = gazetteer();

  it('writes every unit as JSON with the documented fields', () => {
    const records = JSON.parse(text(exportDataset(g, 'json'))) as ExportRecord[];
    assert.equal(records.length, 16465);
    assert.deepEqual(Object.keys(records[0]!), [...EXPORT_COLUMNS]);
    const kbalKaoh = records.find((r) => r.code === '121207')!;
    assert.equal(kbalKaoh.postal_code, '121001');
    assert.equal(kbalKaoh.parent_code, '1212');
    assert.equal(kbalKaoh.name_km, 'ក្បាលកោះ');
    assert.equal(kbalKaoh.unit_type_en, 'Quarter');
    assert.equal(kbalKaoh.href, '/locations/phnom-penh/chbar-ampov/kbal-kaoh');
    assert.deepEqual(records.map((r) => r.code), g.units.map((u) => u.code));
  });

  it('writes RFC 4180 CSV with a header that parses back to the same values', () => {
    const csv = text(exportDataset(g, 'csv'));
    assert.ok(csv.startsWith(`${EXPORT_COLUMNS.join(',')}\r\n`));
    const rows = parseCsvRecords(csv);
    assert.equal(rows.length, 16465);
    const json = JSON.parse(text(exportDataset(g, 'json'))) as ExportRecord[];
    for (let i = 0; i < rows.length; i += 97) {
      for (const column of EXPORT_COLUMNS) assert.equal(rows[i]![column], String(json[i]![column] ?? ''), `${i} ${column}`);
    }
  });

  it('filters one level', () => {
    assert.equal((JSON.parse(text(exportDataset(g, 'json', 'province'))) as unknown[]).length, 25);
    assert.equal(parseCsvRecords(text(exportDataset(g, 'csv', 'commune'))).length, 1652);
  });
});
