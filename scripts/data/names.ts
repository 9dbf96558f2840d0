/**
 * Name repairs that need more than one name at a time (siblings, parents) or a Khmer cluster's structure, in five
 * defect classes. Each class has a detector (`DEFECT_CLASSES`): the build counts its hits before and after the
 * repairs (data/REPAIRS.md) and fails if any remain beyond the listed exceptions.
 *
 * Applied after the cleaning rules and the curated repairs of repairs.ts, in this order:
 *   1. Latin punctuation and diacritics: Latin names are plain ASCII;
 *   2. Latin capitalisation: every word capitalised, CamelCase split (a short table joins the words a split gets wrong);
 *   3. Latin numbering: number words (Muoy, Pir, Bei...) in a series of siblings that mixes styles, never Roman numerals;
 *   4. Khmer encoding: doubled marks, a subscript typed after its vowel, legacy ទ្ប for ឡ, ឬ for ឫ, the wrong final mark,
 *      stray ៎ and '.', and province 08 spelled as its districts;
 *   5. parent and child romanising one Khmer name differently: the child takes its parent's spelling, top down.
 * Every source spelling a repair replaces stays searchable (the search index takes the `before` of each repair as an
 * alias), and a changed slug keeps resolving (the unit records its former slugs).
 */
import type { Repair } from '../../src/gazetteer/types.js';
import type { RawUnit } from './sources.js';

type NameField = 'name_km' | 'name_latin';

// ------------------------------------------------------------------------------------------------ Latin

const LATIN_PUNCTUATION = /[;]/g;
const isAsciiName = (s: string) => /^[A-Za-z0-9 '()-]*$/.test(s);

/** A word a CamelCase split or a capitalisation rule gets wrong: the source's spelling -> the repaired one. */
export const LATIN_WORD_TABLE: Readonly<Record<string, string>> = {
  // One Khmer word typed with an inner capital: joined, not split.
  SaOm: 'Saom', // ស្អំ
  LaOk: 'Laok', // ល្អក់
  KoKaoh: 'Kokaoh', // កកោះ
  KroNhoung: 'Kronhoung', // គ្រញូង, as the commune 100506 spells it
  kaRuessey: 'Ruessey', // "Cham kaRuessey" ចំការឫស្សី: Chamkar + Ruessey
  TraCheakChet: 'Tracheak Chet', // ត្រជាក់ចិត្ត: two words
  Sngkat: '', // "Sngkat Sambuor": a misspelt unit word (Sangkat) in the name
  h: '', // "Koh h Teav kor": a stray letter
};

/** Whole names the rules cannot make right, with the evidence. */
export const LATIN_NAME_TABLE: Readonly<Record<string, { from: string; to: string; why: string }>> = {
  '02030208': { from: 'Cham kaRuessey', to: 'Chamkar Ruessey', why: 'ចំការឫស្សី: Chamkar (ចំការ) + Ruessey (ឫស្សី).' },
};

function latinAscii(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').replace(LATIN_PUNCTUATION, '').replace(/\s{2,}/g, ' ').trim();
}

function capitaliseWord(word: string): string {
  if (word === '') return word;
  // Roman numerals are the numbering rule's business.
  if (/^(I|II|III|IV)$/.test(word)) return word;
  return word[0]!.toUpperCase() + word.slice(1);
}

function latinCapitalisation(name: string): string {
  const words = name.split(' ').flatMap((word) => {
    if (word in LATIN_WORD_TABLE) return LATIN_WORD_TABLE[word]!.split(' ').filter(Boolean);
    // CamelCase: a lowercase letter then a capital inside a word starts a new word.
    return word.split(/(?<=[a-z])(?=[A-Z])/);
  });
  return words.map(capitaliseWord).join(' ').replace(/\s{2,}/g, ' ').trim();
}

/** Number words of the gazetteer's (GD) romanization, 1 to 10. */
export const NUMBER_WORDS = ['Muoy', 'Pir', 'Bei', 'Buon', 'Pram', 'Prammuoy', 'Prampir', 'Prambei', 'Prambuon', 'Dab'];
const ROMAN: Record<string, number> = { I: 1, II: 2, III: 3, IV: 4 };

type NumberStyle = 'digit' | 'word' | 'roman';
interface Numbered { base: string; ti: boolean; value: number; style: NumberStyle }

/** A Khmer name that ends with a number: a digit (Khmer or ASCII) or a number word, 1 to 5 (ទី៣, ២, មួយ). */
const KHMER_TRAILING_NUMBER = /(?:[\u17e0-\u17e90-9]|មួយ|ពីរ|បី|បួន|ប្រាំ)\s*$/u;

/**
 * "Ou Ruessei Ti Pir" -> base "Ou Ruessei", ti, 2, word. Undefined when the name does not end with a number 1-10.
 * `km`, the unit's Khmer name: a final I, II... is a Roman numeral only when it ends with a number too. ស្រែអ៊ី
 * (Srae I, 11050404) ends with the vowel ី, romanised I: read as a numeral, it became "Srae Muoy" (paddy one).
 */
export function numbered(name: string, km?: string): Numbered | undefined {
  const match = /^(.+?)( Ti)? (\S+)$/.exec(name);
  if (!match) return undefined;
  const [, base, ti, last] = match as unknown as [string, string, string | undefined, string];
  let value: number | undefined;
  let style: NumberStyle | undefined;
  if (/^\d{1,2}$/.test(last) && Number(last) >= 1 && Number(last) <= 10) [value, style] = [Number(last), 'digit'];
  else if (last in ROMAN && (km === undefined || KHMER_TRAILING_NUMBER.test(km))) [value, style] = [ROMAN[last]!, 'roman'];
  else if (NUMBER_WORDS.includes(last)) [value, style] = [NUMBER_WORDS.indexOf(last) + 1, 'word'];
  if (value === undefined || style === undefined) return undefined;
  return { base, ti: ti !== undefined, value, style };
}

const seriesKey = (parent: string | null, base: string) => `${parent}|${base.toLowerCase().replace(/[^a-z]/g, '')}`;

// ------------------------------------------------------------------------------------------------ Khmer

const isConsonant = (c: number) => c >= 0x1780 && c <= 0x17a2;
const isBase = (c: number) => c >= 0x1780 && c <= 0x17b3;
const isVowel = (c: number) => c >= 0x17b6 && c <= 0x17c5;
const isShifter = (c: number) => c === 0x17c9 || c === 0x17ca;
const isSign = (c: number) => (c >= 0x17c6 && c <= 0x17d1) || c === 0x17d3 || c === 0x17dd;
const COENG = 0x17d2;

/**
 * Puts each cluster's marks in the standard order: subscripts (coeng + consonant) right after the base, then the
 * register shifters, the vowels and the other signs. Fixes a subscript typed after its vowel (ពៅ្ន -> ព្នៅ, ញា្ច ->
 * ញ្ចា) or after a sign (រិ៍្ដ -> រ្ដិ៍, លំ្យុ -> ល្យុំ). A cluster with subscripts both before and after its vowel is
 * left as it is (which consonant belongs where is a guess).
 */
export function reorderKhmerClusters(name: string): string {
  let out = '';
  let i = 0;
  while (i < name.length) {
    const c = name.charCodeAt(i);
    if (!isBase(c)) {
      out += name[i];
      i++;
      continue;
    }
    const subscripts: string[] = [];
    const shifters: string[] = [];
    const vowels: string[] = [];
    const signs: string[] = [];
    let j = i + 1;
    let markSeen = false;
    let subscriptBeforeMark = false;
    let subscriptAfterMark = false;
    while (j < name.length) {
      const m = name.charCodeAt(j);
      if (m === COENG && j + 1 < name.length && isConsonant(name.charCodeAt(j + 1))) {
        subscripts.push(name.slice(j, j + 2));
        if (markSeen) subscriptAfterMark = true;
        else subscriptBeforeMark = true;
        j += 2;
      } else if (isShifter(m)) {
        shifters.push(name[j]!);
        markSeen = true;
        j++;
      } else if (isVowel(m)) {
        vowels.push(name[j]!);
        markSeen = true;
        j++;
      } else if (isSign(m)) {
        signs.push(name[j]!);
        markSeen = true;
        j++;
      } else break;
    }
    const cluster = name.slice(i, j);
    out += subscriptAfterMark && !subscriptBeforeMark ? name[i] + subscripts.join('') + shifters.join('') + vowels.join('') + signs.join('') : cluster;
    i = j;
  }
  return out;
}

/** Khmer encoding repairs, each a rule id and a function; applied in this order. */
export const KHMER_RULES: readonly { id: string; apply: (name: string) => string }[] = [
  // The same vowel or sign typed twice in a row (សួនអំំពៅកើត, ឆកពោធិ៍៍).
  { id: 'khmer-doubled-mark', apply: (s) => s.replace(/([\u17B6-\u17D1\u17D3\u17DD])\1+/g, '$1') },
  { id: 'khmer-subscript-order', apply: reorderKhmerClusters },
  // Legacy fonts had no ឡ and wrote it ទ្ប (ប្រទ្បាយ -> ប្រឡាយ).
  { id: 'khmer-legacy-lo', apply: (s) => s.replaceAll('ទ្ប', 'ឡ') },
  // ឬ ("or") typed for ឫ in ឫស្សី (bamboo) and ឫទ្ធិ (power).
  { id: 'khmer-ry', apply: (s) => s.replace(/ឬ(?=ស្សី|ទ្ធិ)/g, 'ឫ') },
  // Robat ៌ typed for the toandakhiat ៍ that silences a final letter: អភិវឌ្ឍន៍, បារាយណ៍ (ពណ៌, សួគ៌, ធម៌ keep their ៌).
  { id: 'khmer-final-mark', apply: (s) => s.replace(/អភិវឌ្ឍន៌/g, 'អភិវឌ្ឍន៍').replace(/បារាយណ៌/g, 'បារាយណ៍') },
  // A stray ៎ (U+17CE) and a '.' between two letters (អង្គរ.មាស); a '.' between digits (ភូមិ ៤.៨) is a village number.
  { id: 'khmer-stray-mark', apply: (s) => s.replace(/\u17CE/g, '').replace(/(?<=[\u1780-\u17D3])\.(?=[\u1780-\u17B3])/g, '') },
];

/** Curated Khmer repairs (`from` guards against a changed source). */
export const KHMER_CURATED: readonly { code: string; from: string; to: string; why: string }[] = [
  {
    code: '08',
    from: 'កណ្តាល',
    to: 'កណ្ដាល',
    why: 'The province is spelled with subscript ត, its districts Kandal Stueng (0801) and Khsach Kandal (0803) and ' +
      '199 of the 208 names with កណ្ដាល with subscript ដ, the standard spelling; the two look alike on screen.',
  },
];

// ------------------------------------------------------------------------------------------------ detectors

const kmKey = (s: string) => s.replace(/\s+/g, '').replace(/^(ខណ្ឌ|ក្រុង|ស្រុក|ឃុំ|សង្កាត់)/, '').replace(/\u17D2\u178A/g, '\u17D2\u178F');
const latinKey = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Khmer clusters the subscript rule leaves alone on purpose (see reorderKhmerClusters). */
export const KHMER_LEFT_AS_IS: readonly { code: string; why: string }[] = [
  { code: '21100403', why: 'ក្ដី្ករុន (Kdei Run): a subscript ក after the vowel of a cluster that already has one; which letter is meant is a guess.' },
];

/** What the detectors read of a unit. */
type Named = Pick<RawUnit, 'code' | 'name_km' | 'name_latin'>;
/** A unit, its parent and its siblings, as the detectors see them. */
interface Context { unit: Named; parent: Named | undefined; siblings: readonly Named[] }

/** The five defect classes: each says whether a unit has the defect. */
export const DEFECT_CLASSES: readonly { id: string; title: string; has: (c: Context) => boolean }[] = [
  {
    id: 'latin-capitalisation',
    title: 'Latin capitalisation (a word in lowercase, or CamelCase)',
    has: ({ unit }) => /(^|[\s(-])[a-z]/.test(unit.name_latin) || /[a-z][A-Z]/.test(unit.name_latin),
  },
  {
    id: 'latin-numbering',
    title: 'Latin numbering (Roman numerals, or digits and number words mixed in one series of siblings)',
    has: ({ unit, siblings }) => {
      const own = numbered(unit.name_latin, unit.name_km);
      if (!own) return false;
      if (own.style === 'roman') return true;
      const key = seriesKey(null, own.base);
      return siblings.some((s) => {
        const other = numbered(s.name_latin, s.name_km);
        return other !== undefined && seriesKey(null, other.base) === key && other.style !== own.style;
      });
    },
  },
  {
    id: 'latin-parent-child',
    title: 'Parent and child romanise the same Khmer name differently',
    has: ({ unit, parent }) => parent !== undefined && kmKey(parent.name_km) === kmKey(unit.name_km) && latinKey(parent.name_latin) !== latinKey(unit.name_latin),
  },
  {
    id: 'latin-punctuation',
    title: 'Latin punctuation and diacritics (Latin names are plain ASCII)',
    has: ({ unit }) => !isAsciiName(unit.name_latin) || /^Sngkat /.test(unit.name_latin),
  },
  {
    id: 'khmer-encoding',
    title: 'Khmer encoding (doubled marks, subscript order, ទ្ប, ឬ, final mark, stray ៎ and \'.\', province 08)',
    has: ({ unit }) => {
      const s = unit.name_km;
      if (KHMER_LEFT_AS_IS.some((k) => k.code === unit.code)) return false;
      return /([\u17B6-\u17D1\u17D3\u17DD])\1/.test(s) || reorderKhmerClusters(s) !== s || s.includes('ទ្ប') || /ឬ(?=ស្សី|ទ្ធិ)/.test(s) ||
        /អភិវឌ្ឍន៌|បារាយណ៌/.test(s) || /\u17CE/.test(s) || /(?<=[\u1780-\u17D3])\.(?=[\u1780-\u17B3])/.test(s) ||
        (unit.code === '08' && s !== 'កណ្ដាល');
    },
  },
];

/** How many units have each defect. */
export function countDefects(units: readonly Named[]): Record<string, number> {
  return Object.fromEntries(Object.entries(defectsOf(units)).map(([id, codes]) => [id, codes.length]));
}

/** The codes of the units that have each defect. */
export function defectsOf(units: readonly Named[]): Record<string, string[]> {
  const byCode = new Map(units.map((u) => [u.code, u]));
  const children = new Map<string | null, Named[]>();
  for (const u of units) {
    const parent = u.code.length > 2 ? u.code.slice(0, -2) : null;
    (children.get(parent) ?? children.set(parent, []).get(parent)!).push(u);
  }
  const found: Record<string, string[]> = {};
  for (const d of DEFECT_CLASSES) found[d.id] = [];
  for (const unit of units) {
    const parentCode = unit.code.length > 2 ? unit.code.slice(0, -2) : null;
    const context = { unit, parent: parentCode ? byCode.get(parentCode) : undefined, siblings: children.get(parentCode) ?? [] };
    for (const d of DEFECT_CLASSES) if (d.has(context)) found[d.id]!.push(unit.code);
  }
  return found;
}

// ------------------------------------------------------------------------------------------------ applying

/**
 * Applies the five classes of repairs to the units (in place: the caller passes copies) and returns the log.
 * Fails if a curated entry no longer matches its source.
 */
export function repairNames(units: RawUnit[]): Repair[] {
  const repairs: Repair[] = [];
  const byCode = new Map(units.map((u) => [u.code, u]));
  const set = (unit: RawUnit, field: NameField, after: string, rule: string) => {
    const before = unit[field];
    if (after === before) return;
    repairs.push({ code: unit.code, field, before, after, rule });
    unit[field] = after;
  };

  // 1. Punctuation and diacritics.
  for (const unit of units) set(unit, 'name_latin', latinAscii(unit.name_latin), 'latin-ascii');

  // 2. Capitalisation (whole-name table first).
  for (const [code, entry] of Object.entries(LATIN_NAME_TABLE)) {
    const unit = byCode.get(code);
    if (!unit) continue; // a partial build (tests); the full build's checks catch an entry that no longer applies
    if (unit.name_latin !== entry.from) throw new Error(`names: ${code} expected ${JSON.stringify(entry.from)}: review LATIN_NAME_TABLE`);
    set(unit, 'name_latin', entry.to, `latin-capitalisation (curated): ${entry.why}`);
  }
  for (const unit of units) set(unit, 'name_latin', latinCapitalisation(unit.name_latin), 'latin-capitalisation');

  // 3. Numbering: Roman numerals, and series of siblings that mix styles, to number words.
  const series = new Map<string, { unit: RawUnit; n: Numbered }[]>();
  for (const unit of units) {
    const n = numbered(unit.name_latin, unit.name_km);
    if (!n) continue;
    const key = seriesKey(unit.code.slice(0, -2), n.base);
    (series.get(key) ?? series.set(key, []).get(key)!).push({ unit, n });
  }
  for (const members of series.values()) {
    const mixed = new Set(members.map((m) => m.n.style)).size > 1;
    const ti = members.some((m) => m.n.ti);
    for (const { unit, n } of members) {
      if (n.style === 'word' || (!mixed && n.style === 'digit')) continue;
      set(unit, 'name_latin', `${n.base}${ti ? ' Ti' : ''} ${NUMBER_WORDS[n.value - 1]}`, 'latin-numbering');
    }
  }

  // 4. Khmer encoding (before the parent rule: a repaired Khmer name may now equal its parent's).
  for (const unit of units) {
    if (KHMER_LEFT_AS_IS.some((k) => k.code === unit.code)) continue;
    for (const rule of KHMER_RULES) set(unit, 'name_km', rule.apply(unit.name_km), rule.id);
  }
  for (const entry of KHMER_CURATED) {
    const unit = byCode.get(entry.code);
    if (!unit) continue;
    if (unit.name_km !== entry.from) throw new Error(`names: ${entry.code} expected ${JSON.stringify(entry.from)}: review KHMER_CURATED`);
    set(unit, 'name_km', entry.to, `khmer-kandal (curated): ${entry.why}`);
  }
  // 5. Parent and child: top down (units are ordered by level), the child takes its parent's spelling.
  for (const unit of [...units].sort((a, b) => a.code.length - b.code.length || (a.code < b.code ? -1 : 1))) {
    const parent = unit.code.length > 2 ? byCode.get(unit.code.slice(0, -2)) : undefined;
    if (parent && kmKey(parent.name_km) === kmKey(unit.name_km) && latinKey(parent.name_latin) !== latinKey(unit.name_latin)) {
      set(unit, 'name_latin', parent.name_latin, `latin-parent-child: the same Khmer name as its parent ${parent.code}, spelled as the parent`);
    }
  }

  return repairs;
}
