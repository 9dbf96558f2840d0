/** PrefixSet (src/address/prefixes.ts): the same answers as a search of the keys themselves, and saved hashes used only for their keys. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PrefixSet } from '../../src/address/prefixes.js';
import { gazetteer } from '../helper.js';

/** Whether some key starts with `prefix`, the slow way. */
const naive = (keys: readonly string[], prefix: string) => keys.some((key) => key.startsWith(prefix));

describe('PrefixSet', () => {
  const keys = [...new Set(gazetteer().units.flatMap((u) => [u.name_km, u.name_latin.toLowerCase()]))];
  const set = new PrefixSet(keys);

  it('says yes to every prefix of every key', () => {
    for (const key of keys) for (let n = 1; n <= key.length; n++) assert.ok(set.has(key.slice(0, n)), key.slice(0, n));
  });

  it('says no where no key starts so (no collision among these texts)', () => {
    let asked = 0;
    for (const key of keys.slice(0, 3000)) {
      // The key with one more letter, or with its last letter changed: mostly not a prefix of any key.
      for (const text of [`${key}x`, `${key}ក`, `${key.slice(0, -1)}q`, `q${key}`]) {
        asked++;
        assert.equal(set.has(text), naive(keys, text), text);
      }
    }
    assert.ok(asked >= 12_000);
  });

  it('the empty text starts every key, when there is one', () => {
    assert.equal(set.has(''), true);
    assert.equal(new PrefixSet([]).has(''), false);
    assert.equal(new PrefixSet([]).has('a'), false);
  });

  it('uses saved hashes only when they were made from the same keys', () => {
    const saved = set.saved();
    assert.deepEqual(new PrefixSet(keys, saved).saved(), saved);
    // Hashes saved for other keys (one key fewer) are not used: the set is made from its own keys.
    const fewer = keys.slice(1);
    const other = new PrefixSet(fewer, saved);
    assert.notEqual(other.digest, saved.digest);
    assert.deepEqual(other.saved(), new PrefixSet(fewer).saved());
    // A corrupt saved set whose digest matches cannot be told from a good one; a wrong length is refused.
    assert.deepEqual(new PrefixSet(keys, { digest: saved.digest, hashes: 'AAA=' }).saved(), saved);
  });

  it('a whole-key set says yes to every key and no to the shorter prefixes (no collision among these texts)', () => {
    const whole = new PrefixSet(keys, undefined, { whole: true });
    const isKey = new Set(keys);
    for (const key of keys) assert.ok(whole.has(key), key);
    let asked = 0;
    for (const key of keys.slice(0, 3000)) {
      for (let n = 1; n < key.length; n++) {
        asked++;
        assert.equal(whole.has(key.slice(0, n)), isKey.has(key.slice(0, n)), key.slice(0, n));
      }
    }
    assert.ok(asked > 10_000);
    // Not interchangeable with the prefix set of the same keys: saved hashes of one are not used for the other.
    assert.notEqual(whole.digest, set.digest);
    assert.notDeepEqual(new PrefixSet(keys, whole.saved()).saved(), whole.saved());
  });

  it('hashes a text read one code unit at a time as has() does', () => {
    for (const key of keys.slice(0, 500)) {
      let hash = PrefixSet.START;
      for (let i = 0; i < key.length; i++) hash = PrefixSet.step(hash, key.charCodeAt(i));
      assert.equal(set.hasHash(hash), true, key);
    }
  });
});
