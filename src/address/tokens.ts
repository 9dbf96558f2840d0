/**
 * Splits an address (after its non-gazetteer parts are taken out) into what the unit matcher reads:
 * - Khmer runs, normalised as the search index normalises names (see search/khmer.ts), each character mapped back
 *   to its offset in the text, with the unit words (ភូមិ, ឃុំ, ... and abbreviations ភ. ឃ. ...) located;
 * - Latin words (folded as the index folds them), unit words (Phum, Khum, Sangkat, Sk., Srok, Khan, Krong...) marked.
 * Separators (commas, newlines, semicolons) and the parts' spans end runs and segments.
 */
import type { Level } from '../gazetteer/types.js';
import { INDEPENDENT_VOWELS } from '../search/khmer.js';
import { foldWords } from '../search/latin.js';
import { editDistance } from '../search/typo.js';
import type { Span } from './parts.js';

/**
 * Khmer unit words, longest first, with the level they announce; then common misspellings of ខណ្ឌ (ខ័ណ្ឌ, ខណ្ណ, ខណ្ខ:
 * the subscript mistyped), សង្កាត់ without its sign, ឃុំ with its two signs typed the other way round (ឃំុ) and the old
 * spelling ខែត្រ of ខេត្ត, and ភូមិ with its vowels short or long the wrong way (ភុមិ, ភូមី, ភុមី): none is in a unit's name.
 */
export const KHMER_UNIT_WORDS: readonly (readonly [string, Level])[] = [
  ['រាជធានី', 'province'], ['ខេត្ត', 'province'], ['ស្រុក', 'district'], ['ខណ្ឌ', 'district'], ['ក្រុង', 'district'],
  ['សង្កាត់', 'commune'], ['ឃុំ', 'commune'], ['ភូមិ', 'village'],
  ['ខ័ណ្ឌ', 'district'], ['ខណ្ណ', 'district'], ['ខណ្ខ', 'district'], ['សង្កាត', 'commune'], ['ឃំុ', 'commune'], ['ខែត្រ', 'province'],
  ['ភុមិ', 'village'], ['ភូមី', 'village'], ['ភុមី', 'village'],
];
/** The first characters of the Khmer unit words. */
const UNIT_WORD_STARTS = new Set(KHMER_UNIT_WORDS.map(([word]) => word.charCodeAt(0)));
/** Abbreviations, written with a full stop: ភ. ឃ. ស. ស្រ. ខ. ក. (normalised: the stop removed). */
const KHMER_ABBREVIATIONS: Record<string, Level> = {
  'ភ': 'village', 'ឃ': 'commune', 'ស': 'commune', 'ស្រ': 'district', 'ខ': 'district', 'ក': 'district',
};

/** The unit type (as the gazetteer writes it in Khmer) a Khmer unit word of a district or commune says, if it says one. */
export function khmerUnitType(word: string): string | undefined {
  return KHMER_TYPES.get(word);
}
const KHMER_TYPES = new Map<string, string>(Object.entries({
  'ស្រុក': 'ស្រុក', 'ស្រ': 'ស្រុក', 'ខណ្ឌ': 'ខណ្ឌ', 'ខ័ណ្ឌ': 'ខណ្ឌ', 'ខណ្ណ': 'ខណ្ឌ', 'ខណ្ខ': 'ខណ្ឌ', 'ខ': 'ខណ្ឌ', 'ក្រុង': 'ក្រុង', 'ក': 'ក្រុង',
  'សង្កាត់': 'សង្កាត់', 'សង្កាត': 'សង្កាត់', 'ឃុំ': 'ឃុំ', 'ឃំុ': 'ឃុំ', 'ឃ': 'ឃុំ',
}));

/** The same for a Latin unit word (folded): Krong, Srok, Khan, Sangkat, Khum and their spellings. */
export function latinUnitType(word: string): string | undefined {
  return LATIN_TYPES.get(word);
}
const LATIN_TYPES = new Map<string, string>(Object.entries({
  krong: 'ក្រុង', kr: 'ក្រុង', city: 'ក្រុង', municipality: 'ក្រុង', town: 'ក្រុង', srok: 'ស្រុក', khan: 'ខណ្ឌ', kh: 'ខណ្ឌ',
  sangkat: 'សង្កាត់', sangkath: 'សង្កាត់', sankat: 'សង្កាត់', songkat: 'សង្កាត់', sngkat: 'សង្កាត់', sk: 'សង្កាត់', quarter: 'សង្កាត់',
  sangkats: 'សង្កាត់', khum: 'ឃុំ', khom: 'ឃុំ', khoum: 'ឃុំ',
}));

/** Latin unit words (folded), with the level they announce and whether they come before the name. */
export const LATIN_UNIT_WORDS: Record<string, Level> = {
  phum: 'village', phoum: 'village', phoom: 'village', ph: 'village', village: 'village', vil: 'village',
  khum: 'commune', khom: 'commune', khoum: 'commune', commune: 'commune', sangkat: 'commune', sangkath: 'commune', sankat: 'commune', songkat: 'commune', sngkat: 'commune', sk: 'commune', quarter: 'commune',
  srok: 'district', district: 'district', dist: 'district', khan: 'district', kh: 'district', krong: 'district', kr: 'district',
  city: 'district', municipality: 'district', town: 'district',
  khet: 'province', khaet: 'province', khett: 'province', province: 'province', prov: 'province', capital: 'province',
  // German, as NGO pages write addresses (Dorf Sontei, Russey Lok Gemeinde, Chikreng Distrikt, Siem Reap Provinz).
  dorf: 'village', gemeinde: 'commune', distrikt: 'district', bezirk: 'district', provinz: 'province',
  // Possessives ("Bit Traing commune's Koki village": the apostrophe folds away) and plurals.
  villages: 'village', communes: 'commune', sangkats: 'commune', districts: 'district', provinces: 'province',
};
/**
 * English unit words that a word one edit off (a letter left out, added, changed or two swapped) is taken for: Vilage,
 * Comune, Distric, Provice. No word of the gazetteer's Latin names is within two edits of one (a test keeps it so);
 * Sangkat is not among them (Sangkae, a district, is one edit off).
 */
export const TYPO_UNIT_WORDS: readonly (readonly [string, Level])[] = [
  ['village', 'village'], ['villages', 'village'], ['commune', 'commune'], ['communes', 'commune'],
  ['district', 'district'], ['districts', 'district'], ['province', 'province'], ['provinces', 'province'],
];

/** English words one edit off a unit word that are words of their own: "villagers in Kraom village" names no villages. */
const NOT_UNIT_WORD_TYPOS = new Set(['villager', 'villagers']);

/** The English unit word (TYPO_UNIT_WORDS) a word is one edit off, or undefined. */
export function unitWordTypo(word: string): readonly [string, Level] | undefined {
  if (word.length < 6 || word.length > 10 || NOT_UNIT_WORD_TYPOS.has(word)) return undefined;
  for (const entry of TYPO_UNIT_WORDS) {
    const unitWord = entry[0];
    // A first or second letter in common, and a length one off at most, before the distance is worked out.
    if (Math.abs(word.length - unitWord.length) > 1 || (word[0] !== unitWord[0] && word[1] !== unitWord[1])) continue;
    if (editDistance(word, unitWord, 1) <= 1) return entry;
  }
  return undefined;
}

/** The directions Latin names write after Khang ("side"), as the gazetteer and people spell them. */
const DIRECTIONS_LATIN = new Set(['cheung', 'choeung', 'chheung', 'cheoung', 'cheong', 'tboung', 'tbong', 'tbaung', 'tbpoung', 'lech', 'lich',
  'kaeut', 'kert', 'keut', 'kaet']);

/** Kilometre spelt out (folded), read as Kilo before a number. */
const KILOMETRE = new Set(['kilometre', 'kilometer', 'kilometres', 'kilometers', 'km']);

/**
 * Words read as nothing: articles and connectors people put between the parts (no unit's Latin name has a word of them
 * but "in" and "at": Preaek Ta In, Svay At; a test keeps it so).
 */
export const LATIN_FILLER = new Set(['of', 'the', 'and', 'in', 'at', 'near', 'opposite', 'behind', 'beside', 'next', 'to', 'address', 'addr',
  'located', 'situated', 'is', 'from', 'corner']);

export interface KhmerRun {
  kind: 'khmer';
  /** Normalised text (NFC, ASCII digits, coeng-ta, no spaces or punctuation, ទី before a digit dropped). */
  text: string;
  /** Offset in the working text of each character of `text`, plus one past the last. */
  offsets: number[];
  /** Offset just past each character of `text` in the working text (a vowel typed as two signs ends at the second). */
  ends: number[];
  /** Unit words in `text`: [start, end) and level. */
  unitWords: { start: number; end: number; level: Level }[];
  segment: number;
}

export interface LatinWord {
  /** Folded word. */
  word: string;
  start: number;
  end: number;
  unit: Level | null;
  filler: boolean;
  segment: number;
}

export interface Tokens {
  khmer: KhmerRun[];
  latin: LatinWord[];
}

const isConsonantCode = (c: number) => c >= 0x1780 && c <= 0x17a2;
/** Dependent vowel signs (ា to ៅ). */
const isVowelSign = (c: number) => c >= 0x17b6 && c <= 0x17c5;
const isKhmer = (c: number) => (c >= 0x1780 && c <= 0x17ff) || (c >= 0x19e0 && c <= 0x19ff);
const isZeroWidth = (c: number) => (c >= 0x200b && c <= 0x200d) || c === 0xfeff;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isSeparator = (ch: string) => ch === ',' || ch === ';' || ch === '\n' || ch === '\r' || ch === '|' || ch === '，' || ch === '។';
const isAsciiAlnum = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || isDigit(c);
/** Whether the character at `j` continues a Latin word: a letter, digit, mark or apostrophe, not Khmer. */
function isWordChar(text: string, j: number): boolean {
  const c = text.charCodeAt(j);
  if (c < 0x80) return isAsciiAlnum(c) || c === 0x27;
  return !isKhmer(c) && /[\p{L}\p{N}\p{M}’]/u.test(text[j]!);
}
/** Inside a Khmer name these mean nothing (as in search/khmer.ts). */
const KHMER_SKIP = new Set([' ', '\t', '"', '\'', '«', '»', '‹', '›', '(', ')', '[', ']', '-', '.', '/', ':', '`', '\u00a0', '_', '~']);

/** Tokenises the working text, skipping the parts' spans. */
export function tokenise(text: string, skip: readonly Span[]): Tokens {
  const khmer: KhmerRun[] = [];
  const latin: LatinWord[] = [];
  let segment = 0;
  let skipIndex = 0;
  let i = 0;
  const n = text.length;
  const skipped = (at: number): number => {
    while (skipIndex < skip.length && skip[skipIndex]!.end <= at) skipIndex++;
    const s = skip[skipIndex];
    return s && s.start <= at ? s.end : -1;
  };
  while (i < n) {
    const jump = skipped(i);
    if (jump >= 0) {
      i = jump;
      segment++;
      continue;
    }
    const ch = text[i]!;
    const c = ch.charCodeAt(0);
    if (isSeparator(ch)) {
      segment++;
      i++;
    } else if (isKhmer(c) || (isDigit(c) && nextNonSpaceIsKhmer(text, i) && !afterLatinWord(text, i))) {
      i = khmerRun(text, i, skipped, segment, khmer);
    } else if (c < 0x80 ? isAsciiAlnum(c) : /[\p{L}\p{N}]/u.test(ch)) {
      let j = i + 1;
      while (j < n && isWordChar(text, j) && skipped(j) < 0) j++;
      // "S/K" (Sangkat) and "Kh." stay one word each.
      if (/^s$/i.test(text.slice(i, j)) && text[j] === '/' && /^k\b/i.test(text.slice(j + 1, j + 3))) {
        latin.push({ word: 'sk', start: i, end: j + 2, unit: 'commune', filler: false, segment });
        i = j + 2;
        continue;
      }
      // A Roman numeral glued to a word in capitals (TeukI, KakabII): the ordinal of the name, as its own word.
      // A possessive's 's is no part of a name (Sihanoukville's Commune IV; no name ends in one), and ends its piece:
      // the unit word of "Talat commune's Rumpat" is Talat's, not Rumpat's.
      const word0 = text.slice(i, j);
      const possessive = /['’]s$/i.test(word0);
      const raw = word0.replace(/([a-z])(I{1,3}|IV)$/, '$1 $2').replace(/['’]s$/i, '');
      for (const folded of foldedWords(raw)) {
        // Leading zeros mean nothing in a name's number: Prey Tea 01 = Prey Tea 1.
        let word = /^0+\d/.test(folded) ? folded.replace(/^0+/, '') : folded;
        // Kilometre before a number is the Kilo of village names (Kilometre 12: Kilou Dabpir, គីឡូ១២).
        if (KILOMETRE.has(word) && /^\s*\d/.test(text.slice(j, j + 3))) word = 'kilo';
        // Own keys only: "constructor" is not a unit word. A misspelt English one is read as the word meant.
        let unit = Object.hasOwn(LATIN_UNIT_WORDS, word) ? LATIN_UNIT_WORDS[word]! : null;
        const meant = unit === null ? unitWordTypo(word) : undefined;
        if (meant !== undefined) [word, unit] = meant;
        latin.push({ word, start: i, end: j, unit, filler: LATIN_FILLER.has(word), segment });
      }
      // Khan before a direction, after a name, is Khang ("side": Chreung Khan Lech for Chrueng Khang Lech), not the
      // unit word: no district is named after a direction.
      const last = latin.length - 1;
      if (last >= 2 && DIRECTIONS_LATIN.has(latin[last]!.word) && latin[last - 1]!.word === 'khan' && latin[last - 1]!.segment === segment
        && latin[last - 2]!.unit === null && !latin[last - 2]!.filler && latin[last - 2]!.segment === segment) {
        latin[last - 1] = { ...latin[last - 1]!, word: 'khang', unit: null };
      }
      if (possessive) segment++;
      i = j;
    } else {
      i++;
    }
  }
  return { khmer, latin };
}

/** foldWords, remembered per raw word (addresses reuse a small vocabulary; bounded, so hostile input cannot grow it). */
const FOLDED_KEPT = 20_000;
const folds = new Map<string, readonly string[]>();
function foldedWords(raw: string): readonly string[] {
  let found = folds.get(raw);
  if (!found) {
    if (folds.size >= FOLDED_KEPT) folds.clear();
    folds.set(raw, (found = foldWords(raw)));
  }
  return found;
}

function nextNonSpaceIsKhmer(text: string, i: number): boolean {
  let j = i;
  while (j < text.length && (isDigit(text.charCodeAt(j)) || text[j] === ' ')) j++;
  return j < text.length && isKhmer(text.charCodeAt(j));
}

/**
 * Whether a Latin letter comes before position i, spaces aside: a number there is the Latin name's (`Boeng Keng Kang 1
 * ភ្នំពេញ`), not the Khmer text's after it.
 */
function afterLatinWord(text: string, i: number): boolean {
  let k = i - 1;
  while (k >= 0 && text[k] === ' ') k--;
  if (k < 0) return false;
  const c = text.charCodeAt(k);
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Reads one Khmer run from `start`; returns where it ends. */
function khmerRun(text: string, start: number, skipped: (at: number) => number, segment: number, out: KhmerRun[]): number {
  let norm = '';
  const offsets: number[] = [];
  const ends: number[] = [];
  const unitWords: KhmerRun['unitWords'] = [];
  let i = start;
  // Where the text goes on after a connective that ends the run (see connectiveAt).
  let resume = -1;
  for (; i < text.length; i++) {
    if (skipped(i) >= 0) break;
    const ch = text[i]!;
    const c = ch.charCodeAt(0);
    if (isSeparator(ch)) break;
    // (និង right after a unit word joins two unit words: see below.) និង glued to the name before it ends that name
    // too when a unit word follows it (ភូមិប្រាសាទនិងភូមិត្មាតពង).
    const glued = ch === 'ន' && norm.length > 0 && text.startsWith(AND, i) && !unitWordEndsAt(norm, unitWords)
      && KHMER_UNIT_WORDS.some(([word]) => text.startsWith(word, i + AND.length));
    if (glued || i === start || (ch === ' ' && norm.length > 0 && !unitWordEndsAt(norm, unitWords))) {
      const length = connectiveAt(text, ch === ' ' ? i + 1 : i);
      if (length > 0) {
        if (norm.length > 0) {
          resume = i + (ch === ' ' ? 1 : 0) + length;
          break;
        }
        i += length - 1;
        continue;
      }
    }
    // An aside in parentheses with a colon or Latin letters (ឃុំវាលម្លូ (អង់គ្លេស: Veal Mlu Commune), as Khmer Wikipedia
    // writes) ends the name before it; a name's own parentheses (វះ (ជាសារ), a village) are Khmer only.
    if (ch === '(' && norm.length > 0 && isAside(text, i)) break;
    if (KHMER_SKIP.has(ch) || isZeroWidth(c)) {
      // A full stop after a short cluster is an abbreviation (ភ. ឃ. ស្រ.): recorded as a unit word.
      if (ch === '.') markAbbreviation(norm, unitWords);
      // នៃ ("of") written after a space and before a unit word (ភូមិព្រះអង្គ នៃឃុំរកាពប្រាំ) is not part of a name, nor
      // និង ("and") between two (ភូមិ និងឃុំស្វាយចេក: the village and the commune of Svay Chek).
      else if (ch === ' ' && text.startsWith(OF, i + 1) && KHMER_UNIT_WORDS.some(([word]) => text.startsWith(word, i + 1 + OF.length))) i += OF.length;
      else if (ch === ' ' && text.startsWith(AND, i + 1) && unitWordEndsAt(norm, unitWords) && KHMER_UNIT_WORDS.some(([word]) => text.startsWith(word, i + 1 + AND.length))) i += AND.length;
      continue;
    }
    if (!isKhmer(c) && !isDigit(c)) break;
    // The register signs ៉ and ៊, and ៍, are written or left out as people hear a name (see search/khmer.ts): left
    // out, as part of the letter they sit on.
    if (c === 0x17c9 || c === 0x17ca || c === 0x17cd) {
      if (ends.length > 0) ends[ends.length - 1] = i + 1;
      continue;
    }
    // Zeros that lead a number mean nothing (សង្កាត់លេខ០១): left out, as part of the digit after them.
    if (c === 0x30 && !isDigit(norm.charCodeAt(norm.length - 1)) && nextDigitAfterZeros(text, i)) continue;
    // An independent vowel is read as the អ and vowel typed for it (see search/khmer.ts): two characters of one.
    if (c >= 0x17a5 && c <= 0x17b3) {
      const expanded = INDEPENDENT_VOWELS.get(ch);
      if (expanded !== undefined) {
        norm += expanded;
        offsets.push(i, i);
        ends.push(i + 1, i + 1);
        continue;
      }
    }
    // ម្ before a labial is written for the nikahit ំ (សម្បូរ for សំបូរ; see search/khmer.ts): read as ំ, the coeng part of it.
    if (c === 0x17d2 && norm.endsWith('\u1798') && text.charCodeAt(i + 1) >= 0x1794 && text.charCodeAt(i + 1) <= 0x1797) {
      norm = norm.slice(0, -1) + '\u17c6';
      ends[ends.length - 1] = i + 1;
      continue;
    }
    // A subscript typed after the vowel of its cluster (សា្វយ for ស្វាយ; see search/khmer.ts): before the vowel. The vowel
    // keeps its offset and ends after the subscript, so that a span ending with it covers both.
    if (c === 0x17d2 && isConsonantCode(text.charCodeAt(i + 1)) && norm.length >= 2 && isVowelSign(norm.charCodeAt(norm.length - 1))
      && isConsonantCode(norm.charCodeAt(norm.length - 2))) {
      const next = text.charCodeAt(i + 1) === 0x178a ? '\u178f' : text[i + 1]!;
      norm = norm.slice(0, -1) + '\u17d2' + next + norm.slice(-1);
      const vowelAt = offsets.pop()!;
      ends.pop();
      offsets.push(i, i + 1, vowelAt);
      ends.push(i + 1, i + 2, i + 2);
      i++;
      continue;
    }
    // ្ដ (coeng-da) is written interchangeably with ្ត (coeng-ta).
    if (c === 0x178a && norm.endsWith('\u17d2')) norm += '\u178f';
    // ឬ ("or") typed for ឫ in ឫស្សី and ឫទ្ធិ (see search/khmer.ts).
    else if (c === 0x17ac && (text.startsWith('ស្សី', i + 1) || text.startsWith('ទ្ធិ', i + 1))) norm += 'ឫ';
    // Split vowels typed as two signs: េ + ី for ើ, េ + ា for ោ (they look the same).
    else if ((c === 0x17b8 || c === 0x17b6) && norm.endsWith('\u17c1')) {
      norm = norm.slice(0, -1) + (c === 0x17b8 ? '\u17be' : '\u17c4');
      ends[ends.length - 1] = i + 1;
      continue;
    } else norm += ch;
    offsets.push(i);
    ends.push(i + 1);
  }
  offsets.push(i);
  if (resume >= 0) i = resume;
  // ទី (ordinal) or លេខ (number) before a digit: ភូមិទី១ = ភូមិលេខ១ = ភូមិ១.
  for (const word of NUMBER_MARKS) norm = dropWord(norm, offsets, ends, unitWords, word, beforeDigit);
  // ខាង ("side") before a direction, written or left out (see search/khmer.ts): left out.
  norm = dropWord(norm, offsets, ends, unitWords, SIDE, beforeDirection);
  if (norm.length === 0) return Math.max(i, start + 1);
  for (let k = 0; k < norm.length; k++) {
    if (k > 0 && norm.charCodeAt(k - 1) === 0x17d2) continue;
    if (!UNIT_WORD_STARTS.has(norm.charCodeAt(k))) continue;
    for (const [word, level] of KHMER_UNIT_WORDS) {
      if (norm.startsWith(word, k) && !unitWords.some((u) => u.start === k)) unitWords.push({ start: k, end: k + word.length, level });
    }
  }
  unitWords.sort((a, b) => a.start - b.start);
  out.push({ kind: 'khmer', text: norm, offsets, ends, unitWords, segment });
  return Math.max(i, start + 1);
}

/** Whether the parenthesis at `at` opens an aside: a colon or a Latin letter before it closes (within 80 characters). */
function isAside(text: string, at: number): boolean {
  const end = Math.min(text.length, at + 80);
  for (let j = at + 1; j < end; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x29) return false;
    if (c === 0x3a || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) return true;
  }
  return false;
}

/**
 * Words that join the parts of an address and are no part of any unit's name (none of the gazetteer's 16,465 Khmer
 * names has them): ស្ថិតនៅក្នុង, ស្ថិតនៅ, ស្ថិតក្នុង ("located in"), និង ("and"). Written after a space or first in
 * a run (or និង glued between a name and a unit word), one ends the name before it (ឃុំវាលម្លូ ស្ថិតនៅក្នុង
 * ស្រុកពញាក្រែក; ភូមិលើ និងភូមិព្រែកប៉ុល) and is left out, as Latin fillers are.
 */
const CONNECTIVES = ['ស្ថិតនៅក្នុង', 'ស្ថិតនៅ', 'ស្ថិតក្នុង', 'និង'];

/**
 * ក្នុង ("in"), before a unit word (ក្នុងក្រុងច្បារមន, ក្នុង ភូមិ...): some names start with it (ក្នុងវាំង, a village is
 * ក្នុង), none is followed by a unit word in it.
 */
const IN = 'ក្នុង';
/** ជា ("is", "as"), before a unit word (ឃុំស្វាយទង់ខាងជើង ជាស្រុកល្បីល្បាញ, ជាភូមិមួយ): names start with ជាំ, none with ជា and a unit word. */
const IS = 'ជា';

/** The length of the connective (CONNECTIVES, or IN or IS before a unit word) that starts at `at`, or 0. */
function connectiveAt(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === 0x1780 || c === 0x1787) {
    const word = c === 0x1780 ? IN : IS;
    if (!text.startsWith(word, at)) return 0;
    const next = text[at + word.length] === ' ' ? at + word.length + 1 : at + word.length;
    return KHMER_UNIT_WORDS.some(([unit]) => text.startsWith(unit, next)) ? word.length : 0;
  }
  if (c !== 0x179f && c !== 0x1793) return 0;
  for (const word of CONNECTIVES) if (text.startsWith(word, at)) return word.length;
  return 0;
}

/** នៃ, "of", between a name and the next unit word. */
const OF = 'នៃ';
/** និង, "and", between two unit words. */
const AND = 'និង';

/** Whether the run so far ends with a unit word (KHMER_UNIT_WORDS; abbreviations are marked where their stop is). */
function unitWordEndsAt(norm: string, unitWords: KhmerRun['unitWords']): boolean {
  return KHMER_UNIT_WORDS.some(([word]) => norm.endsWith(word)) || unitWords.some((u) => u.end === norm.length);
}

/** Whether the zeros from `i` are followed by another digit (in the text, spaces and the like aside). */
function nextDigitAfterZeros(text: string, i: number): boolean {
  let j = i;
  while (j < text.length && text.charCodeAt(j) === 0x30) j++;
  return j < text.length && isDigit(text.charCodeAt(j));
}

/** ខាង ("side") and the directions it may stand before. */
const SIDE = 'ខាង';
const DIRECTIONS = ['កើត', 'លិច', 'ជើង', 'ត្បូង'];

/**
 * `norm` without each `word` in it at which `drops` holds, with that word's characters taken out of `offsets` and
 * `ends` and the unit words after it moved back.
 */
function dropWord(norm: string, offsets: number[], ends: number[], unitWords: KhmerRun['unitWords'], word: string,
  drops: (norm: string, at: number, word: string) => boolean): string {
  for (let k = norm.indexOf(word); k >= 0; k = norm.indexOf(word, k)) {
    if (!drops(norm, k, word)) {
      k++;
      continue;
    }
    norm = norm.slice(0, k) + norm.slice(k + word.length);
    offsets.splice(k, word.length);
    ends.splice(k, word.length);
    for (const u of unitWords) if (u.start > k) { u.start -= word.length; u.end -= word.length; }
  }
  return norm;
}
const beforeDigit = (norm: string, at: number, word: string) => isDigit(norm.charCodeAt(at + word.length));
/** A whole word (not after a coeng) before a direction. */
const beforeDirection = (norm: string, at: number, word: string) =>
  (at === 0 || norm.charCodeAt(at - 1) !== 0x17d2) && DIRECTIONS.some((d) => norm.startsWith(d, at + word.length));

/** Words before a number that only say it is one: ទី (ordinal), លេខ (number). */
const NUMBER_MARKS = ['ទី', 'លេខ'];

function markAbbreviation(norm: string, unitWords: KhmerRun['unitWords']): void {
  for (const [abbr, level] of Object.entries(KHMER_ABBREVIATIONS)) {
    if (!norm.endsWith(abbr)) continue;
    const start = norm.length - abbr.length;
    // Must be a whole cluster: not after a coeng, and the run starts there or a name ended before it.
    if (start > 0 && norm.charCodeAt(start - 1) === 0x17d2) continue;
    if (!unitWords.some((u) => u.start === start)) unitWords.push({ start, end: norm.length, level });
    return;
  }
}
