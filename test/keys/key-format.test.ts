import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayPrefix, generateKey, hashKey, isWellFormedKey, KEY_LENGTH, newKeyId } from '../../src/keys/key-format.js';

describe('API key format', () => {
  it('makes recognisable, random, well-formed keys', () => {
    const keys = Array.from({ length: 200 }, generateKey);
    for (const key of keys) {
      assert.match(key, /^khk_[0-9A-Za-z]{30}$/);
      assert.equal(key.length, KEY_LENGTH);
      assert.ok(isWellFormedKey(key));
    }
    assert.equal(new Set(keys).size, keys.length);
  });

  it('refuses a mistyped key by its checksum, without a store', () => {
    const key = generateKey();
    let refused = 0;
    for (let i = 4; i < key.length; i++) {
      const typo = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
      if (!isWellFormedKey(typo)) refused++;
    }
    // Every one-character typo in the random part or the checksum changes the checksum (collisions ~ 1 in 56 billion).
    assert.equal(refused, key.length - 4);
    for (const bad of ['', 'khk_', key.slice(0, -1), `${key}x`, key.replace('khk_', 'kkk_'), key.toUpperCase(), ` ${key}`]) {
      assert.ok(!isWellFormedKey(bad), bad);
    }
  });

  it('hashes with SHA-256 and shows only a short prefix', () => {
    const key = generateKey();
    assert.match(hashKey(key), /^[0-9a-f]{64}$/);
    assert.notEqual(hashKey(key), hashKey(generateKey()));
    assert.equal(displayPrefix(key), key.slice(0, 10));
    assert.match(newKeyId(), /^key_[0-9A-Za-z]{12}$/);
  });
});
