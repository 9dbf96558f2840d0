/**
 * Every change the build makes to the raw names, in one place.
 *
 * Two kinds: general cleaning rules, applied to every name and logged for each unit they change, and curated
 * repairs of single units, each with the evidence for it. The build records every change it makes in the dataset's
 * `repairs` list and in data/REPAIRS.md. Known defects that are deliberately left as they are come last.
 */
import type { Repair } from '../../src/gazetteer/types.js';
import { repairNames } from './names.js';
import type { RawUnit } from './sources.js';

type NameField = Repair['field'];

/** A cleaning rule: a name in, the cleaned name out. Applied in this order to every Khmer and Latin name. */
export const CLEANING_RULES: readonly { id: string; apply: (name: string) => string }[] = [
  // Unicode normalisation first, so that later rules and comparisons see one encoding of each letter.
  { id: 'nfc', apply: (s) => s.normalize('NFC') },
  // U+200B-U+200D and U+FEFF are invisible; in the sources they sit inside words or next to spaces.
  { id: 'remove-zero-width', apply: (s) => s.replace(/[\u200B-\u200D\uFEFF]/g, '') },
  { id: 'collapse-spaces', apply: (s) => s.replace(/\s{2,}/g, ' ') },
  { id: 'trim', apply: (s) => s.trim() },
  { id: 'no-space-inside-brackets', apply: (s) => s.replace(/([([])\s+/g, '$1').replace(/\s+([)\]])/g, '$1') },
];

/** A repair of one unit's name that no general rule can make. `from` guards against a changed source. */
export interface CuratedRepair {
  code: string;
  field: NameField;
  from: string;
  to: string;
  why: string;
}

export const CURATED_REPAIRS: readonly CuratedRepair[] = [
  {
    code: '02010508',
    field: 'name_latin',
    from: '',
    to: 'Pailam',
    why: 'The Latin name is blank in pumi and in the NCDD export of 2024-10-14. Missing Latin names are filled by a ' +
      'person, never by a machine transliteration: ប៉ៃឡាំ romanized in the gazetteer\'s own (GD) system, ប៉ៃ as in ' +
      'ប៉ៃលិន Pailin and ឡាំ as in សាឡាំ Salam (05010910).',
  },
  {
    code: '12080301',
    field: 'name_latin',
    from: 'Anlong Kngan',
    to: 'Khmuonh',
    why: 'The Khmer name is ឃ្មួញ; "Anlong Kngan" is the name of its sibling 12080304 (អន្លង់ក្ងាន), copied by mistake ' +
      '(the same in the NCDD export). Khmuonh is the gazetteer\'s romanization of ឃ្មួញ (Sangkat Khmuonh, 120803).',
  },
  ...[['03020809', '2'], ['03020810', '3'], ['03020811', '4']].map(([code, n]) => ({
    code: code!,
    field: 'name_latin' as const,
    from: 'Ta Pang 1',
    to: `Ta Pang ${n}`,
    why: 'The Khmer names are តាប៉ាង១ to តាប៉ាង៤, but all four villages 03020808-11 are "Ta Pang 1" in Latin ' +
      '(also in the NCDD export).',
  })),
  {
    code: '02040504',
    field: 'name_km',
    from: 'ស្ថាពរ1',
    to: 'ស្ថាពរ១',
    why: 'A Latin digit inside the Khmer name; the Latin name is "Sthapor Muoy" (one).',
  },
  {
    code: '05031320',
    field: 'name_km',
    from: 'លិចបឹង`',
    to: 'លិចបឹង',
    why: 'A stray backtick at the end of the Khmer name (Latin: Lech Boeng).',
  },
];

/**
 * Defects seen in the sources and deliberately not changed, because the sources give no evidence of the right value.
 * Listed so nobody "fixes" them by hand; tests assert they are still handled as described.
 */
export const KNOWN_UNREPAIRED: readonly { codes: string[]; what: string; handling: string }[] = [
  {
    codes: ['25030501', '25030509'],
    what: 'Two villages of commune 250305 share the name ដារកណ្ដាល / Dar Kandal (pumi and the NCDD export agree).',
    handling: 'Names kept; the higher code gets the slug dar-kandal-25030509 so slugs stay unique among siblings.',
  },
  {
    codes: ['031310'],
    what: 'Khmer name: pumi (current NCDD) has សូរសែន្យ, the NCDD export of 2024-10-14 has សូរ្យសែន.',
    handling: 'pumi, the primary and newer source, is kept.',
  },
];

/**
 * Applies the cleaning rules to every name, then the curated repairs, and returns the repaired units with the log
 * of every change. Fails if a curated repair no longer matches its source (the source changed: review the repair).
 */
export function repairUnits(units: readonly RawUnit[]): { units: RawUnit[]; repairs: Repair[]; cleaned: Map<string, RawUnit> } {
  const repairs: Repair[] = [];
  const byCode = new Map<string, RawUnit>();
  const repaired = units.map((unit) => {
    const copy = { ...unit };
    for (const field of ['name_km', 'name_latin'] as const) {
      for (const rule of CLEANING_RULES) {
        const before = copy[field];
        const after = rule.apply(before);
        if (after !== before) {
          repairs.push({ code: unit.code, field, before, after, rule: rule.id });
          copy[field] = after;
        }
      }
    }
    byCode.set(copy.code, copy);
    return copy;
  });
  for (const repair of CURATED_REPAIRS) {
    const unit = byCode.get(repair.code);
    if (!unit) throw new Error(`curated repair for unknown unit ${repair.code}`);
    if (unit[repair.field] !== repair.from) {
      throw new Error(`curated repair ${repair.code}.${repair.field} expects ${JSON.stringify(repair.from)} ` +
        `after cleaning, found ${JSON.stringify(unit[repair.field])}: the source changed, review scripts/data/repairs.ts`);
    }
    unit[repair.field] = repair.to;
    repairs.push({ code: repair.code, field: repair.field, before: repair.from, after: repair.to, rule: `curated: ${repair.why}` });
  }
  // The units as they were before the name repairs of names.ts: their slugs are the former slugs of a renamed unit.
  const cleaned = new Map(repaired.map((u) => [u.code, { ...u }]));
  repairs.push(...repairNames(repaired));
  repairs.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return { units: repaired, repairs, cleaned };
}
