/** The curated alias table (data/aliases.csv): names people use that no spelling rule reaches. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import { parseCsvRecords } from '../lib/csv.js';

export const ALIASES_PATH = fileURLToPath(new URL('../../data/aliases.csv', import.meta.url));

export interface Alias {
  alias: string;
  /** NCDD codes of the units it means; an alias may mean several. */
  codes: string[];
  source: string;
  note: string;
  /** A name or code the units had before (from the unit history): matched exactly, reported as `match: "former"`. */
  former?: boolean;
}

export function parseAliases(text: string): Alias[] {
  return parseCsvRecords(text).map((row, i) => {
    const codes = (row.codes ?? '').split(' ').filter(Boolean);
    if (!row.alias?.trim() || codes.length === 0) throw new Error(`data/aliases.csv row ${i + 2}: alias and codes are required`);
    return { alias: row.alias, codes, source: row.source ?? '', note: row.note ?? '' };
  });
}

export function loadAliases(path: string = ALIASES_PATH): Alias[] {
  return parseAliases(readFileSync(path, 'utf8'));
}

/**
 * The former names and former codes of today's units (data/history.json), as aliases marked `former`: a retired
 * code means its successors ("0505" -> Odongk Maechay and Samakki Munichay), a former name the units that had it.
 */
export function formerAliases(gazetteer: Gazetteer): Alias[] {
  const byName = new Map<string, Set<string>>();
  for (const f of gazetteer.formerNames()) {
    const codes = byName.get(f.name) ?? new Set<string>();
    codes.add(f.code);
    byName.set(f.name, codes);
  }
  const names = [...byName].map(([alias, codes]) => ({ alias, codes: [...codes].sort(), source: 'history', note: 'former name', former: true }));
  const codes = gazetteer.retiredCodes().map((code) => ({ alias: code, codes: gazetteer.successorsOf(code), source: 'history', note: 'former code', former: true }));
  return [...names, ...codes].filter((a) => a.codes.length > 0).sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
}

/** Repairs that only fix spacing or encoding invisibly: the search normalises these away by itself. */
const INVISIBLE_REPAIRS = new Set(['nfc', 'remove-zero-width', 'collapse-spaces', 'trim', 'no-space-inside-brackets']);

/**
 * The source's spelling of every name the build repaired (data/REPAIRS.md), as an alias of the unit: a user who types
 * the defective form (សួនអំំពៅកើត, PhumThmei, Kracheh) still finds it. A child respelt as its parent (latin-parent-child)
 * gives its source spelling to the parent as well.
 */
export function repairAliases(gazetteer: Gazetteer): Alias[] {
  const byName = new Map<string, Set<string>>();
  for (const r of gazetteer.repairs) {
    if (INVISIBLE_REPAIRS.has(r.rule) || r.before.trim() === '' || !gazetteer.byCode(r.code)) continue;
    const codes = byName.get(r.before) ?? new Set<string>();
    codes.add(r.code);
    // A child's name respelt as its parent's, the Khmer name being the same (Pteas Prey, a village of Phteah Prey): the
    // source's spelling is one of the parent's name too.
    const unit = gazetteer.byCode(r.code)!;
    const parent = r.rule.startsWith('latin-parent-child:') && unit.parent_code !== null ? gazetteer.byCode(unit.parent_code) : undefined;
    if (parent && parent.name_km === unit.name_km) codes.add(parent.code);
    byName.set(r.before, codes);
  }
  return [...byName].map(([alias, codes]) => ({ alias, codes: [...codes].sort(), source: 'repair', note: 'source spelling before a repair' }))
    .sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
}

/**
 * What the search index is built with: the curated aliases, the source spellings the build repaired, and the unit
 * history's former names and codes.
 */
export function searchAliases(gazetteer: Gazetteer, path: string = ALIASES_PATH): Alias[] {
  return [...loadAliases(path), ...repairAliases(gazetteer), ...formerAliases(gazetteer), ...honorificAliases(gazetteer)];
}

/**
 * Honorifics in a unit's name that people leave out (តេជោបុស្សស្បូវ is written បុស្សស្បូវ, ធម្មជាតិសម្ដេចតេជោ ហ៊ុន សែន
 * ធម្មជាតិ): the Khmer title at the start or the end, and its romanizations (Te Chour Bosbov, Bosbov).
 */
const KHMER_HONORIFIC_START = /^(?:សម្[ដត]េច\s?)?តេជោ\s?(?:សែន\s?)?/u;
const KHMER_HONORIFIC_END = /\s?(?:សម្[ដត]េច\s?)?តេជោ(?:\s?ហ៊ុន\s?សែន|\s?សែន)?$/u;
const LATIN_HONORIFIC_START = /^(?:Samd[ae]ch\s)?(?:Te\s?Cho(?:u?r?|u)|Te\s?Chhor|Techou?r?|Dechou?|Decho|De\s?Chor)\s(?:Sen\s)?/i;
const LATIN_HONORIFIC_END = /\s(?:Samd[ae]ch\s)?(?:Te\s?Cho(?:u?r?|u)|Te\s?Chhor|Techou?r?|Dechou?|Decho|De\s?Chor)(?:\s(?:Hun\s)?Sen)?$/i;
/** The shortest name left once an honorific is taken off (in characters): កោះតេជោ is not កោះ. */
const HONORIFIC_REST_MIN = 4;

/**
 * Each unit's name without its honorific (see KHMER_HONORIFIC_START), as an alias, Khmer and Latin, where what is left
 * is a name of its own (HONORIFIC_REST_MIN characters) and no other child of the same parent has that name or alias.
 */
export function honorificAliases(gazetteer: Gazetteer): Alias[] {
  const found: Alias[] = [];
  for (const unit of gazetteer.units) {
    // Both patterns have the title: a test of each name for it alone (29 of 16,465 have it), not two replaces.
    if (!unit.name_km.includes('តេជោ')) continue;
    const km = unit.name_km.replace(KHMER_HONORIFIC_START, '').replace(KHMER_HONORIFIC_END, '').trim();
    if (km === unit.name_km || km.length < HONORIFIC_REST_MIN) continue;
    const latin = unit.name_latin.replace(LATIN_HONORIFIC_START, '').replace(LATIN_HONORIFIC_END, '').trim();
    const siblings = unit.parent_code ? gazetteer.children(unit.parent_code) : gazetteer.provinces();
    for (const rest of latin !== unit.name_latin && latin.length >= HONORIFIC_REST_MIN ? [km, latin] : [km]) {
      const taken = siblings.some((s) => s.code !== unit.code && (s.name_km === rest || s.name_latin.toLowerCase() === rest.toLowerCase()));
      if (!taken) found.push({ alias: rest, codes: [unit.code], source: 'honorific', note: `${unit.name_km} without its honorific` });
    }
  }
  // Two children of one parent left with the same name (តេជោអភិវឌ្ឍន៍ and អភិវឌ្ឍន៍តេជោ): neither is kept.
  const byParent = new Map<string, number>();
  for (const a of found) {
    const key = `${gazetteer.byCode(a.codes[0]!)!.parent_code}|${a.alias.toLowerCase()}`;
    byParent.set(key, (byParent.get(key) ?? 0) + 1);
  }
  return found.filter((a) => byParent.get(`${gazetteer.byCode(a.codes[0]!)!.parent_code}|${a.alias.toLowerCase()}`) === 1);
}
