/** Khmer-script normalisation for matching. */
import { asciiDigits } from './latin.js';

const ZERO_WIDTH = /[\u200B-\u200D\uFEFF]/g;
const COENG_DA = /\u17D2\u178A/g; // ្ដ, written interchangeably with ្ត
/** Spaces and punctuation carry no meaning in a Khmer name: ទី ១ = ទី១, ទី៦ «ក» = ទី៦ក. */
const NOT_MEANINGFUL = /[\s"'«»‹›()[\]\-.,/;:`_~]/g;
const KHMER_UNIT_WORDS = ['រាជធានី', 'ខេត្ត', 'ស្រុក', 'ខណ្ឌ', 'ក្រុង', 'ឃុំ', 'សង្កាត់', 'ភូមិ'];
/** ទី (ordinal) or លេខ (number) before a number: ភូមិទី១ = ភូមិលេខ១ = ភូមិ ១. */
const ORDINAL_BEFORE_DIGIT = /(?:ទី|លេខ)(?=\d)/g;
/**
 * Signs written or left out as people hear a name: the register signs ៉ (musĕkâtoăn) and ៊ (treisâpt) (ច្បារម៉ន for
 * ច្បារមន), and ៍ (toăndâkhéat), which marks a letter not pronounced (តាណរ៍ for តាណរ, កំពង់រោទិ for កំពង់រោទិ៍); no two
 * units of one parent differ by them alone (checked in the tests).
 */
const OPTIONAL_SIGNS = /[\u17C9\u17CA\u17CD]/g;
/**
 * ខាង ("side") before a direction: written or left out (ចុងកោះខាងកើត for ចុងកោះកើត, 223 names have it); no two
 * units of one parent differ by it alone (checked in the tests).
 */
const SIDE_BEFORE_DIRECTION = /ខាង(?=កើត|លិច|ជើង|ត្បូង)/g;

/**
 * Independent vowels and the អ with a dependent vowel that is typed for them (ឯម and អែម, ឧត្តម and អុត្តម): one
 * spelling, the two letters.
 */
export const INDEPENDENT_VOWELS: ReadonlyMap<string, string> = new Map([
  ['ឥ', 'អិ'], ['ឦ', 'អី'], ['ឧ', 'អុ'], ['ឩ', 'អូ'], ['ឯ', 'អែ'], ['ឰ', 'អៃ'], ['ឱ', 'អោ'], ['ឳ', 'អៅ'],
]);
const INDEPENDENT_VOWEL = /[ឥឦឧឩឯឰឱឳ]/g;

/**
 * ឬ ("or") typed for the letter ឫ in ឫស្សី (bamboo) and ឫទ្ធិ (power), as the data build repairs in names
 * (scripts/data/names.ts, khmer-ry): read as ឫ.
 */
const RY_TYPED_FOR_RY = /ឬ(?=ស្សី|ទ្ធិ)/g;

/**
 * Coeng ro (្រ) typed before another subscript of its cluster: Unicode's order puts it last (ស្ត្រី, typed ស្រ្តី; the
 * NCDD's ចន្រ្ទា for ចន្ទ្រា; five names of the gazetteer are written so). One order for matching.
 */
const COENG_RO_FIRST = /\u17D2\u179A(\u17D2[\u1780-\u17A2])/g;

/**
 * A subscript typed after the vowel of its cluster (សា្វយ for ស្វាយ: most fonts draw both alike; the data build repairs
 * names so, khmer-subscript-order): the subscript first, where one vowel sign sits between it and its consonant.
 */
const SUBSCRIPT_AFTER_VOWEL = /([\u1780-\u17A2])([\u17B6-\u17C5])(\u17D2[\u1780-\u17A2])/g;

/**
 * ម with a labial under it, for the nikahit ំ before that labial: one sound, written either way (សម្បូរ and សំបូរ,
 * កម្ពង់ and កំពង់). One spelling for matching: the nikahit.
 */
const MO_BEFORE_LABIAL = /\u1798\u17D2(?=[\u1794-\u1797])/g;

/** Zeros that lead a number: សង្កាត់លេខ០១ = សង្កាត់លេខ១. */
const LEADING_ZEROS = /(?<![0-9])0+(?=[0-9])/g;

export const KHMER_LETTER = /[\u1780-\u17FF]/;

export function hasKhmer(text: string): boolean {
  return KHMER_LETTER.test(text);
}

/**
 * One spelling per Khmer name: NFC, no zero-width characters, ASCII digits, ឫ for ឬ in ឫស្សី and ឫទ្ធិ, a subscript before its vowel, coeng-ta for coeng-da, coeng ro last, ំ for
 * ម្ before a labial, independent vowels
 * as អ and a vowel, no spaces, no register signs or ៍, no ខាង before a direction, no ទី or លេខ before a number, no
 * zeros leading a number.
 */
export function normaliseKhmer(text: string): string {
  return asciiDigits(text.normalize('NFC').replace(ZERO_WIDTH, ''))
    .replace(RY_TYPED_FOR_RY, 'ឫ')
    .replace(COENG_DA, '\u17D2\u178F')
    .replace(SUBSCRIPT_AFTER_VOWEL, '$1$3$2')
    .replace(COENG_RO_FIRST, '$1\u17D2\u179A')
    .replace(MO_BEFORE_LABIAL, '\u17C6')
    .replace(INDEPENDENT_VOWEL, (v) => INDEPENDENT_VOWELS.get(v)!)
    .replace(NOT_MEANINGFUL, '')
    .replace(OPTIONAL_SIGNS, '')
    .replace(SIDE_BEFORE_DIRECTION, '')
    .replace(ORDINAL_BEFORE_DIGIT, '')
    .replace(LEADING_ZEROS, '');
}

/** The normalised text without a leading unit word (ខេត្ត, ស្រុក, ភូមិ...), when a name is left. */
export function stripKhmerUnitWord(normalised: string): string {
  const unit = KHMER_UNIT_WORDS.find((w) => normalised.startsWith(w) && normalised.length > w.length);
  return unit ? normalised.slice(unit.length) : normalised;
}

/** Whether a Khmer cluster may start at `i`: not a dependent vowel or sign, not a subscript (after the coeng ្). */
function startsCluster(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return !((code >= 0x17b6 && code <= 0x17d3) || code === 0x17dd) && text.charCodeAt(i - 1) !== 0x17d2;
}

/**
 * Offsets where a substring may start: at a base letter, independent vowel or digit, never inside a cluster
 * (not at a dependent vowel or sign, nor at a consonant written below another after the coeng ្).
 */
export function clusterStarts(normalised: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < normalised.length; i++) if (startsCluster(normalised, i)) starts.push(i);
  return starts;
}

const NUMBER_MARK_AT_END = /(?:ទី|លេខ)$/;

/** Khmer number words, longest first (ប្រាំមួយ before មួយ), and their digits. */
const KHMER_NUMBER_WORDS: readonly [string, string][] = [['ប្រាំមួយ', '6'], ['ប្រាំពីរ', '7'], ['ប្រាំបី', '8'], ['ប្រាំបួន', '9'],
  ['មួយ', '1'], ['ពីរ', '2'], ['បួន', '4'], ['ប្រាំ', '5'], ['បី', '3']];

/**
 * A normalised name with the number word it ends with as a digit (ម្លូព្រៃមួយ: ម្លូព្រៃ1, as people write ម្លូព្រៃ១), or
 * else the one it starts with (ពីរធ្នូ: 2ធ្នូ, written ២ធ្នូ; 17 names start with one), or null. A name that only ends
 * or starts like one (ក្របី, buffalo; ពីរី, where ី is not a cluster's start and the form is not made) gets a form
 * nobody types: harmless.
 */
export function numberWordAsDigit(text: string): string | null {
  for (const [word, digit] of KHMER_NUMBER_WORDS) {
    if (text.length > word.length && text.endsWith(word) && startsCluster(text, text.length - word.length)) {
      // As normaliseKhmer reads a digit: without ទី or លេខ before it (សាលាលេខប្រាំ: សាលា5, as សាលាលេខ៥ is read).
      return text.slice(0, -word.length).replace(NUMBER_MARK_AT_END, '') + digit;
    }
  }
  for (const [word, digit] of KHMER_NUMBER_WORDS) {
    if (text.length > word.length && text.startsWith(word) && startsCluster(text, word.length)) return digit + text.slice(word.length);
  }
  return null;
}

/** Consonants by sound (the two series of one sound, aspirated or not), the nasal sign ំ as m, vowels as a or r/l. */
const SKELETON_LETTERS: Readonly<Record<string, string>> = Object.freeze(Object.assign(Object.create(null) as Record<string, string>, {
  'ក': 'k', 'គ': 'k', 'ខ': 'k', 'ឃ': 'k', 'ច': 'c', 'ជ': 'c', 'ឆ': 'c', 'ឈ': 'c',
  'ដ': 't', 'ឌ': 't', 'ត': 't', 'ទ': 't', 'ថ': 't', 'ធ': 't', 'ឋ': 't', 'ឍ': 't',
  'ប': 'p', 'ព': 'p', 'ផ': 'p', 'ភ': 'p', 'ណ': 'n', 'ន': 'n', 'ល': 'l', 'ឡ': 'l',
  'ង': 'g', 'ញ': 'j', 'ម': 'm', 'ំ': 'm', 'យ': 'y', 'រ': 'r', 'វ': 'v', 'ស': 's', 'ឝ': 's', 'ឞ': 's', 'ហ': 'h', 'អ': 'a',
  'ឥ': 'a', 'ឦ': 'a', 'ឧ': 'a', 'ឩ': 'a', 'ឪ': 'a', 'ឯ': 'a', 'ឰ': 'a', 'ឱ': 'a', 'ឲ': 'a', 'ឳ': 'a', 'ឫ': 'r', 'ឬ': 'r', 'ឭ': 'l', 'ឮ': 'l',
}));

/**
 * The consonants of a Khmer name by sound, vowel signs and diacritics left out, a letter written twice in a row (a
 * subscript of the same sound, ត្ត, ទ្ធ) once, digits kept (as ASCII digits): what names spelt by ear share (សំរិត and សំរិទ្ធិ: smrt).
 * Coarse: many names share one, so it only compares a piece with a unit's few children (see AddressResolver).
 */
export function khmerSkeleton(text: string): string {
  let out = '';
  let last = '';
  for (const ch of text) {
    const c = SKELETON_LETTERS[ch] ?? (ch >= '0' && ch <= '9' ? ch : ch >= '០' && ch <= '៩' ? String(ch.charCodeAt(0) - 0x17e0) : '');
    if (c === '') continue;
    if (c !== last) out += c;
    last = c;
  }
  return out;
}
