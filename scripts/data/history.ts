/**
 * Builds the unit-events table (data/history.json) from two sources:
 *
 * - pumi-history: code events of districts and communes read from the git history of pumi since 2016 (created,
 *   retired, recoded, renamed_km), dated by pumi's sync commits (not legal dates), with per-commit unit counts;
 * - the NCDD export of 2024-10-14: its Reference (the legal act) and Official Note (what the act did) columns.
 *
 * Plus a short curated table for what neither says in a form a rule can read (each entry gives its evidence).
 * The checks at the end fail the build when a retired code has neither a successor nor a reason, or when the events
 * do not replay to pumi's own unit counts (so a missing created/retired event is caught).
 */
import ExcelJS from 'exceljs';
import { parseCsvRecords } from '../../src/lib/csv.js';
import type { EventKind, EventSource, History, Level, RetiredCode, Unit, UnitEvent } from '../../src/gazetteer/types.js';
import { CLEANING_RULES } from './repairs.js';
import { readManifest, readVerified, SOURCES_DIR } from './sources.js';
import { compareCodes, parentCode } from './assemble.js';
import { normaliseKhmer } from '../../src/search/khmer.js';

const NCDD = 'ncdd-gazetteer-2024-10-14';
const LEVEL_OF_LENGTH: Record<number, Level> = { 2: 'province', 4: 'district', 6: 'commune', 8: 'village' };

const clean = (name: string) => CLEANING_RULES.reduce((s, rule) => rule.apply(s), name);

// ---------------------------------------------------------------------------------------------- reading

export interface PumiEventRow {
  level: 'district' | 'commune';
  date: string;
  commit: string;
  event: 'created' | 'retired' | 'recoded' | 'renamed_km';
  old_code: string;
  new_code: string;
  name_latin: string;
  name_km: string;
}

interface CommitCount {
  commit: string;
  date: string;
  count: number;
}

export interface NcddNoteRow {
  code: string;
  type_km: string;
  name_km: string;
  name_latin: string;
  reference: string;
  note: string;
}

export interface HistorySources {
  pumi: PumiEventRow[];
  counts: Record<'districts' | 'communes', CommitCount[]>;
  ncdd: NcddNoteRow[];
}

/** Invisible characters out, spaces collapsed: the export's notes are typed by hand. */
const tidy = (s: string) => s.replace(/[\u200B-\u200D\uFEFF]/g, ' ').replace(/\s+/g, ' ').trim();

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    const rich = (value as { richText?: { text: string }[] }).richText;
    if (rich) return rich.map((r) => r.text).join('');
    const text = (value as { text?: string }).text;
    return text ?? '';
  }
  return String(value);
}

export async function readHistorySources(dir = SOURCES_DIR): Promise<HistorySources> {
  const manifest = readManifest(dir);
  const csv = readVerified(manifest, 'pumi-history/pumi_code_lineage_districts_communes.csv', dir).toString('utf8');
  const pumi = parseCsvRecords(csv) as unknown as PumiEventRow[];
  const counts = JSON.parse(readVerified(manifest, 'pumi-history/pumi_data_commit_counts.json', dir).toString('utf8')) as HistorySources['counts'];
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(readVerified(manifest, `${NCDD}/2024.10.14.xlsx`, dir) as unknown as ArrayBuffer);
  const ncdd: NcddNoteRow[] = [];
  for (const sheet of workbook.worksheets) {
    sheet.eachRow((row) => {
      const values = row.values as unknown[];
      const digits = cellText(values[2]).trim();
      if (!/^\d+$/.test(digits)) return; // title and header rows
      const reference = tidy(cellText(values[5]));
      const note = tidy(cellText(values[6]));
      const useful = (s: string) => s !== '' && s !== 'NULL';
      if (!useful(reference) && !useful(note)) return;
      ncdd.push({
        // The export drops the leading zero of provinces 01-09.
        code: digits.padStart(digits.length + (digits.length % 2), '0'),
        type_km: cellText(values[1]).trim(),
        name_km: clean(cellText(values[3])),
        name_latin: clean(cellText(values[4])),
        reference: useful(reference) ? reference : '',
        note: useful(note) ? note : '',
      });
    });
  }
  ncdd.sort((a, b) => compareCodes(a.code, b.code));
  return { pumi, counts, ncdd };
}

// ---------------------------------------------------------------------------------------------- dates

const KHMER_DIGITS = '០១២៣៤៥៦៧៨៩';
const toAsciiDigits = (s: string) => s.replace(/[០-៩]/g, (d) => String(KHMER_DIGITS.indexOf(d)));
const KHMER_MONTHS = ['មករា', 'កុម្ភៈ', 'មីនា', 'មេសា', 'ឧសភា', 'មិថុនា', 'កក្កដា', 'សីហា', 'កញ្ញា', 'តុលា', 'វិច្ឆិកា', 'ធ្នូ'];
const LATIN_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1979 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * The first date written in a note: `25 Dec 2013`, `18-May-2011`, `ថ្ងៃទី ០៨ កក្កដា ២០១១`, `ចុះថ្ងៃទី09 ខែមករា ឆ្នាំ2009`,
 * `18/07/2016`. Bounded input (one cell), linear regexes.
 */
export function parseNoteDate(text: string): string | null {
  const s = toAsciiDigits(text.slice(0, 1000));
  const latin = /\b(\d{1,2})[ -]([A-Za-z]{3,9})[ ,-]*(\d{4})\b/.exec(s);
  if (latin) {
    const month = LATIN_MONTHS.indexOf(latin[2]!.slice(0, 3).toLowerCase()) + 1;
    const date = month > 0 ? isoDate(Number(latin[3]), month, Number(latin[1])) : null;
    if (date) return date;
  }
  const khmer = new RegExp(`(\\d{1,2}) ?(?:ខែ ?)?(${KHMER_MONTHS.join('|')}) ?(?:ឆ្នាំ ?)?(\\d{4})`).exec(s);
  if (khmer) {
    const date = isoDate(Number(khmer[3]), KHMER_MONTHS.indexOf(khmer[2]!) + 1, Number(khmer[1]));
    if (date) return date;
  }
  const numeric = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(s);
  if (numeric) return isoDate(Number(numeric[3]), Number(numeric[2]), Number(numeric[1]));
  return null;
}

// ---------------------------------------------------------------------------------------------- NCDD notes

const RENAMED_FROM = /កែ(?:ឈ្មោះ|សម្រួល(?:អក្ខរាវិរុទ្ធ)?) ?ពី ?(.+?) ?ទៅ(?:ជា)? ?(.+)$/;

/** What an NCDD note says happened; the order matters (a new unit "cut from" another is created, not moved). */
export function classifyNote(note: string, reference: string): EventKind {
  const text = `${note} ${reference}`;
  if (RENAMED_FROM.test(note) || /Update Name|Change from/i.test(text)) return 'renamed';
  if (/ថ្មី|បង្កើត|បំបែក|កាត់ចេញពី/.test(text)) return 'created';
  if (/Move to|កាត់ទៅ|កាត់យក|ផ្លាស់ប្តូរពី|ពីមុនស្ថិតនៅក្នុង|បញ្ចូលទៅក្នុង|ប្តូរមកក្នុង|កែសម្រួលទៅក្នុង/i.test(text)) return 'moved';
  if (/ប្តូរ|ប្ដូរ|ផ្តូរ|ពីមុនជា/.test(text)) return 'reclassified';
  return 'recorded';
}

/**
 * A reclassification that also names the unit's former name: ការប្តូរស្រុកសំពៅមាស ទៅជាក្រុងពោធិសាត់ (Srok Sampov Meas
 * became Krong Pursat), ប្តូរឈ្មោះខណ្ឌមិត្តភាព ទៅជាក្រុងព្រះសីហនុ. The former name is the first unit's (ស្រុល is a typing
 * slip for ស្រុក in one note); when it is today's name, the gazetteer's former names leave it out.
 */
const RECLASSIFIED_FROM = /(?:ប្តូរ|ប្ដូរ|ផ្តូរ)(?:ឈ្មោះ)? ?(?:ស្រុក|ស្រុល|ខណ្ឌ|ក្រុង|ឃុំ|សង្កាត់) ?([\u1780-\u17FF]+(?: [\u1780-\u17FF]+)?) ?ទៅ(?:ជា)? ?(?:ក្រុង|ស្រុក|ខណ្ឌ|ឃុំ|សង្កាត់)/;

/** The former name a reclassification note gives (see RECLASSIFIED_FROM), in Khmer. */
export function nameBeforeReclassified(note: string): UnitEvent['name_before'] {
  const match = RECLASSIFIED_FROM.exec(note);
  const name = match?.[1]!.trim();
  // Not a name: "នៃខេត្តប៉ៃលិន" (of Pailin province), after a unit word that stands for several units.
  if (name === undefined || name.startsWith('នៃ') || /ខេត្ត|រាជធានី|ស្រុក|ខណ្ឌ|ក្រុង|ឃុំ|សង្កាត់/.test(name)) return null;
  return { km: clean(name), latin: null };
}

/**
 * A former parent a move note names: ពីមុនស្ថិតនៅក្នុងស្រុកកំពង់រោទិ៍ (formerly in Srok Kampong Rou; one note writes
 * មុនស្ថិន), ផ្លាស់ប្តូរពីស្រុក កណ្ដាលស្ទឹង ខេត្តកណ្តាល (moved from Srok Kandal Stueng, Kandal), ផ្លាស់ប្តូរពីឃុំ ទៀន
 * ខេត្តកណ្តាល (a village moved from Khum Tien), ឃុំថ្មីបំបែកចេញពីឃុំស្វាយជ្រុំ (on the villages of a commune split from
 * Khum Svay Chrum), កាត់ចេញពីស្រុកព្រៃនប់ (a commune cut from Srok Prey Nob), សង្កាត់ថ្មីកាត់ភូមិពីសង្កាត់ប៉ោយប៉ែត (on the
 * villages of a new sangkat: villages cut from Sangkat Poipet), បង្កើតក្រុងថ្មីដោយកាត់យក៣ឃុំពីស្រុកទឹកឈូ (a new krong
 * made of three communes taken from Srok Tuek Chhu). The unit word gives the level (a former
 * parent is above the unit: a commune split from a commune is not one); the province, when the note names one.
 */
const STATED_FORMER_PARENT =
  /(?:មុនស្ថិ[តន]នៅក្នុង|ផ្លាស់ប្[តដ]ូរពី|(?:បំបែក|កាត់)ចេញពី|កាត់(?:យក)?[០-៩0-9]*(?:ភូមិ|ឃុំ|សង្កាត់)[០-៩0-9]*ពី) ?(ស្រុក|ខណ្ឌ|ក្រុង|ឃុំ|សង្កាត់) ?([\u1780-\u17FF]+)(?: ?(?:ខេត្ត|រាជធានី) ?([\u1780-\u17FF]+))?/;

export interface StatedParent {
  level: 'district' | 'commune';
  km: string;
  province: string | null;
}

/** The former parent a move note names (see STATED_FORMER_PARENT), by name: the build finds its code. */
export function formerParentStated(note: string): StatedParent | null {
  const match = STATED_FORMER_PARENT.exec(note);
  if (!match) return null;
  const level = match[1] === 'ឃុំ' || match[1] === 'សង្កាត់' ? 'commune' : 'district';
  return { level, km: clean(match[2]!), province: match[3] ? clean(match[3]) : null };
}

/**
 * The code of the unit a note names as a former parent: the one unit of that level and name in the province the note
 * names, else in the unit's own province, else in the country. Names compare as search compares them (ដ/ត subscripts,
 * register signs, spaces); null when no unit, or more than one, fits.
 */
function codeOfStated(stated: StatedParent, code: string, units: readonly Unit[]): string | null {
  const key = (name: string) => normaliseKhmer(name);
  const provinces = units.filter((u) => u.level === 'province' && stated.province !== null && key(u.name_km) === key(stated.province));
  const named = units.filter((u) => u.level === stated.level && key(u.name_km) === key(stated.km));
  const within = (prefix: string) => named.filter((u) => u.code.startsWith(prefix));
  for (const candidates of [provinces.length === 1 ? within(provinces[0]!.code) : [], within(code.slice(0, 2)), named]) {
    if (candidates.length === 1) return candidates[0]!.code;
    if (candidates.length > 1) return null;
  }
  return null;
}

/** A former name in a rename note, in Khmer or Latin script. */
function nameBefore(note: string): UnitEvent['name_before'] {
  const match = RENAMED_FROM.exec(note);
  if (!match) return null;
  const before = match[1]!.trim();
  if (/[\u1780-\u17FF]/.test(before)) return { km: clean(before), latin: null };
  if (/^[A-Za-z' -]+$/.test(before)) return { km: null, latin: clean(before) };
  return null;
}

/**
 * Former parents that the NCDD notes state in words no rule reads reliably, and the reforms before pumi's history
 * (2016). Matched against the Official Note; each entry's `why` is its evidence.
 */
/**
 * Former parents a note states in words, or (`reference` and `codes`) that the legal act a row cites says, where
 * that act's number is shared by another act and the codes tell them apart.
 */
export const CURATED_FORMER_PARENTS: readonly { id: string; note: RegExp; reference?: RegExp; codes?: RegExp; level?: Level; former: string[]; why: string }[] = [
  {
    id: 'tboung-khmum-2013',
    note: /Move to Tboung Khmum/,
    former: ['03'],
    why: 'Royal Decree NS/RKT/1213/1445 of 31 Dec 2013 created Tboung Khmum province (25) from the eastern districts ' +
      'of Kampong Cham (03); the NCDD export notes "Royal Degree 1445 on 31 Dec 2013 Move to Tboung Khmum".',
  },
  {
    id: 'chbar-ampov-2013',
    note: /Move to Chbar Ampov/,
    level: 'commune',
    former: ['1206'],
    why: 'Sub-decree 579 of 25 Dec 2013 made Khan Chbar Ampov (1212) from the sangkats of Khan Mean Chey (1206) east ' +
      'of the Bassac; the NCDD export notes "Sub Degree 579 on 25 Dec 2013 Move to Chbar Ampov".',
  },
  {
    id: 'chroy-changvar-2013',
    note: /Move to Chraoy Chongvar/,
    level: 'commune',
    former: ['1207'],
    why: 'Sub-decree 577 of 25 Dec 2013 made Khan Chroy Changvar (1210) from the sangkats of Khan Russey Keo (1207) on ' +
      'the Chroy Changvar peninsula; the NCDD export notes "Sub Degree 577 on 25 Dec 2013 Move to Chraoy Chongvar".',
  },
  {
    id: 'sen-sok-2010',
    note: /^$/,
    reference: /^អនុក្រឹត្យលេខ០៣ អនក្រ\.បក$/,
    codes: /^1208\d\d$/,
    level: 'commune',
    former: ['1207'],
    why: 'Sub-decree No. 03 ANKr.BK of 2010 made Khan Sen Sok (1208) from the sangkats Phnom Penh Thmei, Tuek Thla and ' +
      'Khmuonh of Khan Russey Keo (1207); the NCDD export cites it as the reference of Khan Sen Sok and of these three ' +
      'sangkats, with no note (its Boeng Keng Kang rows cite a sub-decree of the same number, of 2019).',
  },
  {
    id: 'kampong-leav-2011',
    note: /ពីមុនស្ថិតនៅក្នុងស្រុកកំពង់លាវ/,
    level: 'commune',
    former: ['1411'],
    why: 'The note reads "formerly in Srok Kampong Leav, Prey Veng"; Srok Kampong Leav is today\'s Pur Rieng (1411), ' +
      'whose own note reads "Sub-Degree 172 on 25 July 2011 - Change from Kampong Leav".',
  },
];

/** Renames that a note states in English. */
const CURATED_RENAMES: readonly { code: string; km: string | null; latin: string | null; why: string }[] = [
  { code: '1411', km: 'កំពង់លាវ', latin: 'Kampong Leav', why: 'NCDD note: "Sub-Degree 172 on 25 July 2011 - Change from Kampong Leav កំពង់លាវ".' },
  { code: '021103', km: 'ចក្រី', latin: 'Chak Krey', why: 'NCDD note: "Sub-Degree 153 on 08 July 2011 Update Name Chak Krey ចក្រី".' },
];

/** Retired codes whose successors no rule finds; each with its evidence or the reason it has none. */
export const CURATED_SUCCESSORS: readonly { code: string; successors: string[]; why: string }[] = [];

// ---------------------------------------------------------------------------------------------- building

const KM_TYPE_PREFIX = /^(?:ខណ្ឌ|ក្រុង|ស្រុក|ឃុំ|សង្កាត់|ខេត្ត|រាជធានី)/;
/** A Khmer name reduced for comparison: no unit type before it, no spaces. */
const kmKey = (name: string) => clean(name).replace(KM_TYPE_PREFIX, '').replace(/\s+/g, '');

function event(partial: Partial<UnitEvent> & Pick<UnitEvent, 'code' | 'event' | 'sources'>): UnitEvent {
  return {
    code: partial.code,
    level: LEVEL_OF_LENGTH[partial.code.length]!,
    event: partial.event,
    date: partial.date ?? null,
    recorded: partial.recorded ?? null,
    instrument: partial.instrument ?? null,
    predecessors: partial.predecessors ?? [],
    successors: partial.successors ?? [],
    former_parents: partial.former_parents ?? [],
    name_before: partial.name_before ?? null,
    sources: partial.sources,
  };
}

function pumiSource(row: PumiEventRow): EventSource {
  const codes = row.event === 'recoded' ? `${row.old_code} -> ${row.new_code}` : row.old_code || row.new_code;
  return { source: 'pumi-history', ref: row.commit, text: `${row.event} ${codes} ${clean(row.name_latin)} ${row.name_km}` };
}

export interface BuiltHistory {
  history: History;
  json: string;
}

/** Builds the events and the retired codes; throws listing every broken rule. */
export function buildHistory(units: readonly Unit[], sources: HistorySources, version: string): BuiltHistory {
  const current = new Map(units.map((u) => [u.code, u]));
  const events: UnitEvent[] = [];

  // 1. pumi's code events.
  interface Gone { code: string; name_km: string; name_latin: string; commit: string; date: string; successors: string[]; reason: string }
  const gone = new Map<string, Gone>();
  for (const row of sources.pumi) {
    const source = pumiSource(row);
    const base = { recorded: row.date, sources: [source] };
    if (row.event === 'created') {
      events.push(event({ ...base, code: row.new_code, event: 'created' }));
    } else if (row.event === 'retired') {
      events.push(event({ ...base, code: row.old_code, event: 'retired' }));
      gone.set(row.old_code, { code: row.old_code, name_km: clean(row.name_km), name_latin: clean(row.name_latin), commit: row.commit, date: row.date, successors: [], reason: '' });
    } else if (row.event === 'recoded') {
      const formerParent = parentCode(row.old_code);
      const moved = formerParent !== null && formerParent !== parentCode(row.new_code);
      events.push(event({
        ...base,
        code: row.new_code,
        event: 'recoded',
        predecessors: [row.old_code],
        former_parents: moved ? [formerParent] : [],
      }));
      gone.set(row.old_code, {
        code: row.old_code, name_km: clean(row.name_km), name_latin: clean(row.name_latin), commit: row.commit, date: row.date,
        successors: [row.new_code], reason: `recoded to ${row.new_code} (pumi ${row.commit})`,
      });
    } else if (row.event === 'renamed_km') {
      const [before, after] = row.name_km.split(' -> ');
      // pumi first added, then dropped, the unit type in front of some names: not a rename of the place.
      const sameName = kmKey(before ?? '') === kmKey(after ?? '');
      events.push(event({ ...base, code: row.old_code, event: 'renamed', name_before: sameName ? null : { km: clean(before ?? ''), latin: null } }));
    }
  }

  // 2. The NCDD export's legal acts and notes.
  for (const row of sources.ncdd) {
    const kind = classifyNote(row.note, row.reference);
    // Nearly every village row cites only the founding prakas (No. 493 of 2001): kept for districts and communes.
    if (kind === 'recorded' && row.code.length === 8) continue;
    const curated = CURATED_FORMER_PARENTS.filter((c) => c.note.test(row.note) && (!c.reference || c.reference.test(row.reference))
      && (!c.codes || c.codes.test(row.code)) && (!c.level || c.level === LEVEL_OF_LENGTH[row.code.length]));
    const explicit = /\b(\d{4}) Move to (\d{4})\b/.exec(row.note);
    const stated = formerParentStated(row.note);
    const statedCode = stated && LEVEL_OF_LENGTH[row.code.length] !== 'province' ? codeOfStated(stated, row.code, units) : null;
    const formerParents = [...new Set([
      ...curated.flatMap((c) => c.former),
      ...(explicit && explicit[1] !== parentCode(row.code) ? [explicit[1]!] : []),
      ...(statedCode !== null && statedCode.length < row.code.length ? [statedCode] : []),
    ])]
      .filter((code) => code !== parentCode(row.code) && !(parentCode(row.code) ?? '').startsWith(code));
    const text = row.note && row.note !== row.reference ? `Reference: ${row.reference}; Official Note: ${row.note}` : `Reference: ${row.reference || row.note}`;
    const sourcesOf: EventSource[] = [{ source: 'ncdd-gazetteer-2024-10-14', ref: `code ${row.code}`, text }];
    for (const c of curated) sourcesOf.push({ source: 'curated', ref: c.id, text: c.why });
    events.push(event({
      code: row.code,
      event: formerParents.length > 0 && kind === 'recorded' ? 'moved' : kind,
      date: parseNoteDate(`${row.reference} ${row.note}`),
      instrument: row.reference || null,
      former_parents: formerParents,
      name_before: kind === 'renamed' ? nameBefore(row.note) : kind === 'reclassified' ? nameBeforeReclassified(row.note) : null,
      sources: sourcesOf,
    }));
  }
  for (const rename of CURATED_RENAMES) {
    events.push(event({
      code: rename.code, event: 'renamed', name_before: { km: rename.km, latin: rename.latin },
      sources: [{ source: 'curated', ref: `rename ${rename.code}`, text: rename.why }],
    }));
  }

  // 3. Successors of the retired codes that pumi did not pair.
  const retiredCodes = [...gone.keys()].filter((code) => !current.has(code));
  const createdIn = (commit: string) => sources.pumi.filter((r) => r.commit === commit && (r.event === 'created' || r.event === 'recoded'));
  for (const code of retiredCodes) {
    const entry = gone.get(code)!;
    if (entry.successors.length > 0) continue;
    const curated = CURATED_SUCCESSORS.find((c) => c.code === code);
    if (curated) {
      entry.successors = curated.successors;
      entry.reason = `curated: ${curated.why}`;
      continue;
    }
    // a. A district whose communes all went to new codes in the same commit: their new districts.
    if (code.length === 4) {
      const moved = sources.pumi.filter((r) => r.commit === entry.commit && r.event === 'recoded' && r.old_code.startsWith(code));
      const parents = [...new Set(moved.map((r) => parentCode(r.new_code)!))].sort();
      if (moved.length > 0) {
        entry.successors = parents;
        entry.reason = `its ${moved.length} communes were recoded into ${parents.join(', ')} in pumi commit ${entry.commit}`;
        continue;
      }
    }
    // b. Split: units created in the same commit, under the same parent, named after it ("X" -> "X 1", "X 2").
    const split = createdIn(entry.commit)
      .filter((r) => parentCode(r.new_code) === parentCode(code) && r.new_code !== code && kmKey(r.name_km).startsWith(kmKey(entry.name_km)))
      .map((r) => r.new_code);
    if (split.length > 0) {
      entry.successors = split;
      entry.reason = `split into ${split.join(', ')}: created in the same pumi commit ${entry.commit}, same parent, named after it`;
      continue;
    }
    // c. The same Khmer name at the same level in the same province, exactly one unit.
    const namesakes = units.filter((u) => u.code.length === code.length && u.code.slice(0, 2) === code.slice(0, 2) && kmKey(u.name_km) === kmKey(entry.name_km));
    if (namesakes.length === 1) {
      entry.successors = [namesakes[0]!.code];
      entry.reason = `the only ${namesakes[0]!.level} of province ${code.slice(0, 2)} with its Khmer name ${entry.name_km}`;
    }
  }

  // Follow recode chains to today's codes.
  const resolve = (code: string, seen = new Set<string>()): string[] => {
    if (current.has(code)) return [code];
    if (seen.has(code)) return [];
    seen.add(code);
    return (gone.get(code)?.successors ?? []).flatMap((s) => resolve(s, seen));
  };
  const retired: RetiredCode[] = retiredCodes.sort(compareCodes).map((code) => {
    const entry = gone.get(code)!;
    return {
      code,
      level: LEVEL_OF_LENGTH[code.length]!,
      name_km: entry.name_km,
      name_latin: entry.name_latin,
      successors: [...new Set(resolve(code))].sort(compareCodes),
      reason: entry.reason,
      recorded: entry.date,
    };
  });

  // Every event of a retired code names its successors.
  const retiredByCode = new Map(retired.map((r) => [r.code, r]));
  for (const e of events) if (e.event === 'retired') e.successors = retiredByCode.get(e.code)?.successors ?? [];

  const kindOrder = (e: UnitEvent) => ['created', 'recoded', 'moved', 'renamed', 'reclassified', 'recorded', 'retired'].indexOf(e.event);
  events.sort((a, b) => compareCodes(a.code, b.code) || (a.recorded ?? a.date ?? '').localeCompare(b.recorded ?? b.date ?? '') || kindOrder(a) - kindOrder(b));

  const history: History = { version, events, retired };
  const problems = validateHistory(history, units, sources);
  if (problems.length > 0) {
    throw new Error(`the history breaks ${problems.length} rule(s):\n  ${problems.slice(0, 50).join('\n  ')}`);
  }
  return { history, json: serialiseHistory(history) };
}

function serialiseHistory(history: History): string {
  const lines = (items: unknown[]) => items.map((item) => `    ${JSON.stringify(item)}`).join(',\n');
  return `{\n  "version": ${JSON.stringify(history.version)},\n  "retired": [\n${lines(history.retired)}\n  ],\n` +
    `  "events": [\n${lines(history.events)}\n  ]\n}\n`;
}

// ---------------------------------------------------------------------------------------------- checks

/**
 * The rules of the history:
 * - every retired code has at least one successor that exists today, or a curated reason for having none;
 * - replaying pumi's events backwards from today's units gives pumi's own unit count at every commit, so no
 *   creation, retirement or recode is missing; and so every district and commune that did not exist in 2016 has an
 *   event;
 * - every code an event names exists today or is retired, and every former parent is a unit of a higher level.
 */
export function validateHistory(history: History, units: readonly Unit[], sources: HistorySources): string[] {
  const problems: string[] = [];
  const current = new Set(units.map((u) => u.code));
  const retired = new Set(history.retired.map((r) => r.code));
  const known = (code: string) => current.has(code) || retired.has(code);

  for (const r of history.retired) {
    if (current.has(r.code)) problems.push(`${r.code} is listed as retired but exists`);
    const real = r.successors.filter((s) => current.has(s));
    if (real.length === 0 && !r.reason.startsWith('curated:')) problems.push(`retired ${r.code} ${r.name_latin} has no successor and no reason`);
    if (real.length !== r.successors.length) problems.push(`retired ${r.code}: successor not a current unit`);
  }
  for (const e of history.events) {
    for (const code of [e.code, ...e.predecessors, ...e.successors]) if (!known(code)) problems.push(`event ${e.event} of ${e.code} names unknown code ${code}`);
    for (const p of e.former_parents) {
      if (!known(p) || p.length >= e.code.length) problems.push(`event ${e.event} of ${e.code}: former parent ${p} is not a unit above it`);
    }
    if (e.sources.length === 0) problems.push(`event ${e.event} of ${e.code} has no source`);
  }

  // Replay backwards from today, commit by commit, and compare with pumi's counts.
  for (const [kind, length] of [['districts', 4], ['communes', 6]] as const) {
    const commits = sources.counts[kind];
    const codes = new Set(units.filter((u) => u.code.length === length).map((u) => u.code));
    const rows = sources.pumi.filter((r) => (r.new_code || r.old_code).length === length);
    for (let i = commits.length - 1; i >= 0; i--) {
      const commit = commits[i]!;
      if (codes.size !== commit.count) {
        problems.push(`${kind}: replaying the events gives ${codes.size} units after pumi commit ${commit.commit} (${commit.date}); pumi had ${commit.count}`);
        break;
      }
      // Undo this commit's events to get the state before it.
      for (const r of rows.filter((row) => row.commit === commit.commit)) {
        if (r.event === 'created') codes.delete(r.new_code);
        if (r.event === 'recoded') {
          codes.delete(r.new_code);
          codes.add(r.old_code);
        }
        if (r.event === 'retired') codes.add(r.old_code);
      }
    }
    // Every code of today that was not there in 2016 must have an event explaining it.
    const first = new Set<string>();
    {
      const replay = new Set(units.filter((u) => u.code.length === length).map((u) => u.code));
      for (const r of [...rows].reverse()) {
        if (r.event === 'created') replay.delete(r.new_code);
        if (r.event === 'recoded') {
          replay.delete(r.new_code);
          replay.add(r.old_code);
        }
        if (r.event === 'retired') replay.add(r.old_code);
      }
      for (const code of replay) first.add(code);
    }
    const explained = new Set(history.events.filter((e) => e.event === 'created' || e.event === 'recoded').map((e) => e.code));
    for (const code of units.filter((u) => u.code.length === length).map((u) => u.code)) {
      if (!first.has(code) && !explained.has(code)) problems.push(`${code} did not exist in 2016 and has no created or recoded event`);
    }
  }
  return problems;
}
