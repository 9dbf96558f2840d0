/**
 * Hostile input costs no more than a real address: the resolver's work per input (spans looked up, mentions made,
 * readings tried, typo spans, pieces compared with children, typo deletions) is bounded, whatever the 500 characters
 * hold. Counts, not time: the times are in the benchmark (npm run bench:address, its hostile section).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { hostileInputs } from '../../bench/address-inputs.js';
import { AddressInputError, addressWork, MAX_ADDRESS_LENGTH, resolverFor } from '../../src/address/resolve.js';
import { typoWork } from '../../src/search/typo.js';
import { gazetteer, searchIndex } from '../helper.js';

type Work = typeof addressWork & { deletions: number };
const MEASURES = ['spans', 'mentions', 'typoSpans', 'readings', 'pieces', 'deletions'] as const;

/** The work of resolving one input (an input the resolver refuses does none worth counting). */
function workOf(input: string): Work {
  const before = { ...addressWork, deletions: typoWork.deletions };
  try {
    resolverFor(gazetteer(), searchIndex()).resolve(input);
  } catch (error) {
    if (!(error instanceof AddressInputError)) throw error;
  }
  const after = { ...addressWork, deletions: typoWork.deletions };
  return Object.fromEntries(Object.keys(after).map((k) => [k, after[k as keyof Work] - before[k as keyof Work]])) as Work;
}

const heaviest = (inputs: readonly string[]) => {
  const max = Object.fromEntries(MEASURES.map((m) => [m, 0])) as Record<(typeof MEASURES)[number], number>;
  for (const input of inputs) {
    const work = workOf(input);
    for (const m of MEASURES) max[m] = Math.max(max[m], work[m]);
  }
  return max;
};

describe('address resolver: work per input is bounded', () => {
  const hostile = hostileInputs(gazetteer());
  const real = (JSON.parse(readFileSync(new URL('./eval-cases.json', import.meta.url), 'utf8')) as { input: string }[]).map((c) => c.input);

  it('the hostile inputs are what the benchmark reads: up to the longest address, dense with names', () => {
    assert.ok(hostile.length >= 60);
    assert.ok(hostile.every((h) => h.input.length <= MAX_ADDRESS_LENGTH));
    assert.ok(hostile.filter((h) => h.input.length >= MAX_ADDRESS_LENGTH - 20).length >= 50);
  });

  it('no hostile input goes past the budgets', () => {
    for (const { label, input } of hostile) {
      const work = workOf(input);
      const what = `${label}: ${JSON.stringify(work)}`;
      assert.ok(work.spans <= 256, what);
      assert.ok(work.typoSpans <= 32, what);
      // The postal code's pseudo-mention comes on top of the names'.
      assert.ok(work.mentions <= 301, what);
      assert.ok(work.readings <= work.mentions, what);
      assert.ok(work.pieces <= 96, what);
      assert.ok(work.deletions <= 5000, what);
    }
  });

  it('a hostile input does at most four times the work of the heaviest real address, in every measure', () => {
    const realMax = heaviest(real);
    const hostileMax = heaviest(hostile.map((h) => h.input));
    for (const m of MEASURES) {
      assert.ok(hostileMax[m] <= 4 * Math.max(realMax[m], 10), `${m}: hostile ${hostileMax[m]}, real ${realMax[m]}`);
    }
  });

  it('an address followed by a flood of names is still read from its start', () => {
    const resolver = resolverFor(gazetteer(), searchIndex());
    const flood = (name: string) => `Sangkat Tonle Basak, Khan Chamkar Mon, ${`${name} `.repeat(60)}`.slice(0, MAX_ADDRESS_LENGTH);
    for (const name of ['Thmei', 'Phum 1', 'Kandal', 'Siem Reap']) {
      assert.equal(resolver.resolve(flood(name)).candidates[0]?.chain.commune?.code, '120101', name);
    }
  });
});
