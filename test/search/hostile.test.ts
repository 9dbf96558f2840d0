/**
 * Hostile queries (issue 14, item 1): characters that NFKD-fold to several Latin letters each (ﬃ, ⅷ, ㎉, ℡, ﷺ...),
 * combining marks, Khmer signs, digits and mixed scripts, up to the API's 200 characters. The work of typo matching
 * (the deletions TypoIndex.near makes, which grow with the square of a word's length) must stay bounded whatever
 * the query, and the bound must not change what is found. (The time per query is measured in bench/search.ts.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_QUERY_LENGTH } from '../../src/http/schemas/search.js';
import { foldWords, latinForms, MAX_FOLDED_LENGTH } from '../../src/search/latin.js';
import { editDistance, type TypoIndex, typoBudget, typoWork } from '../../src/search/typo.js';
import { searchIndex } from '../helper.js';

/** Characters whose compatibility decomposition is long: 3 to 18 letters or more each. */
const EXPANDING = ['ﬃ', 'ﬄ', 'ⅷ', 'ⅶ', 'ⅻ', '㎉', '℡', '℻', '㍱', '㏒', '㎯', 'ﷺ', 'ﷻ', '㌀', '⒇', '⑽', 'Ⓐ', '½', 'ǆ', 'ſt', 'ﬆ'];
const COMBINING = Array.from({ length: 0x70 }, (_, i) => String.fromCharCode(0x300 + i));
const KHMER_SIGNS = Array.from({ length: 0x17dd - 0x17b4 + 1 }, (_, i) => String.fromCharCode(0x17b4 + i));
const KHMER = Array.from({ length: 0x17ff - 0x1780 + 1 }, (_, i) => String.fromCharCode(0x1780 + i));
const DIGITS = [...'0123456789០១២៣៤៥៦៧៨៩'];
const MIXED = [...'aeiouyxkhpbtdAZ ’\'-.,Ωжあ漢😀\u200b\u00a0'];

const alphabet = (chars: readonly string[]) => fc.constantFrom(...chars);
const hostileChar = fc.oneof(
  { arbitrary: alphabet(EXPANDING), weight: 4 },
  { arbitrary: alphabet(COMBINING), weight: 1 },
  { arbitrary: alphabet(KHMER_SIGNS), weight: 1 },
  { arbitrary: alphabet(KHMER), weight: 1 },
  { arbitrary: alphabet(DIGITS), weight: 1 },
  { arbitrary: alphabet(MIXED), weight: 2 },
);
/** Up to 200 code points, as the API allows (its maxLength counts code points). */
const hostileQuery = fc.oneof(
  fc.string({ unit: hostileChar, minLength: 1, maxLength: MAX_QUERY_LENGTH }),
  fc.tuple(alphabet(EXPANDING), alphabet(EXPANDING)).map(([a, b]) => (a + b).repeat(MAX_QUERY_LENGTH / 2)),
  fc.constantFrom(...EXPANDING).map((c) => c.repeat(MAX_QUERY_LENGTH)),
);

/** The most deletions `near` may make for one word: those of a word of length longest + depth, at that depth. */
function deletionBound(index: TypoIndex): number {
  const n = index.longest + index.maxDepth;
  let total = 1;
  let level = 1;
  for (let d = 1; d <= index.maxDepth; d++) total += (level = (level * (n - d + 1)) / d);
  return total;
}

describe('hostile queries', () => {
  const index = searchIndex();
  const { typoWords, typoCompact } = index.tables;
  // Typo matching looks at every word of 5+ letters of one form of the query, and the whole query if it is one word.
  const maxWords = Math.floor(MAX_FOLDED_LENGTH / 6) + 1;
  const bound = maxWords * deletionBound(typoWords) + deletionBound(typoCompact);

  it('fold to a bounded length, however much the characters expand', () => {
    fc.assert(fc.property(hostileQuery, (q) => {
      assert.ok(foldWords(q).join('').length <= MAX_FOLDED_LENGTH, q);
    }), { numRuns: 300 });
    // 200 × ﷺ is 3,600 letters decomposed.
    assert.ok(foldWords('ﷺ'.repeat(200)).join('').length <= MAX_FOLDED_LENGTH);
  });

  it(`cost a bounded number of typo deletions per query (at most ${bound}), uncached`, () => {
    fc.assert(fc.property(hostileQuery, fc.nat(1_000_000), (q, salt) => {
      // A fresh suffix each run, so the ranking cache never answers.
      const query = `${q.slice(0, q.length - 1)}${String.fromCharCode(0x61 + (salt % 26))}`;
      const before = typoWork.deletions;
      const { total, hits } = index.search(query, { limit: 10 });
      const made = typoWork.deletions - before;
      assert.ok(made <= bound, `${made} deletions for ${JSON.stringify(query)}`);
      assert.ok(hits.length <= Math.min(10, total));
      assert.equal(new Set(hits.map((h) => h.unit.code)).size, hits.length);
    }), { numRuns: 300 });
  });

  it('the reproduction from the report: 200 shuffled ﬃ/ⅷ/㎉/℡/℻ make only a bounded number of deletions', () => {
    const chars = ['ⅷ', '㎉', '℡', '℻', 'ﬃ'];
    const query = Array.from({ length: 200 }, (_, i) => chars[(i * 7 + (i >> 3)) % chars.length]).join('');
    const before = typoWork.deletions;
    index.search(query);
    assert.ok(typoWork.deletions - before <= bound);
  });

  it('skip only words no vocabulary word is within reach of: near() equals a full scan', () => {
    const longWord = (vocabulary: readonly string[], longest: number) => fc.oneof(
      // A longest word with 0 to 3 letters inserted: the edge of the skip.
      fc.tuple(fc.constantFrom(...vocabulary.filter((w) => w.length >= longest - 1)), fc.array(fc.tuple(fc.nat(40), fc.constantFrom(...'aeiknoprstu')), { maxLength: 3 }))
        .map(([w, inserts]) => inserts.reduce((s, [at, c]) => s.slice(0, at % (s.length + 1)) + c + s.slice(at % (s.length + 1)), w)),
      fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 10, maxLength: 60 }),
      fc.string({ unit: hostileChar, maxLength: 60 }).map((s) => foldWords(s).join('')),
    );
    for (const typo of [typoWords, typoCompact]) {
      fc.assert(fc.property(longWord(typo.words, typo.longest), (word) => {
        const budget = Math.min(typoBudget(word.length), typo.maxDepth);
        const scanned = budget === 0 ? [] : typo.words.filter((w) => w !== word && editDistance(word, w, budget) <= budget);
        assert.deepEqual(typo.near(word).sort(), scanned.sort(), word);
      }), { numRuns: 200 });
    }
  });

  it('still find names typed with compatibility characters and marks', () => {
    assert.equal(index.search('Ｂａｔｔａｍｂａｎｇ', { limit: 1 }).hits[0]?.unit.code, '02');
    assert.equal(index.search('Bàttàmbàng', { limit: 1 }).hits[0]?.unit.code, '02');
    assert.deepEqual(latinForms('Ⓑattambang').words, ['battambang']);
  });

  it('read words named like Object.prototype\'s properties as words (a query "constructor" was a 500)', () => {
    for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf']) {
      for (const query of [word, `pram ${word}`, `ti ${word}`, `${word} 1`, `phum ${word}`]) {
        assert.doesNotThrow(() => index.search(query), query);
        assert.deepEqual(latinForms(query).words.map((w) => typeof w), latinForms(query).words.map(() => 'string'), query);
      }
    }
    // "__proto__" is the word "proto" like any other.
    assert.equal(index.search('__proto__').total, index.search('proto').total);
  });
});
