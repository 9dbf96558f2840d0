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
