/**
 * Validation of an address a form already structured: province, district, commune and village (each a code or a
 * name) and a postal code. Each field is looked up at its level; the chain that satisfies the most fields is the
 * corrected one (ties to the more specific, then reported AMBIGUOUS); every field it does not satisfy is a problem.
 */
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import { CODE_LENGTH, LEVELS, type Level, type Unit } from '../gazetteer/types.js';
import { asciiDigits } from '../search/latin.js';
import type { SearchIndex } from '../search/search-index.js';

export type ProblemCode = 'NOT_FOUND' | 'WRONG_LEVEL' | 'UNIT_NOT_IN_PARENT' | 'POSTAL_CODE_MISMATCH' | 'POSTAL_CODE_UNKNOWN' | 'AMBIGUOUS' | 'EMPTY';

export interface Problem {
  field: Level | 'postal_code' | 'query';
  code: ProblemCode;
  message: string;
  message_km: string;
}

interface Ref { code: string; name_en: string; name_km: string }

export interface Validation {
  valid: boolean;
  problems: Problem[];
  corrected: {
    code: string; level: Level; postal_code: string;
    province: Ref; district: Ref | null; commune: Ref | null; village: Ref | null;
  } | null;
}

const LEVEL_KM: Record<Level, string> = { province: 'ខេត្ត/រាជធានី', district: 'ស្រុក/ក្រុង/ខណ្ឌ', commune: 'ឃុំ/សង្កាត់', village: 'ភូមិ' };
const ref = (u: Unit): Ref => ({ code: u.code, name_en: u.name_latin, name_km: u.name_km });
const label = (u: Unit) => `${u.unit_type_latin} ${u.name_latin} (${u.code})`;
const labelKm = (u: Unit) => `${u.unit_type_km}${u.name_km} (${u.code})`;

/** Units of `level` the field names: by code, or by name (exact, alias, variant or typo matches only). */
function lookup(gazetteer: Gazetteer, search: SearchIndex, level: Level, value: string): { units: Unit[]; wrongLevel?: Unit } {
  const digits = asciiDigits(value.trim());
  if (/^\d{2,8}$/.test(digits)) {
    const unit = gazetteer.byCode(digits);
    if (!unit) return { units: [] };
    return unit.level === level ? { units: [unit] } : { units: [], wrongLevel: unit };
  }
  const units: Unit[] = [];
  const { hits } = search.search(value.trim(), { limit: 200 });
  for (const hit of hits) {
    if (hit.unit.level !== level) continue;
    if (hit.match === 'prefix' || hit.match === 'contains' || hit.match === 'postal_code') continue;
    units.push(hit.unit);
  }
  // The best kind of match only: an exact name hides typo readings.
  const first = hits.find((h) => h.unit.level === level && units.includes(h.unit))?.match;
  return { units: units.filter((u) => hits.find((h) => h.unit === u)!.match === first) };
}

export function validateAddress(gazetteer: Gazetteer, search: SearchIndex, query: Partial<Record<Level | 'postal_code', string>>): Validation {
  const problems: Problem[] = [];
  const found = new Map<Level, Unit[]>();
  for (const level of LEVELS) {
    const value = query[level];
    if (value === undefined || value.trim() === '') continue;
    const { units, wrongLevel } = lookup(gazetteer, search, level, value);
    if (wrongLevel) {
      problems.push({ field: level, code: 'WRONG_LEVEL', message: `${value} is the code of ${wrongLevel.level} ${label(wrongLevel)}, not of a ${level} (${CODE_LENGTH[level]} digits).`,
        message_km: `${value} ជាលេខកូដរបស់ ${labelKm(wrongLevel)} មិនមែនរបស់${LEVEL_KM[level]}ទេ។` });
    } else if (units.length === 0) {
      problems.push({ field: level, code: 'NOT_FOUND', message: `No ${level} has the code or name "${value}".`,
        message_km: `រកមិនឃើញ${LEVEL_KM[level]}ដែលមានលេខកូដ ឬឈ្មោះ "${value}" ទេ។` });
    }
    found.set(level, units);
  }
  let postalOwner: Unit | undefined;
  const postal = query.postal_code === undefined ? undefined : asciiDigits(query.postal_code.trim());
  if (postal !== undefined) {
    postalOwner = /^\d{6}$/.test(postal) ? gazetteer.byPostalCode(postal) : undefined;
    if (!postalOwner) {
      problems.push({ field: 'postal_code', code: 'POSTAL_CODE_UNKNOWN', message: `No unit has postal code ${postal} (a postal code is 6 digits).`,
        message_km: `គ្មានអង្គភាពណាមានលេខកូដប្រៃសណីយ៍ ${postal} ទេ។` });
    }
  }
  if (found.size === 0 && postal === undefined) {
    return { valid: false, problems: [{ field: 'query', code: 'EMPTY', message: 'Give at least one of province, district, commune, village, postal_code.',
      message_km: 'សូមផ្ដល់យ៉ាងហោចណាស់ ខេត្ត ស្រុក ឃុំ ភូមិ ឬលេខកូដប្រៃសណីយ៍មួយ។' }], corrected: null };
  }

  // Every unit a field names is a possible most specific unit; the one whose chain satisfies most fields wins.
  const chainOf = (u: Unit) => [...gazetteer.ancestors(u.code), u];
  const satisfied = (u: Unit) => {
    const chain = chainOf(u);
    let n = 0;
    for (const [level, units] of found) if (units.some((x) => chain[LEVELS.indexOf(level)]?.code === x.code)) n++;
    // A postal code is weaker evidence than a name: it settles ties, it does not outvote a field.
    if (postalOwner && chain.some((x) => x.code === postalOwner!.code)) n += 0.5;
    return n;
  };
  const options = [...found.values()].flat();
  if (postalOwner) options.push(postalOwner);
  let best: Unit[] = [];
  let bestScore = -1;
  for (const u of options) {
    const s = satisfied(u) * 10 + LEVELS.indexOf(u.level);
    if (s > bestScore) {
      bestScore = s;
      best = [u];
    } else if (s === bestScore && !best.some((b) => b.code === u.code)) best.push(u);
  }
  if (best.length === 0) return { valid: false, problems, corrected: null };
  const unit = best[0]!;
  const chain = chainOf(unit);
  if (best.length > 1) {
    problems.push({ field: unit.level, code: 'AMBIGUOUS', message: `${best.length} ${unit.level}s fit equally well: ${best.slice(0, 10).map(label).join(', ')}; give a code or the parents.`,
      message_km: `មាន${LEVEL_KM[unit.level]}ចំនួន ${best.length} ត្រូវគ្នាស្មើៗគ្នា៖ ${best.slice(0, 10).map(labelKm).join(', ')}។` });
  }
  for (const [level, units] of found) {
    if (units.length === 0) continue;
    const actual = chain[LEVELS.indexOf(level)];
    if (actual && units.some((x) => x.code === actual.code)) continue;
    const named = units[0]!;
    problems.push(actual
      ? { field: level, code: 'UNIT_NOT_IN_PARENT', message: `${label(unit)} is in ${label(actual)}, not in ${label(named)}.`,
        message_km: `${labelKm(unit)} ស្ថិតនៅក្នុង ${labelKm(actual)} មិនមែន ${labelKm(named)} ទេ។` }
      : { field: level, code: 'UNIT_NOT_IN_PARENT', message: `${label(named)} is not in ${label(unit)}'s chain.`,
        message_km: `${labelKm(named)} មិនស្ថិតនៅក្នុង ${labelKm(unit)} ទេ។` });
  }
  if (postalOwner && !chain.some((x) => x.code === postalOwner!.code) && !gazetteer.ancestors(postalOwner.code).some((x) => x.code === unit.code)) {
    problems.push({ field: 'postal_code', code: 'POSTAL_CODE_MISMATCH', message: `Postal code ${postal} is ${label(postalOwner)}'s; ${label(unit)} has ${unit.postal_code}.`,
      message_km: `លេខកូដប្រៃសណីយ៍ ${postal} ជារបស់ ${labelKm(postalOwner)}។ ${labelKm(unit)} មានលេខ ${unit.postal_code}។` });
  }
  const at = (level: Level) => chain[LEVELS.indexOf(level)] ?? null;
  return {
    valid: problems.length === 0,
    problems,
    corrected: {
      code: unit.code, level: unit.level, postal_code: unit.postal_code,
      province: ref(at('province')!), district: at('district') && ref(at('district')!), commune: at('commune') && ref(at('commune')!),
      village: at('village') && ref(at('village')!),
    },
  };
}
