/** New correlation ids: random version-4 UUIDs (RFC 9562), distinct, across refills of the random pool. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newUuid } from '../../../src/http/plugins/correlation.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newUuid', () => {
  it('makes version-4 UUIDs, all distinct, over several refills of its pool (256 ids each)', () => {
    const ids = Array.from({ length: 2000 }, () => newUuid());
    for (const id of ids) assert.match(id, UUID_V4);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('uses every hex digit in the random positions (the bytes are random, not a counter)', () => {
    const seen = new Map<number, Set<string>>();
    for (let n = 0; n < 500; n++) {
      const id = newUuid();
      for (let i = 0; i < id.length; i++) {
        if (!seen.has(i)) seen.set(i, new Set());
        seen.get(i)!.add(id[i]!);
      }
    }
    const fixed = new Set([8, 13, 14, 18, 23]); // the dashes and the version digit
    for (const [i, digits] of seen) {
      if (fixed.has(i)) assert.equal(digits.size, 1, `position ${i}`);
      else if (i === 19) assert.deepEqual([...digits].sort(), ['8', '9', 'a', 'b'], 'the variant digit');
      else assert.equal(digits.size, 16, `position ${i}: ${[...digits].sort().join('')}`);
    }
  });
});
