import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterStarts, hasKhmer, khmerSkeleton, normaliseKhmer, numberWordAsDigit, stripKhmerUnitWord } from '../../src/search/khmer.js';
import { gazetteer, searchIndex } from '../helper.js';
import { tokenise } from '../../src/address/tokens.js';

describe('Khmer normalisation', () => {
  it('removes zero-width characters, spaces and punctuation, and reads Khmer digits', () => {
    assert.equal(normaliseKhmer('ដង\u200Bរ៉ែក'), normaliseKhmer('ដងរ៉ែក'));
    assert.equal(normaliseKhmer('ទី៦ «ក»'), '6ក');
    assert.equal(normaliseKhmer('ភូមិ ១២'), 'ភូមិ12');
    // A word segmenter's marks between words (ស្វាយ_លើ, as Khmer text corpora write it).
    assert.equal(normaliseKhmer('ស្វាយ_លើ'), 'ស្វាយលើ');
    assert.equal(normaliseKhmer('ស្វាយ~លើ'), 'ស្វាយលើ');
  });

  it('puts a subscript typed after its vowel before it (សា្វយ = ស្វាយ), as the data build does in names', () => {
    assert.equal(normaliseKhmer('សា្វយចេក'), normaliseKhmer('ស្វាយចេក'));
    assert.equal(normaliseKhmer('ពៅ្ន'), normaliseKhmer('ព្នៅ'));
    assert.equal(normaliseKhmer('ស្វាយ'), 'ស្វាយ');
  });

  it('reads ឬ ("or") typed for the letter ឫ in ឫស្សី and ឫទ្ធិ as ឫ, and leaves the word "or" alone', () => {
    assert.equal(normaliseKhmer('ឬស្សីកែវ'), normaliseKhmer('ឫស្សីកែវ'));
    assert.equal(normaliseKhmer('ឬទ្ធិ'), 'ឫទ្ធិ');
    assert.equal(normaliseKhmer('ក ឬ ខ'), 'កឬខ');
  });

  it('puts coeng ro after the other subscript of its cluster, as Unicode orders them: ស្រ្តី = ស្ត្រី', () => {
    assert.equal(normaliseKhmer('ស្រ្តី'), normaliseKhmer('ស្ត្រី'));
    assert.equal(normaliseKhmer('ចន្រ្ទា'), 'ចន្ទ្រា');
    // A lone coeng ro stays.
    assert.equal(normaliseKhmer('ស្រុក'), 'ស្រុក');
  });

  it('treats the space before a number and the ordinal ទី as optional', () => {
    assert.equal(normaliseKhmer('បឹងកេងកងទី ១'), normaliseKhmer('បឹងកេងកងទី១'));
    assert.equal(normaliseKhmer('ភូមិទី១'), normaliseKhmer('ភូមិ ១'));
  });

  it('treats លេខ (number) before a number as the ordinal ទី: ភូមិលេខ៣ = ភូមិ ៣', () => {
    assert.equal(normaliseKhmer('លេខ៣'), normaliseKhmer('៣'));
    assert.equal(normaliseKhmer('ភូមិលេខ ១'), normaliseKhmer('ភូមិទី១'));
    // Not before a word: ផ្ទះលេខ ("house number") stays.
    assert.equal(normaliseKhmer('ផ្ទះលេខ'), 'ផ្ទះលេខ');
  });

  it('leaves out the register signs ៉ and ៊, and ៍, which people write or omit by ear', () => {
    assert.equal(normaliseKhmer('ច្បារម៉ន'), normaliseKhmer('ច្បារមន'));
    assert.equal(normaliseKhmer('តាណរ៍'), normaliseKhmer('តាណរ'));
    assert.equal(normaliseKhmer('កំពង់រោទិ'), normaliseKhmer('កំពង់រោទិ៍'));
    assert.equal(normaliseKhmer('ប៉ោយចារ'), normaliseKhmer('បោយចារ'));
  });

  it('writes ម្ before a labial as the nikahit ំ, as in the search index so in the resolver\'s reading', () => {
    assert.equal(normaliseKhmer('សម្បូរ'), normaliseKhmer('សំបូរ'));
    assert.equal(normaliseKhmer('កម្ពង់'), normaliseKhmer('កំពង់'));
    assert.notEqual(normaliseKhmer('សម្មតិ'), normaliseKhmer('សំមតិ'));
    assert.equal(tokenise('ភូមិសម្បូរ', []).khmer[0]!.text, normaliseKhmer('ភូមិសំបូរ'));
  });

  it('never makes two units of one parent the same name by leaving out the register signs, ៍ or ខាង', () => {
    // Names that differ only by spaces or by ្ដ for ្ត are the same name written two ways.
    const same = (name: string) => name.replace(/\s/g, '').replace(/\u17D2\u178A/g, '\u17D2\u178F');
    const seen = new Map<string, string>();
    for (const u of gazetteer().units) {
      const key = `${u.level}|${u.parent_code}|${normaliseKhmer(u.name_km)}`;
      const other = seen.get(key);
      if (other !== undefined) assert.equal(same(other), same(u.name_km), `${u.code}: ${other} and ${u.name_km} differ only by what is left out`);
      seen.set(key, u.name_km);
    }
  });

  it('reads an independent vowel as the អ and vowel typed for it', () => {
    assert.equal(normaliseKhmer('ដូនឯម'), normaliseKhmer('ដូនអែម'));
    assert.equal(normaliseKhmer('ឧត្តម'), normaliseKhmer('អុត្តម'));
    assert.notEqual(normaliseKhmer('ឱរ៉ាល់'), normaliseKhmer('អូរ៉ាល់'));
  });

  it('leaves out zeros that lead a number, and no other zero', () => {
    assert.equal(normaliseKhmer('សង្កាត់លេខ០១'), normaliseKhmer('សង្កាត់លេខ១'));
    assert.equal(normaliseKhmer('ភូមិ១០'), 'ភូមិ10');
    assert.equal(normaliseKhmer('ភូមិ ០៤.០៥'), 'ភូមិ405');
  });

  it('leaves out ខាង before a direction, and only there', () => {
    assert.equal(normaliseKhmer('ចុងកោះខាងកើត'), normaliseKhmer('ចុងកោះកើត'));
    assert.equal(normaliseKhmer('ក្បាលកោះ ខាង ត្បូង'), normaliseKhmer('ក្បាលកោះត្បូង'));
    assert.equal(normaliseKhmer('ខាងក្រោម'), 'ខាងក្រោម');
  });

  it('gives a name ending in a number word a form with the digit, longest word first', () => {
    assert.equal(numberWordAsDigit(normaliseKhmer('ម្លូព្រៃមួយ')), normaliseKhmer('ម្លូព្រៃ១'));
    assert.equal(numberWordAsDigit('ស្វាយប្រាំបី'), 'ស្វាយ8');
    // ទី or លេខ before the number word goes, as before a digit.
    assert.equal(numberWordAsDigit(normaliseKhmer('សាលាលេខប្រាំ')), normaliseKhmer('សាលាលេខ៥'));
    assert.equal(numberWordAsDigit(normaliseKhmer('ព្រៃទទឹងទីមួយ')), normaliseKhmer('ព្រៃទទឹងទី១'));
    assert.equal(numberWordAsDigit('ស្វាយ'), null);
    assert.equal(numberWordAsDigit('មួយ'), null);
  });

  it('gives a name starting with a number word a form with the digit, when the word ends a cluster', () => {
    assert.equal(numberWordAsDigit(normaliseKhmer('ពីរធ្នូ')), normaliseKhmer('២ធ្នូ'));
    assert.equal(numberWordAsDigit('ប្រាំបីមុម'), '8មុម');
    // ពីរី is not ពីរ and ី: a dependent vowel starts no cluster.
    assert.equal(numberWordAsDigit('ពីរី'), null);
  });

  it('finds a name ending in a number word when the number is written in digits (search)', () => {
    const [hit] = searchIndex().search('ម្លូព្រៃ១').hits;
    assert.equal(hit?.unit.code, '130205');
    assert.equal(hit?.match, 'exact');
  });

  it('writes coeng-da as coeng-ta', () => {
    assert.equal(normaliseKhmer('កណ្ដាល'), normaliseKhmer('កណ្តាល'));
    assert.notEqual(normaliseKhmer('កណ្ដាល'), 'កណ្ដាល');
  });

  it('composes to NFC', () => {
    assert.equal(normaliseKhmer('ភ្នំពេញ'.normalize('NFD')), normaliseKhmer('ភ្នំពេញ'));
  });

  it('strips one unit word in front, never the whole name', () => {
    assert.equal(stripKhmerUnitWord(normaliseKhmer('ខេត្តកំពត')), 'កំពត');
    assert.equal(stripKhmerUnitWord(normaliseKhmer('ខណ្ឌ ចំការមន')), 'ចំការមន');
    assert.equal(stripKhmerUnitWord('ភូមិ'), 'ភូមិ');
  });

  it('starts substrings only at cluster starts', () => {
    const name = normaliseKhmer('ជ្រោយចង្វារ');
    const starts = clusterStarts(name).map((i) => name.slice(i));
    assert.ok(starts.includes('ចង្វារ'));
    // Never at a subscript consonant (after ្) nor at a dependent vowel.
    assert.ok(!starts.some((s) => s.startsWith('វារ') || s.startsWith('ោ') || s.startsWith('្')));
  });

  it('knows Khmer text when it sees it', () => {
    assert.ok(hasKhmer('ភ្នំ Penh'));
    assert.ok(!hasKhmer('Phnom Penh 12'));
  });
});

describe('khmerSkeleton', () => {
  it('keeps the consonants by sound, once where written twice, and digits', () => {
    assert.equal(khmerSkeleton('សំរិត'), khmerSkeleton('សំរិទ្ធិ'));
    assert.equal(khmerSkeleton('សំរិត'), 'smrt');
    assert.equal(khmerSkeleton('ព្រែកលើ'), 'prkl');
    assert.equal(khmerSkeleton('ត្រពាំង២'), 'trpmg2');
    // Names that differ by a consonant's sound stay apart.
    assert.notEqual(khmerSkeleton('ស្វាយ'), khmerSkeleton('ស្វាង'));
  });
});
