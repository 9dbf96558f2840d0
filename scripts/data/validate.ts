/** Build-time checks of the dataset. Each returns every problem it finds, so one build shows them all. */
import type { Dataset, Level, Unit } from '../../src/gazetteer/types.js';
import { CODE_LENGTH, LEVELS } from '../../src/gazetteer/types.js';
import { defectsOf } from './names.js';
import type { PostalRow } from './sources.js';

export const EXPECTED_COUNTS: Record<Level, number> = { province: 25, district: 210, commune: 1652, village: 14578 };

const ZERO_WIDTH = /[\u200B-\u200D\uFEFF]/;
const KHMER = /[\u1780-\u17FF]/;
const ASCII_ALNUM = /[A-Za-z0-9]/;

function nameProblems(unit: Unit): string[] {
  const problems: string[] = [];
  for (const field of ['name_km', 'name_latin'] as const) {
    const name = unit[field];
    const where = `${unit.code} ${field} ${JSON.stringify(name)}`;
    if (name.trim() === '') problems.push(`${where}: empty`);
    if (ZERO_WIDTH.test(name)) problems.push(`${where}: zero-width character`);
    if (name !== name.trim()) problems.push(`${where}: leading or trailing space`);
    if (/\s{2}/.test(name)) problems.push(`${where}: double space`);
    if (name !== name.normalize('NFC')) problems.push(`${where}: not NFC`);
  }
  if (!KHMER.test(unit.name_km)) problems.push(`${unit.code} name_km ${JSON.stringify(unit.name_km)}: no Khmer letter`);
  if (ASCII_ALNUM.test(unit.name_km)) problems.push(`${unit.code} name_km ${JSON.stringify(unit.name_km)}: Latin letter or digit`);
  if (KHMER.test(unit.name_latin)) problems.push(`${unit.code} name_latin ${JSON.stringify(unit.name_latin)}: Khmer letter`);
  return problems;
}

/** Every rule of the dataset; an empty list means it may be written. */
export function validateDataset(dataset: Dataset, postal: readonly PostalRow[]): string[] {
  const problems: string[] = [];
  const units = dataset.units;
  const byCode = new Map(units.map((u) => [u.code, u]));

  for (const level of LEVELS) {
    const count = units.filter((u) => u.level === level).length;
    if (count !== EXPECTED_COUNTS[level]) problems.push(`${count} ${level} units, expected ${EXPECTED_COUNTS[level]}`);
  }
  if (byCode.size !== units.length) problems.push('duplicate codes');

  const ids = new Set<string>();
  const postalOwners = new Map<string, string>();
  const siblingSlugs = new Set<string>();
  const hrefs = new Set<string>();
  for (const unit of units) {
    if (!new RegExp(`^\\d{${CODE_LENGTH[unit.level]}}$`).test(unit.code)) problems.push(`${unit.code}: not a ${unit.level} code`);
    if (unit.parent_code !== null && byCode.get(unit.parent_code)?.level !== LEVELS[LEVELS.indexOf(unit.level) - 1]) {
      problems.push(`${unit.code}: parent ${unit.parent_code} missing or not one level up`);
    }
    if ((unit.parent_code === null) !== (unit.level === 'province')) problems.push(`${unit.code}: parent code wrong for a ${unit.level}`);
    problems.push(...nameProblems(unit));
    if (!unit.unit_type_km || !unit.unit_type_latin || !unit.unit_type_en) problems.push(`${unit.code}: unit type incomplete`);
    if (!/^\d{6}$/.test(unit.postal_code)) problems.push(`${unit.code}: postal code ${JSON.stringify(unit.postal_code)} is not 6 digits`);
    if (unit.level !== 'village') {
      const owner = postalOwners.get(unit.postal_code);
      if (owner) problems.push(`postal code ${unit.postal_code} of ${unit.code} is also ${owner}'s`);
      postalOwners.set(unit.postal_code, unit.code);
    } else if (unit.postal_code !== byCode.get(unit.parent_code!)?.postal_code) {
      problems.push(`${unit.code}: village postal code differs from its commune's`);
    }
    if (ids.has(unit.id)) problems.push(`${unit.code}: duplicate id ${unit.id}`);
    ids.add(unit.id);
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(unit.slug)) problems.push(`${unit.code}: slug ${JSON.stringify(unit.slug)} is not lowercase ASCII`);
    const siblingKey = `${unit.parent_code}/${unit.slug}`;
    if (siblingSlugs.has(siblingKey)) problems.push(`${unit.code}: slug ${unit.slug} not unique among siblings`);
    siblingSlugs.add(siblingKey);
    if (hrefs.has(unit.href)) problems.push(`${unit.code}: duplicate href ${unit.href}`);
    hrefs.add(unit.href);
  }

  // No name may keep a defect of the five classes of names.ts.
  for (const [id, codes] of Object.entries(defectsOf(units))) {
    if (codes.length > 0) problems.push(`${codes.length} name(s) with defect ${id}: ${codes.slice(0, 10).join(', ')}`);
  }
  for (const unit of units) {
    if (!/^[A-Za-z0-9 '()-]+$/.test(unit.name_latin)) problems.push(`${unit.code} name_latin ${JSON.stringify(unit.name_latin)}: not plain ASCII`);
  }

  // The postal table must cover exactly the provinces, districts and communes, with the same names.
  const expectedPostal = units.length - EXPECTED_COUNTS.village;
  if (postalOwners.size !== expectedPostal) problems.push(`${postalOwners.size} postal codes, expected ${expectedPostal}`);
  for (const row of postal) {
    const unit = byCode.get(row.ncdd_code);
    if (!unit || unit.level !== row.level) problems.push(`postal table row ${row.ncdd_code} (${row.level}) has no such unit`);
  }
  return problems;
}
