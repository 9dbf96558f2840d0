import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deletions, editDistance, TypoIndex, typoBudget } from '../../src/search/typo.js';

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
    const index = new TypoIndex(['battambang', 'kampot', 'kampong', 'takeo', 'kep']);
    assert.deepEqual(index.near('battambnag'), ['battambang']);
    assert.deepEqual(index.near('batambnag').sort(), ['battambang']);
    assert.deepEqual(index.near('kampott'), ['kampot']);
    assert.deepEqual(index.near('kampot'), []);
    assert.deepEqual(index.near('kepp'), []); // too short for a typo
    assert.deepEqual(index.near('takoe'), ['takeo']);
  });
});
