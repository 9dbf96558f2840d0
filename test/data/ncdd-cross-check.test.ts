/**
 * Cross-checks the dataset against the official NCDD export of 2024-10-14 (data/sources/ncdd-gazetteer-2024-10-14),
 * an independent copy of the gazetteer. Every difference is listed here with its reason; a new one fails.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import { readManifest, readVerified } from '../../scripts/data/sources.js';
import { CLEANING_RULES, CURATED_REPAIRS } from '../../scripts/data/repairs.js';
import { gazetteer } from '../helper.js';

interface ExportRow {
  type: string;
  name_km: string;
  name_latin: string;
}

async function readExport(): Promise<Map<string, ExportRow>> {
  const bytes = readVerified(readManifest(), 'ncdd-gazetteer-2024-10-14/2024.10.14.xlsx');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows = new Map<string, ExportRow>();
  for (const sheet of workbook.worksheets) {
    sheet.eachRow((row) => {
      const [, type, code, km, latin] = row.values as unknown[];
      const digits = String(code ?? '').trim();
      if (!/^\d+$/.test(digits)) return; // title and header rows
      // The export drops the leading zero of provinces 01-09: pad to an even length.
      rows.set(digits.padStart(digits.length + (digits.length % 2), '0'), {
        type: String(type).trim(),
        name_km: String(km ?? ''),
        name_latin: String(latin ?? ''),
      });
    });
  }
  return rows;
}

/** The export's spacing defects are the same as pumi's; compare names after the build's own cleaning. */
const clean = (name: string) => CLEANING_RULES.reduce((s, rule) => rule.apply(s), name);

/** Villages created after 2024-10-14 (in pumi, not in the export). */
const NEWER_VILLAGES = ['01070116', '01070117', '01080413', '01080414', '01090513', '01090514', '01090515', '01090516'];

/** NCDD spellings that pumi corrects (data/sources/pumi/misspellings.csv), one entry per unit. */
const PUMI_CORRECTIONS = ['0102', '0110', '011002', '0504', '0609', '020307', '020308', '080122', '08012201', '08081411',
  '1208', '171009', '2302', '230201', '23020101'];

describe('cross-check with the NCDD export of 2024-10-14', async () => {
  const ncdd = await readExport();
  const g = gazetteer();

  it('has every unit of the export, and only the villages created since', () => {
    assert.equal(ncdd.size, 210 + 1652 + 14570);
    const missing = [...ncdd.keys()].filter((code) => !g.byCode(code));
    assert.deepEqual(missing, []);
    const extra = g.units.filter((u) => u.level !== 'province' && !ncdd.has(u.code)).map((u) => u.code);
    assert.deepEqual(extra, NEWER_VILLAGES);
  });

  it('agrees on the local unit type (Srok, Krong, Khan, Khum, Sangkat, Phum)', () => {
    const differ = [...ncdd].filter(([code, row]) => g.byCode(code)!.unit_type_km !== row.type).map(([code, row]) => `${code} ${row.type}`);
    // Krong Odongk Maechay (0509) is a municipality in pumi: its five communes became sangkats after the export.
    assert.deepEqual(differ, ['050901', '050902', '050903', '050904', '050905'].map((code) => `${code} ឃុំ`));
  });

  /** Units whose name in this field a rule of scripts/data/names.ts repaired (listed in data/REPAIRS.md). */
  const repairedByNames = (field: 'name_km' | 'name_latin') =>
    new Set(g.repairs.filter((r) => r.field === field && /^(latin|khmer)-/.test(r.rule)).map((r) => r.code));

  it('agrees on Khmer names except the repaired and the documented ones', () => {
    const repaired = repairedByNames('name_km');
    const differ = [...ncdd].filter(([code, row]) => clean(row.name_km) !== g.byCode(code)!.name_km && !repaired.has(code)).map(([code]) => code);
    const curatedKm = CURATED_REPAIRS.filter((r) => r.field === 'name_km').map((r) => r.code);
    // 031310: pumi (newer) and the export spell the commune differently; see KNOWN_UNREPAIRED.
    assert.deepEqual(differ.sort(), [...curatedKm, '031310'].sort());
    // The export has the same defects as pumi: every repaired name differs from it (the repair is ours, not a source's).
    for (const code of repaired) if (ncdd.has(code)) assert.notEqual(clean(ncdd.get(code)!.name_km), g.byCode(code)!.name_km, code);
  });

  it('agrees on Latin names except pumi\'s corrections, our repairs and one reordered name', () => {
    const repaired = repairedByNames('name_latin');
    const differ = [...ncdd].filter(([code, row]) => clean(row.name_latin) !== g.byCode(code)!.name_latin && !repaired.has(code)).map(([code]) => code);
    const curatedLatin = CURATED_REPAIRS.filter((r) => r.field === 'name_latin').map((r) => r.code);
    // 10050607 (១០៤): the export reads "Buon Roy Muoy", pumi the Khmer order "Muoy Roy Buon" (one hundred four).
    assert.deepEqual(differ.sort(), [...PUMI_CORRECTIONS, ...curatedLatin, '10050607'].sort());
  });
});
