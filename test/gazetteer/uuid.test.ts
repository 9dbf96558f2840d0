import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isUuid, UNIT_ID_NAMESPACE, unitId, uuidV5 } from '../../src/gazetteer/uuid.js';

const RFC4122_DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
const RFC4122_URL = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

describe('uuidV5', () => {
  it('matches the well-known vector for www.example.com in the DNS namespace', () => {
    assert.equal(uuidV5('www.example.com', RFC4122_DNS), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('derives the documented namespace from urn:kh-address:ncdd-unit', () => {
    assert.equal(uuidV5('urn:kh-address:ncdd-unit', RFC4122_URL), UNIT_ID_NAMESPACE);
  });

  it('gives version-5, RFC 4122 variant ids that never change for a code', () => {
    const id = unitId('12');
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Pinned: a change here would break every client that stored an id.
    assert.equal(id, '6d2cc9e3-b169-51ef-b502-a07c9418252b');
    assert.equal(unitId('12120701'), '4a463461-a8e4-5b94-8ced-ce8f6824ff5d');
    assert.notEqual(unitId('12'), unitId('1201'));
  });

  it('recognises UUIDs', () => {
    assert.ok(isUuid(unitId('01')));
    assert.ok(!isUuid('not-a-uuid'));
    assert.throws(() => uuidV5('x', 'nope'), /not a UUID/);
  });
});
