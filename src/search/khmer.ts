/** Khmer-script normalisation for matching. */
import { asciiDigits } from './latin.js';

const ZERO_WIDTH = /[\u200B-\u200D\uFEFF]/g;
const COENG_DA = /\u17D2\u178A/g; // ្ដ, written interchangeably with ្ត
/** Spaces and punctuation carry no meaning in a Khmer name: ទី ១ = ទី១, ទី៦ «ក» = ទី៦ក. */
const NOT_MEANINGFUL = /[\s"'«»‹›()[\]\-.,/;:`]/g;
const KHMER_UNIT_WORDS = ['រាជធានី', 'ខេត្ត', 'ស្រុក', 'ខណ្ឌ', 'ក្រុង', 'ឃុំ', 'សង្កាត់', 'ភូមិ'];
/** ទី (ordinal) or លេខ (number) before a number: ភូមិទី១ = ភូមិលេខ១ = ភូមិ ១. */
const ORDINAL_BEFORE_DIGIT = /(?:ទី|លេខ)(?=\d)/g;
/**
 * The register signs ៉ (musĕkâtoăn) and ៊ (treisâpt): written or left out as people hear a name (ច្បារម៉ន for ច្បារមន);
 * no two units of one parent differ by them alone (checked in the tests).
 */
const REGISTER_SIGNS = /[\u17C9\u17CA]/g;

export const KHMER_LETTER = /[\u1780-\u17FF]/;

export function hasKhmer(text: string): boolean {
  return KHMER_LETTER.test(text);
}

/**
 * One spelling per Khmer name: NFC, no zero-width characters, ASCII digits, coeng-ta for coeng-da, no spaces, no
 * register signs, no ទី or លេខ before a number.
 */
export function normaliseKhmer(text: string): string {
  return asciiDigits(text.normalize('NFC').replace(ZERO_WIDTH, ''))
    .replace(COENG_DA, '\u17D2\u178F')
    .replace(NOT_MEANINGFUL, '')
    .replace(REGISTER_SIGNS, '')
    .replace(ORDINAL_BEFORE_DIGIT, '');
}

/** The normalised text without a leading unit word (ខេត្ត, ស្រុក, ភូមិ...), when a name is left. */
export function stripKhmerUnitWord(normalised: string): string {
  const unit = KHMER_UNIT_WORDS.find((w) => normalised.startsWith(w) && normalised.length > w.length);
  return unit ? normalised.slice(unit.length) : normalised;
}

/**
 * Offsets where a substring may start: at a base letter, independent vowel or digit, never inside a cluster
 * (not at a dependent vowel or sign, nor at a consonant written below another after the coeng ្).
 */
export function clusterStarts(normalised: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < normalised.length; i++) {
    const code = normalised.charCodeAt(i);
    const dependent = (code >= 0x17b6 && code <= 0x17d3) || code === 0x17dd;
    if (!dependent && normalised.charCodeAt(i - 1) !== 0x17d2) starts.push(i);
  }
  return starts;
}

/** Khmer number words, longest first (ប្រាំមួយ before មួយ), and their digits. */
const KHMER_NUMBER_WORDS: readonly [string, string][] = [['ប្រាំមួយ', '6'], ['ប្រាំពីរ', '7'], ['ប្រាំបី', '8'], ['ប្រាំបួន', '9'],
  ['មួយ', '1'], ['ពីរ', '2'], ['បួន', '4'], ['ប្រាំ', '5'], ['បី', '3']];

/**
 * A normalised name with the number word it ends with as a digit (ម្លូព្រៃមួយ: ម្លូព្រៃ1, as people write ម្លូព្រៃ១), or
 * null. A name that only ends like one (ក្របី, buffalo) gets a form nobody types: harmless.
 */
export function numberWordAsDigit(text: string): string | null {
  for (const [word, digit] of KHMER_NUMBER_WORDS) {
    if (text.length > word.length && text.endsWith(word) && text.charCodeAt(text.length - word.length - 1) !== 0x17d2) {
      return text.slice(0, -word.length) + digit;
    }
  }
  return null;
}
