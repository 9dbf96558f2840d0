import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ORIGINS, normalizeOrigin, parseOrigins, requestOrigin } from '../../src/keys/origins.js';
import { generateKey, isBrowserKeyText, isWellFormedKey } from '../../src/keys/key-format.js';

describe('origins of browser keys', () => {
  it('canonicalises an origin and refuses anything else', () => {
    assert.equal(normalizeOrigin('https://Shop.Example.com'), 'https://shop.example.com');
    assert.equal(normalizeOrigin('https://shop.example.com/'), 'https://shop.example.com');
    assert.equal(normalizeOrigin('https://shop.example.com:443'), 'https://shop.example.com');
    assert.equal(normalizeOrigin('http://localhost:5173'), 'http://localhost:5173');
    assert.equal(normalizeOrigin(' http://127.0.0.1:3000 '), 'http://127.0.0.1:3000');
    for (const bad of ['shop.example.com', 'ftp://x.example', 'https://shop.example.com/checkout', 'https://*.example.com',
      'https://user:pw@example.com', 'https://example.com?x=1', 'javascript:alert(1)', '', 'https://', `https://${'a'.repeat(300)}.com`]) {
      assert.equal(normalizeOrigin(bad), undefined, bad);
    }
  });

  it('parses a list: trims, drops duplicates, needs one and at most MAX_ORIGINS', () => {
    assert.deepEqual(parseOrigins(['https://a.example', '', 'https://A.example/', 'http://localhost:5173']), { origins: ['https://a.example', 'http://localhost:5173'] });
    assert.match((parseOrigins([]) as { problem: string }).problem, /at least one/);
    assert.match((parseOrigins(['https://a.example/path']) as { problem: string }).problem, /not an origin/);
    assert.match((parseOrigins(Array.from({ length: MAX_ORIGINS + 1 }, (_, i) => `https://s${i}.example`)) as { problem: string }).problem, /at most/);
  });

  it('reads the request origin from Origin, else from Referer', () => {
    assert.equal(requestOrigin('https://shop.example.com', 'https://evil.example/x'), 'https://shop.example.com');
    assert.equal(requestOrigin(undefined, 'https://shop.example.com/checkout?step=2'), 'https://shop.example.com');
    assert.equal(requestOrigin('null', 'https://shop.example.com/'), undefined, 'an opaque origin is not replaced by the referer');
    assert.equal(requestOrigin(undefined, 'not a url'), undefined);
    assert.equal(requestOrigin(undefined, undefined), undefined);
    assert.equal(requestOrigin(['https://a.example', 'https://b.example'], undefined), undefined);
  });

  it('browser keys have their own prefix and the same checksum', () => {
    const key = generateKey('browser');
    assert.match(key, /^khp_/);
    assert.ok(isWellFormedKey(key));
    assert.ok(isBrowserKeyText(key));
    assert.ok(!isBrowserKeyText(generateKey()));
    assert.ok(!isWellFormedKey(`khx_${key.slice(4)}`));
  });
});
