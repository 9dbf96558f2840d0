/**
 * How the resolver holds up when real addresses are written otherwise: each input of the evaluation and check sets that
 * resolves right as written is changed one way at a time (case, commas, order, spacing, a phone number after it, a
 * label before it, a unit word abbreviated, a letter left out, a Khmer vowel or sign typed otherwise) and resolved
 * again; the share still right, by change and script:
 *   npm run eval:perturbed [-- --misses CHANGE]
 * A probe for rules to write, not a quality figure: some changes make an address another one (a letter left out of a
 * short name may spell a namesake), and every change is applied whether or not people write so.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AddressResolver } from '../src/address/resolve.js';
import { loadGazetteer } from '../src/gazetteer/load.js';
import { loadSearchIndex } from '../src/search/load.js';

const { values } = parseArgs({ options: { misses: { type: 'string' } } });
const gazetteer = loadGazetteer();
const resolver = new AddressResolver(gazetteer, loadSearchIndex(gazetteer).index);
const read = (name: string) => JSON.parse(readFileSync(new URL(`../test/address/${name}`, import.meta.url), 'utf8')) as
  { input: string; expected_code: string; script: 'km' | 'latn' | 'mixed' }[];
const cases = [...read('eval-cases.json'), ...read('check-cases.json')];

const KHMER_UNIT_WORD = /(?=ភូមិ|ឃុំ|សង្កាត់|ស្រុក|ខណ្ឌ|ក្រុង|ខេត្ត|រាជធានី)/;
const LATIN_LEADING_WORD = /(?=\b(?:Phum|Khum|Sangkat|Srok|Khan|Krong|Khet|Khaet)\b)/;
const KHMER_GAP = /(?<=[\u1780-\u17ff])\s+(?=[\u1780-\u17ff])/g;
const UNIT_WORDS_LATIN = /^(?:Sangkat|Village|Commune|District|Province|Cambodia|Municipality|Street|Capital)$/i;

/** A letter left out of the middle of the second long word that is no unit word (the first if only one). */
function letterLeftOut(s: string): string {
  const words = [...s.matchAll(/[A-Za-z]{6,}/g)].filter((m) => !UNIT_WORDS_LATIN.test(m[0]));
  const w = words[words.length > 1 ? 1 : 0];
  if (!w) return s;
  const at = w.index + Math.floor(w[0].length / 2);
  return s.slice(0, at) + s.slice(at + 1);
}

const CHANGES: Record<string, (s: string) => string> = {
  'upper case': (s) => s.toUpperCase(),
  'lower case': (s) => s.toLowerCase(),
  'parts reversed at commas': (s) => s.split(/,\s*/).reverse().join(', '),
  'commas left out': (s) => s.replace(/,/g, ' '),
  'commas as newlines': (s) => s.replace(/,\s*/g, '\n'),
  'Latin parts reversed at leading unit words': (s) => s.split(LATIN_LEADING_WORD).map((x) => x.trim().replace(/,$/, '')).reverse().join(' '),
  'Khmer parts reversed at unit words': (s) => s.split(KHMER_UNIT_WORD).map((x) => x.trim()).reverse().join(' '),
  'Khmer spaces left out': (s) => s.replace(KHMER_GAP, ''),
  'Khmer spaces as zero-width': (s) => s.replace(KHMER_GAP, '\u200b'),
  'unit words abbreviated': (s) => s.replace(/\bSangkat\b/g, 'Sk.').replace(/\bKhan\b/g, 'Kh.').replace(/\bPhum\b/g, 'Ph.')
    .replace(/\bKrong\b/g, 'Kr.').replace(/\bProvince\b/g, 'Prov.').replace(/ភូមិ/g, 'ភ.').replace(/សង្កាត់/g, 'ស.').replace(/ខណ្ឌ/g, 'ខ.'),
  'a Khmer word after it': (s) => `${s} រស់នៅ`,
  'a phone number after it (Khmer)': (s) => `${s} ទូរស័ព្ទ៖ ០១២ ៣៤៥ ៦៧៨`,
  'a phone number after it (Latin)': (s) => `${s} Tel: 012 345 678`,
  'a label before it (Khmer)': (s) => `អាសយដ្ឋាន៖ ${s}`,
  'a label before it (Latin)': (s) => `Address: ${s}`,
  'a letter left out of a Latin name': letterLeftOut,
  'Khmer ែ as េ, ូ as ុ (first of each)': (s) => s.replace(/ែ/, 'េ').replace(/ូ/, 'ុ'),
  'Khmer ់ left out (the first)': (s) => s.replace('់', ''),
  'Khmer ្ត as ្ដ (the first)': (s) => s.replace(/្ត/, '្ដ'),
};

const best = (q: string) => resolver.resolve(q, { limit: 1 }).candidates[0]?.unit.code;
const right = cases.filter((c) => best(c.input) === c.expected_code);
console.log(`${right.length} of ${cases.length} inputs resolve right as written; each change, on those it changes:\n`);
console.log(`${'change'.padEnd(48)} ${'script'.padEnd(7)} ${'changed'.padStart(7)} ${'right'.padStart(7)}`);
for (const [name, change] of Object.entries(CHANGES)) {
  for (const script of ['km', 'latn'] as const) {
    let changed = 0;
    let hits = 0;
    const misses: string[] = [];
    for (const c of right) {
      if ((script === 'km') !== (c.script === 'km')) continue;
      const q = change(c.input);
      if (q === c.input) continue;
      changed++;
      const got = best(q);
      if (got === c.expected_code) hits++;
      else misses.push(`  ${JSON.stringify(q)}: expected ${c.expected_code}, got ${got ?? 'nothing'}`);
    }
    if (changed === 0) continue;
    console.log(`${name.padEnd(48)} ${script.padEnd(7)} ${String(changed).padStart(7)} ${`${((100 * hits) / changed).toFixed(1)}%`.padStart(7)}`);
    if (values.misses === name) for (const m of misses) console.log(m);
  }
}
