/**
 * Latin-script normalisation for matching: folded tokens (case, diacritics, apostrophes, hyphens, spacing),
 * number words as digits, unit words dropped, and the romanization key that bridges spelling systems.
 */

const KHMER_DIGITS = /[\u17E0-\u17E9]/g;
const KHMER_DIGIT = /[\u17E0-\u17E9]/;

/** Khmer digits ០-៩ to ASCII 0-9 (people mix them in every script). */
export function asciiDigits(text: string): string {
  // Test first: most text has no Khmer digit (a replace with a callback showed in the profile of /lookup).
  return KHMER_DIGIT.test(text) ? text.replace(KHMER_DIGITS, (d) => String(d.charCodeAt(0) - 0x17e0)) : text;
}

/**
 * A lookup table without a prototype: a query word such as "constructor" or "__proto__" finds nothing in it (in a
 * plain object it found Object's own properties, and the search failed with a 500).
 */
const table = (entries: Record<string, string>): Readonly<Record<string, string>> => Object.freeze(Object.assign(Object.create(null) as Record<string, string>, entries));

/** Khmer numbers as romanized in names: "Ti Muoy" (first), "Prambei" (eight)... */
const NUMBER_WORDS = table({
  muoy: '1', mouy: '1', muy: '1', moy: '1',
  pir: '2', pi: '2',
  bei: '3', bey: '3',
  buon: '4', boun: '4', buan: '4',
  pram: '5', bram: '5',
  prammuoy: '6', prampir: '7', prambei: '8', prambuon: '9',
  dab: '10', dap: '10', dop: '10',
  // Tens and their compounds written as one word: "Dabmuoy" (11), "Mpheypir" (22).
  mphey: '20', mphei: '20', mphai: '20', mphay: '20', maphey: '20', maphei: '20',
  // Thirty to ninety (សាមសិប ... កៅសិប): Phum Samseb (ភូមិ ៣០), Phum Chetseb (ភូមិ ៧០).
  samseb: '30', samsep: '30', saeseb: '40', saesep: '40', haseb: '50', hasep: '50', hokseb: '60', hoksep: '60',
  chetseb: '70', chetsep: '70', paetseb: '80', paetsep: '80', kauseb: '90', kausep: '90',
  // Tens and their units written as one word: "Dabmuoy" (11), "Samsebpram" (៣៥), "Hasebbuon" (៥៤).
  ...compounds(),
});
/** A ten followed by a unit adds up: "Dab Muoy" (ដប់មួយ) is 11, "Mphey Prampir" (ម្ភៃប្រាំពីរ) is 27. */
const TENS = new Set(['10', '20', '30', '40', '50', '60', '70', '80', '90']);

/** Each ten's spellings followed by a unit's, written as one word, with their sum. */
function compounds(): Record<string, string> {
  const tens: Record<string, number> = {
    dab: 10, dap: 10, mphey: 20, mphei: 20, maphey: 20, samseb: 30, samsep: 30, saeseb: 40, saesep: 40, haseb: 50, hasep: 50,
    hokseb: 60, hoksep: 60, chetseb: 70, chetsep: 70, paetseb: 80, paetsep: 80, kauseb: 90, kausep: 90,
  };
  const units: Record<string, number> = {
    muoy: 1, mouy: 1, pir: 2, bei: 3, buon: 4, pram: 5, prammuoy: 6, prampir: 7, prambei: 8, prambuon: 9,
  };
  const found: Record<string, string> = {};
  for (const [ten, t] of Object.entries(tens)) for (const [unit, u] of Object.entries(units)) found[ten + unit] = String(t + u);
  return found;
}
/** "pram muoy" written as two words. */
const AFTER_PRAM = table({ '1': '6', '2': '7', '3': '8', '4': '9' });
const ROMAN = table({ i: '1', ii: '2', iii: '3', iv: '4' });
/** Words that only announce a number: "Ti" (ទី, ordinal), "Lekh"/"No" (number). Dropped before digits. */
const NUMBER_MARKERS = new Set(['ti', 'ty', 'lekh', 'no']);

/** Administrative unit words that people put before a name (Khan Chamkar Mon, Srok Bavel, Province of...). */
const LEADING_UNIT_WORDS = [['reach', 'theani'], ['khaet'], ['khet'], ['khan'], ['krong'], ['srok'], ['khum'], ['sangkat'],
  ['phum'], ['province'], ['district'], ['commune'], ['village'], ['municipality'], ['city'], ['capital'], ['quarter'], ['section']];
/** ... and after it (Kampot Province, Chamkar Mon District, Siem Reap City). */
const TRAILING_UNIT_WORDS = new Set(['province', 'district', 'commune', 'village', 'municipality', 'city', 'capital', 'quarter',
  'section', 'khan', 'krong', 'srok', 'khum', 'sangkat', 'phum', 'town']);

/**
 * Most characters of a text folded, and of its NFKD form. One character can decompose to up to 18 (U+FDFA), and
 * ﬃ, ⅷ, ㎉ or ℡ to 3 or 4 Latin letters: without a cap, 200 such characters made 700-letter words. A name in any
 * script, with every diacritic decomposed, is far below this.
 */
export const MAX_FOLDED_LENGTH = 400;

/**
 * Lowercase ASCII words: diacritics dropped, apostrophes joined (L'ak -> lak), other punctuation splits. Only the
 * first MAX_FOLDED_LENGTH characters of the text, and of its decomposition, are read.
 */
export function foldWords(text: string): string[] {
  return asciiDigits(text.length > MAX_FOLDED_LENGTH ? text.slice(0, MAX_FOLDED_LENGTH) : text)
    .normalize('NFKD')
    .slice(0, MAX_FOLDED_LENGTH)
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’‘`ʼ]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter(Boolean)
    // "bkk1" -> "bkk 1", "phum12" -> "phum 12"
    .flatMap((word) => word.split(/(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])/))
    .map((word) => ABBREVIATIONS.get(word) ?? word);
}

/** Words people shorten in place names: Kg. Cham, Kg Speu (no unit's name has the word kg). */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([['kg', 'kampong']]);

/** Number words to digits, then number markers before a digit dropped: "ti muoy" -> "1", "pram pir" -> "7". */
export function normaliseNumbers(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const isLast = i === words.length - 1;
    // A Roman numeral after a name (Teuk I), or alone from II up (III Village; "I" alone is the pronoun).
    let value = NUMBER_WORDS[word] ?? (isLast && (i > 0 || word.length > 1) ? ROMAN[word] : undefined) ?? word;
    // Only "pram" + 1..4 compose; "pram" alone stays 5.
    if (value === '5' && i + 1 < words.length && AFTER_PRAM[NUMBER_WORDS[words[i + 1]!] ?? '']) {
      value = AFTER_PRAM[NUMBER_WORDS[words[i + 1]!]!]!;
      i++;
    }
    // A ten written as a word, then a unit written as a word (or pram + unit): their sum.
    if (TENS.has(value) && NUMBER_WORDS[word] !== undefined && i + 1 < words.length) {
      const next = words[i + 1]!;
      let unit = NUMBER_WORDS[next];
      let used = 1;
      if (unit === '5' && i + 2 < words.length && AFTER_PRAM[NUMBER_WORDS[words[i + 2]!] ?? '']) {
        unit = AFTER_PRAM[NUMBER_WORDS[words[i + 2]!]!];
        used = 2;
      }
      if (unit !== undefined && Number(unit) < 10) {
        value = String(Number(value) + Number(unit));
        i += used;
      }
    }
    out.push(value);
  }
  return out.filter((word, i) => !(NUMBER_MARKERS.has(word) && /^\d/.test(out[i + 1] ?? '')));
}

/** Drops one leading and one trailing unit word, when a name is left. */
export function stripUnitWords(words: readonly string[]): string[] {
  let start = 0;
  for (const phrase of LEADING_UNIT_WORDS) {
    if (words.length > phrase.length && phrase.every((w, i) => words[i] === w)) {
      start = phrase.length;
      break;
    }
  }
  let end = words.length;
  if (end - start > 1 && TRAILING_UNIT_WORDS.has(words[end - 1]!)) end--;
  return words.slice(start, end);
}

/**
 * The matching forms of a Latin text: its words (numbers read), their core without unit words, and the folded
 * words as typed (for typing in progress: "Boeng Keng Kang T" is the start of "...Ti Muoy", not of "...1").
 */
export function latinForms(text: string): { words: string[]; core: string[]; typed: string[] } {
  const typed = foldWords(text);
  const words = normaliseNumbers(typed);
  return { words, core: stripUnitWords(words), typed };
}

/** Words joined without spaces: "Siem Reap" and "Siemreap" compare equal. */
export const compact = (words: readonly string[]): string => words.join('');

function wordKey(word: string): string {
  let key = wordKeyMemo.get(word);
  if (key === undefined) {
    // A bounded memo: addresses and queries reuse a small vocabulary, and hostile input cannot grow it without end.
    if (wordKeyMemo.size >= WORD_KEYS_KEPT) wordKeyMemo.clear();
    wordKeyMemo.set(word, (key = computeWordKey(word)));
  }
  return key;
}

const WORD_KEYS_KEPT = 20_000;
const wordKeyMemo = new Map<string, string>();

function computeWordKey(word: string): string {
  if (/^\d+$/.test(word)) return word;
  return word
    // aspiration and digraphs: ឆ chh/ch, ខ kh/k, ថ th/t, ផ ph/p
    .replace(/chh/g, 'ch').replace(/ch/g, 'c').replace(/kh/g, 'k').replace(/th/g, 't').replace(/ph/g, 'p')
    .replace(/d/g, 't').replace(/b/g, 'p').replace(/g/g, 'k').replace(/w/g, 'v')
    // n before p or b in a word sounds and is often written m (Konpong, Kompong); not across words (Doun Ba)
    .replace(/np/g, 'mp')
    // a final h or v after a vowel is part of the vowel: Preah/Prea, Kaoh/Koh, Kaev/Keo
    .replace(/([aeiouy])[hv]$/, '$1');
}

/**
 * Romanization key: one spelling for the many ways a Khmer name is written in Latin letters. Folds aspiration,
 * d/t, b/p, g/k, a final h, n before p or b in a word, every run of vowels, doubled letters and spaces, so Batdambang =
 * Battambang, Kaeb = Kep, Paoy Paet = Poipet, Kompong = Konpong = Kampong. It also merges distinct names (about a fifth
 * of spellings), so its matches rank below exact and prefix ones.
 */
export function romanizationKey(words: readonly string[]): string {
  return collapse(words.map(wordKey).join(''));
}

/** Every run of vowels to one a, then every run of one letter to one: a loop, the same as two regex replaces. */
function collapse(key: string): string {
  let out = '';
  let last = -1;
  for (let i = 0; i < key.length; i++) {
    let c = key.charCodeAt(i);
    if (c === 0x61 || c === 0x65 || c === 0x69 || c === 0x6f || c === 0x75 || c === 0x79) c = 0x61;
    if (c !== last) out += String.fromCharCode(c);
    last = c;
  }
  return out;
}

/**
 * The key word by word, separated by spaces, for matching the start of a name: every query word but the last must
 * have the key of the name's word in its place, so "Tboung Khmun" is not the start of "Tbaeng Mean Chey".
 */
export function wordKeys(words: readonly string[]): string {
  return words.map((word) => collapse(wordKey(word))).join(' ');
}
