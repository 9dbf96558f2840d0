/**
 * The relevance suite: queries as people type them, each with the unit it must find and the rank it must reach
 * (test/search/relevance-cases.json, written independently of the engine). Reports the share met per category and
 * fails below the threshold; "must-not" cases (Kampong Cham must not return Kampong Chhnang first) must all hold.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { searchIndex, unit } from '../helper.js';

interface Case {
  q: string;
  expect?: string;
  within?: number;
  notFirst?: string;
  category: string;
  note?: string;
}

/** Share of positive cases that must be met; raise it as the engine improves, never lower it to get green. */
export const THRESHOLD = 0.98;

const cases = JSON.parse(readFileSync(new URL('relevance-cases.json', import.meta.url), 'utf8')) as Case[];

describe('relevance suite', () => {
  const index = searchIndex();

  it('is a real suite: 150+ cases over every category, each pointing at a real unit', () => {
    assert.ok(cases.length >= 150, `${cases.length} cases`);
    for (const c of cases) {
      if (c.expect) unit(c.expect);
      if (c.notFirst) unit(c.notFirst);
      assert.ok(c.expect ? (c.within ?? 0) >= 1 : c.notFirst, JSON.stringify(c));
    }
  });

  it(`meets at least ${THRESHOLD * 100}% of the positive cases, and every must-not case`, (t) => {
    const byCategory = new Map<string, { met: number; total: number; misses: string[] }>();
    const mustNotFailures: string[] = [];
    for (const c of cases) {
      const hits = index.search(c.q, { limit: Math.max(c.within ?? 1, 1) }).hits.map((h) => h.unit.code);
      if (c.notFirst) {
        if (hits[0] === c.notFirst) mustNotFailures.push(`${JSON.stringify(c.q)} returned ${c.notFirst} first`);
        continue;
      }
      const entry = byCategory.get(c.category) ?? { met: 0, total: 0, misses: [] };
      entry.total++;
      if (hits.includes(c.expect!)) entry.met++;
      else entry.misses.push(`${JSON.stringify(c.q)} -> ${c.expect} within ${c.within} (got ${hits.join(' ') || 'nothing'})`);
      byCategory.set(c.category, entry);
    }
    let met = 0;
    let total = 0;
    for (const [category, entry] of [...byCategory].sort()) {
      met += entry.met;
      total += entry.total;
      t.diagnostic(`${category}: ${entry.met}/${entry.total}`);
      for (const miss of entry.misses) t.diagnostic(`  miss: ${miss}`);
    }
    t.diagnostic(`score: ${met}/${total} = ${(met / total * 100).toFixed(1)}%; must-not: ${cases.filter((c) => c.notFirst).length - mustNotFailures.length}/${cases.filter((c) => c.notFirst).length}`);
    assert.deepEqual(mustNotFailures, []);
    assert.ok(met / total >= THRESHOLD, `score ${(met / total * 100).toFixed(1)}% is below ${THRESHOLD * 100}%`);
  });
});
