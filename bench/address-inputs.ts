/**
 * Inputs for the address benchmarks (bench/address.ts, bench/address-cli.ts), generated deterministically:
 * - distinct addresses written from the gazetteer's chains in several styles, Khmer and Latin;
 * - hostile inputs of up to MAX_ADDRESS_LENGTH characters: place names packed densely in both scripts, typos, digits,
 *   unit words, namesakes repeated, combining marks, characters that expand under NFKD, random text.
 */
import type { Gazetteer } from '../src/gazetteer/gazetteer.js';
import type { Unit } from '../src/gazetteer/types.js';
import { MAX_ADDRESS_LENGTH } from '../src/address/resolve.js';

/** A small seeded PRNG (mulberry32), so that every run reads the same inputs. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
const khmerDigits = (text: string) => text.replace(/[0-9]/g, (d) => String.fromCharCode(0x17e0 + Number(d)));

/** A unit's chain, most specific first (the unit, its parent, ... the province). */
function chainOf(gazetteer: Gazetteer, unit: Unit): Unit[] {
  return [unit, ...gazetteer.ancestors(unit.code).reverse()];
}

const latinWord = (u: Unit) => u.level === 'province' ? (u.type === 'capital' ? 'Capital' : 'Province') : u.unit_type_latin;
const englishWord = (u: Unit) => u.level === 'province' ? 'Province' : u.unit_type_en;

/** Ways people write a chain (most specific first); each returns one address. */
const STYLES: ((chain: Unit[], rnd: () => number) => string)[] = [
  // ភូមិ… ឃុំ… ស្រុក… ខេត្ត…
  (chain) => chain.map((u) => `${u.unit_type_km}${u.name_km}`).join(' '),
  // No spaces at all.
  (chain) => chain.map((u) => `${u.unit_type_km}${u.name_km}`).join(''),
  // House and street first, Khmer digits.
  (chain, rnd) => `ផ្ទះលេខ${khmerDigits(String(1 + Math.floor(rnd() * 300)))} ផ្លូវ${khmerDigits(String(1 + Math.floor(rnd() * 600)))} `
    + chain.map((u) => `${u.unit_type_km} ${u.name_km}`).join(' '),
  // Phum X, Khum Y, Srok Z, Kampot Province
  (chain) => chain.map((u) => u.level === 'province' ? `${u.name_latin} ${latinWord(u)}` : `${latinWord(u)} ${u.name_latin}`).join(', '),
  // X Village, Y Commune, Z District, W Province
  (chain) => chain.map((u) => `${u.name_latin} ${englishWord(u)}`).join(', '),
  // Names only, with commas.
  (chain) => chain.map((u) => u.name_latin).join(', '),
  // House number, street, names only, no commas, lower case.
  (chain, rnd) => `No. ${1 + Math.floor(rnd() * 200)}, St. ${1 + Math.floor(rnd() * 600)} ${chain.map((u) => u.name_latin.toLowerCase()).join(' ')}`,
  // The village and commune only, then the province and the postal code.
  (chain) => `${chain.slice(0, 2).map((u) => `${latinWord(u)} ${u.name_latin}`).join(', ')}, ${chain.at(-1)!.name_latin} ${chain[0]!.postal_code}`,
  // Mixed scripts: Khmer village and commune, Latin district and province.
  (chain) => `${chain.slice(0, 2).map((u) => `${u.unit_type_km}${u.name_km}`).join(' ')}, ${chain.slice(2).map((u) => u.name_latin).join(', ')}`,
];

/** At least `count` distinct addresses from villages and communes chosen at random, each in a random style. */
export function distinctAddresses(gazetteer: Gazetteer, count: number, seed = 1): string[] {
  const rnd = random(seed);
  const units = gazetteer.units.filter((u) => u.level === 'village' || u.level === 'commune');
  const out = new Set<string>();
  for (let tries = 0; out.size < count && tries < count * 4; tries++) {
    const address = pick(rnd, STYLES)(chainOf(gazetteer, pick(rnd, units)), rnd);
    if (address.length <= MAX_ADDRESS_LENGTH) out.add(address);
  }
  return [...out];
}

/** A letter of a word changed, dropped, doubled or swapped with the next. */
function typo(word: string, rnd: () => number): string {
  if (word.length < 3) return word;
  const i = 1 + Math.floor(rnd() * (word.length - 2));
  switch (Math.floor(rnd() * 4)) {
    case 0: return word.slice(0, i) + pick(rnd, [...'aeiouhkmnprst']) + word.slice(i + 1);
    case 1: return word.slice(0, i) + word.slice(i + 1);
    case 2: return word.slice(0, i) + word[i] + word.slice(i);
    default: return word.slice(0, i - 1) + word[i] + word[i - 1] + word.slice(i + 1);
  }
}

/** Repeats pieces (joined by `sep`) up to MAX_ADDRESS_LENGTH characters. */
function fill(next: () => string, sep = ' '): string {
  let text = next();
  for (;;) {
    const piece = next();
    if (text.length + sep.length + piece.length > MAX_ADDRESS_LENGTH) return text;
    text += sep + piece;
  }
}

/** Hostile inputs, each at most MAX_ADDRESS_LENGTH characters, with a label. */
export function hostileInputs(gazetteer: Gazetteer, seed = 7): { label: string; input: string }[] {
  const rnd = random(seed);
  const units = gazetteer.units;
  const latin = () => pick(rnd, units).name_latin;
  const khmer = () => pick(rnd, units).name_km;
  const byName = new Map<string, number>();
  for (const u of units) byName.set(u.name_latin, (byName.get(u.name_latin) ?? 0) + 1);
  const common = [...byName].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([name]) => name);
  const unitWords = ['Phum', 'Khum', 'Sangkat', 'Srok', 'Khan', 'Krong', 'Province', 'Village', 'Commune', 'District'];
  const khmerUnitWords = ['ភូមិ', 'ឃុំ', 'សង្កាត់', 'ស្រុក', 'ខណ្ឌ', 'ក្រុង', 'ខេត្ត'];
  const out: { label: string; input: string }[] = [];
  const add = (label: string, input: string) => out.push({ label, input: input.slice(0, MAX_ADDRESS_LENGTH) });
  for (let k = 0; k < 5; k++) {
    add('latin names', fill(latin));
    add('latin names, commas', fill(latin, ', '));
    add('latin names, no spaces', fill(() => latin().replace(/ /g, ''), ''));
    add('latin names with typos', fill(() => latin().split(' ').map((w) => typo(w, rnd)).join(' ')));
    add('latin unit words and names', fill(() => `${pick(rnd, unitWords)} ${latin()}`));
    add('khmer names, no spaces', fill(khmer, ''));
    add('khmer names, spaces', fill(khmer));
    add('khmer unit words and names', fill(() => `${pick(rnd, khmerUnitWords)}${khmer()}`, ''));
    add('khmer names with typos', fill(() => {
      const name = khmer();
      const i = Math.floor(rnd() * name.length);
      return name.slice(0, i) + name.slice(i + 1);
    }, ''));
    add('mixed scripts', fill(() => (rnd() < 0.5 ? latin() : khmer())));
    add('random letters', fill(() => Array.from({ length: 2 + Math.floor(rnd() * 8) }, () => pick(rnd, [...'abcdefghijklmnoprstuy'])).join('')));
  }
  const common0 = common[0]!;
  add('Phum 1 Phum 2 ...', fill((() => { let n = 0; return () => `Phum ${++n}`; })()));
  add('Phum 1 repeated', fill(() => 'Phum 1'));
  add('ភូមិ១ ភូមិ២ ...', fill((() => { let n = 0; return () => `ភូមិ${khmerDigits(String(++n))}`; })(), ''));
  add('most common name repeated', fill(() => common0));
  add('common names', fill(() => pick(rnd, common)));
  add('common names, commas', fill(() => pick(rnd, common), ', '));
  add('common names with unit words', fill(() => `${pick(rnd, unitWords)} ${pick(rnd, common)}`));
  add('Thmei Thmei ...', fill(() => 'Thmei'));
  add('Kandal Kandal ...', fill(() => 'Kandal'));
  add('ថ្មីថ្មី...', fill(() => 'ថ្មី', ''));
  add('ticker of unit words', fill(() => pick(rnd, unitWords)));
  add('ticker of Khmer unit words', fill(() => pick(rnd, khmerUnitWords), ''));
  add('digits', fill(() => String(Math.floor(rnd() * 1e6))));
  add('number words', fill(() => pick(rnd, ['Ti', 'Muoy', 'Pir', 'Bei', 'Buon', 'Pram', 'Dab', 'Mphey', 'Lekh', 'No'])));
  add('house numbers and streets', fill(() => `#${Math.floor(rnd() * 999)} St. ${Math.floor(rnd() * 999)}`, ', '));
  // Estates and place names with the word borey (each estate part is checked against the names: see BoreyNames).
  add('boreys and borey names', fill(() => pick(rnd, ['Borey Angkor', 'Angkor Borey', 'Borey Cholsar', 'Borey Peng Huoth', 'Mongkol Borey'])));
  add('Khmer boreys and borey names', fill(() => pick(rnd, ['បុរីប៉េងហួត', 'បុរីជលសារ', 'អង្គរបូរី', 'បុរី']), ' '));
  add('combining marks on a name', `Phnom Penh${'\u0301'.repeat(MAX_ADDRESS_LENGTH - 10)}`);
  add('combining marks on each letter', fill(() => `${latin()}`.replace(/(.)/g, '$1\u0300\u0308')));
  add('Khmer signs run', `ភូមិ${'\u17cb'.repeat(MAX_ADDRESS_LENGTH - 4)}`);
  add('Khmer coeng run', `ភ${'\u17d2ម'.repeat(240)}`);
  add('NFKD expanders', '\ufdfa'.repeat(MAX_ADDRESS_LENGTH));
  add('NFKD ligatures', 'ﬃ'.repeat(MAX_ADDRESS_LENGTH));
  add('NFKD ligatures and spaces', 'ﬃ ㎉ ⅷ ℡ '.repeat(MAX_ADDRESS_LENGTH / 10));
  add('one long word', 'a'.repeat(MAX_ADDRESS_LENGTH));
  add('one long Khmer word', 'ក'.repeat(MAX_ADDRESS_LENGTH));
  add('zero-width characters', fill(() => `${khmer()}\u200b`, ''));
  return out;
}
