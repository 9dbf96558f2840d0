/**
 * The keys the address resolver (./resolve.ts) reads names by, beyond the search index's: a looser romanization key
 * (looseKey) and its tables, a Latin name's consonants (latinSkeleton), Khmer subscripts as one character.
 */
import type { Unit } from '../gazetteer/types.js';
import { latinForms, romanizationKey } from '../search/latin.js';

/** The most units one stem may name (see stemTable). */
const STEM_UNITS_MAX = 6;

/**
 * Loose key of each unit's Latin names (see looseKey) -> the units (indexes): about 7,300 keys from 16,500 names. Made
 * by `npm run build` into a snapshot (./snapshot.ts): made at start it cost about 175 ms of CPU, a tenth of the start.
 */
export function looseTable(units: readonly Unit[]): Map<string, number[]> {
  const loose = new Map<string, number[]>();
  units.forEach((unit, u) => {
    for (const name of unit.name_ungegn ? [unit.name_latin, unit.name_ungegn] : [unit.name_latin]) {
      const { words, core } = latinForms(name);
      for (const form of core.length === words.length ? [words] : [words, core]) {
        const key = looseKey(form);
        if (key.length < 4) continue;
        const list = loose.get(key);
        if (!list) loose.set(key, [u]);
        else if (list.at(-1) !== u) list.push(u);
      }
    }
  });
  return loose;
}

/**
 * The loose key (looseKey) of each Latin name that ends in a number, without it, when two to STEM_UNITS_MAX units have
 * that name and a number (Kakab 1 and Kakab 2: kakap): a span that is nothing else reads as those units. About 180 stems.
 */
export function stemTable(unitWordLists: readonly (readonly (readonly string[])[])[]): Map<string, number[]> {
  const stems = new Map<string, number[]>();
  unitWordLists.forEach((lists, u) => {
    for (const words of lists) {
      if (words.length < 2 || !/^\d+$/.test(words.at(-1)!)) continue;
      const key = looseKey(words.slice(0, -1));
      if (key.length < 4) continue;
      const list = stems.get(key);
      if (!list) stems.set(key, [u]);
      else if (list.at(-1) !== u) list.push(u);
    }
  });
  for (const [key, units] of stems) if (units.length < 2 || units.length > STEM_UNITS_MAX) stems.delete(key);
  return stems;
}

/**
 * The consonants of Latin words as the romanization key reads them (ch, kh, th, ph as one; d as t, b as p, g as k), h
 * and vowels aside, each run of one letter as one, across words: Boueng Leav and Boeng Lvea are pnklv, Laboeuk and
 * Lbaeuk lpk. Coarser than the loose key (it drops the vowels), so it is asked only for a
 * piece its unit word gives a level, and answers only where one unit of that level has it.
 */
export function latinSkeleton(words: readonly string[]): string {
  let out = '';
  for (const word of words) {
    const consonants = word.replace(/chh/g, 'c').replace(/ch/g, 'c').replace(/kh/g, 'k').replace(/th/g, 't').replace(/ph/g, 'p')
      .replace(/d/g, 't').replace(/b/g, 'p').replace(/g/g, 'k').replace(/w/g, 'v').replace(/np/g, 'mp').replace(/[aeiouyh]/g, '');
    for (const c of consonants) if (c !== out[out.length - 1]) out += c;
  }
  return out;
}

/**
 * A looser romanization key for anglicised spellings the index's key keeps apart: an r after a vowel and before a
 * consonant or the end is silent (Chork = Chak, Korng = Kang, Sangker = Sangkae, Kokir = Korki), a final ng is n
 * (Kengkan = Keng Kang), ck is k (Baeck), and the word Khang ("side": Kampong Bay Khang Tboung) may be left out.
 */
export function looseKey(words: readonly string[]): string {
  const kept = words.length > 1 ? words.filter((w) => w !== 'khang') : words;
  return romanizationKey(kept.map((w) => w.replace(/ck/g, 'k')))
    .replace(/ar(?=[^a]|$)/g, 'a')
    .replace(/nk(?=[^a]|$)/g, 'n');
}

/**
 * Khmer text with each subscript (coeng ្ and the consonant under it) as one character, as it is written and typed
 * (រត្តនៈ is រតនៈ with one subscript more: one edit, not two). The pair becomes a private-use character.
 */
export function subscriptsAsOne(text: string): string {
  if (!text.includes('\u17d2')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 0x17d2 && i + 1 < text.length) {
      out += String.fromCharCode(0xe000 + (text.charCodeAt(++i) & 0xff));
    } else out += text[i];
  }
  return out;
}
