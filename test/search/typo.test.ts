import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deletions, editDistance, hash32, TypoIndex, typoBudget } from '../../src/search/typo.js';
import { searchIndex } from '../helper.js';

describe('typo tolerance', () => {
  it('allows one edit from 5 letters, two from 9', () => {
    assert.deepEqual([4, 5, 8, 9, 14].map(typoBudget), [0, 1, 1, 2, 2]);
  });

  it('measures edits with transpositions, capped', () => {
    assert.equal(editDistance('battambang', 'battambnag', 2), 1);
    assert.equal(editDistance('kampot', 'kampott', 1), 1);
    assert.equal(editDistance('kampot', 'kompat', 2), 2);
    assert.equal(editDistance('kampot', 'takeo', 1), 2);
    assert.equal(editDistance('abc', 'abcdef', 1), 2);
  });

  it('gives the optimal string alignment distance, capped, for random words (a full table as the reference)', () => {
    const osa = (a: string, b: string) => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      }
      return d[a.length]![b.length]!;
    };
    let seed = 3;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296);
    const word = () => Array.from({ length: Math.floor(rnd() * 12) }, () => 'abcកខ'[Math.floor(rnd() * 5)]).join('');
    // Long words too: the scratch rows grow.
    for (let n = 0; n < 3000; n++) {
      const a = n % 500 === 0 ? 'a'.repeat(150) + word() : word();
      const b = n % 500 === 0 ? 'a'.repeat(149) + word() : word();
      for (const max of [0, 1, 2, 3]) assert.equal(editDistance(a, b, max), Math.min(osa(a, b), max + 1), `${a} ${b} ${max}`);
    }
  });

  it('lists deletions', () => {
    assert.deepEqual([...deletions('abc', 1)].sort(), ['ab', 'abc', 'ac', 'bc']);
  });

  it('finds vocabulary words within the budget of the query word', () => {
    const index = TypoIndex.of(['battambang', 'kampot', 'kampong', 'takeo', 'kep']);
    assert.deepEqual(index.near('battambnag'), ['battambang']);
    assert.deepEqual(index.near('batambnag').sort(), ['battambang']);
    assert.deepEqual(index.near('kampott'), ['kampot']);
    assert.deepEqual(index.near('kampot'), []);
    assert.deepEqual(index.near('kepp'), []); // too short for a typo
    assert.deepEqual(index.near('takoe'), ['takeo']);
  });

  it('finds exactly the words a full scan finds, over the real vocabulary and typed-wrong words', () => {
    // The index keeps deletions as 32-bit hashes: a shared hash may add a candidate but must never lose one.
    const { typoWords, typoCompact } = searchIndex().tables;
    const random = seeded(6);
    for (const [index, maxDepth] of [[typoWords, 2], [typoCompact, 1]] as const) {
      const vocabulary = index.words;
      for (let n = 0; n < 300; n++) {
        const query = mistype(vocabulary[Math.floor(random() * vocabulary.length)]!, random);
        const budget = Math.min(typoBudget(query.length), maxDepth);
        const scanned = budget === 0 ? [] : vocabulary.filter((w) => w !== query && editDistance(query, w, budget) <= budget);
        assert.deepEqual(index.near(query).sort(), scanned.sort(), query);
      }
    }
  });

  it('hashes deletions with FNV-1a over UTF-16 code units', () => {
    assert.equal(hash32(''), 0x811c9dc5);
    assert.equal(hash32('a'), 0xe40c292c);
    assert.notEqual(hash32('ab'), hash32('ba'));
  });
});

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The word with one or two random edits: a substitution, deletion, insertion or swap of neighbours. */
function mistype(word: string, random: () => number): string {
  let out = word;
  for (let edits = 1 + Math.floor(random() * 2); edits > 0 && out.length > 1; edits--) {
    const at = Math.floor(random() * out.length);
    const letter = String.fromCharCode(97 + Math.floor(random() * 26));
    const kind = Math.floor(random() * 4);
    if (kind === 0) out = out.slice(0, at) + letter + out.slice(at + 1);
    else if (kind === 1) out = out.slice(0, at) + out.slice(at + 1);
    else if (kind === 2) out = out.slice(0, at) + letter + out.slice(at);
    else if (at + 1 < out.length) out = out.slice(0, at) + out[at + 1] + out[at] + out.slice(at + 2);
  }
  return out;
}
