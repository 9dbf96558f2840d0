import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterStarts, hasKhmer, normaliseKhmer, stripKhmerUnitWord } from '../../src/search/khmer.js';

describe('Khmer normalisation', () => {
  it('removes zero-width characters, spaces and punctuation, and reads Khmer digits', () => {
    assert.equal(normaliseKhmer('ដង\u200Bរ៉ែក'), normaliseKhmer('ដងរ៉ែក'));
    assert.equal(normaliseKhmer('ទី៦ «ក»'), '6ក');
    assert.equal(normaliseKhmer('ភូមិ ១២'), 'ភូមិ12');
  });

  it('treats the space before a number and the ordinal ទី as optional', () => {
    assert.equal(normaliseKhmer('បឹងកេងកងទី ១'), normaliseKhmer('បឹងកេងកងទី១'));
    assert.equal(normaliseKhmer('ភូមិទី១'), normaliseKhmer('ភូមិ ១'));
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
