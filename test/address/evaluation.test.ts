/**
 * The resolver on the evaluation set of real addresses (test/address/eval-cases.json, each with its source): hit@1
 * must stay at or above what it reaches, overall and in every category of 20 or more cases. `npm run eval:address`
 * prints the figures by category and script, and the misses.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { resolverFor } from '../../src/address/resolve.js';
import { evaluate, type EvalCase } from '../../src/address/evaluate.js';
import { gazetteer, searchIndex } from '../helper.js';

const cases = JSON.parse(readFileSync(new URL('./eval-cases.json', import.meta.url), 'utf8')) as EvalCase[];

/** Thresholds set from what the resolver reaches (see the README, Address resolution), a little below it. */
const OVERALL_HIT1 = 0.98;
const OVERALL_HIT5 = 0.98;
const CATEGORY_HIT1 = 0.95;
/** Categories held to a lower bar, and why. */
const LOWER: Record<string, number> = {};

describe('address evaluation set', () => {
  const report = evaluate(resolverFor(gazetteer(), searchIndex()), cases);

  it('has at least 300 cases, 100 of them in Khmer script, each with a source and an expected unit', () => {
    assert.ok(cases.length >= 300, String(cases.length));
    assert.ok(cases.filter((c) => c.script === 'km').length >= 100);
    for (const c of cases) {
      assert.ok(c.source, `${c.id} has no source`);
      assert.ok(gazetteer().byCode(c.expected_code), `${c.id} expects unknown unit ${c.expected_code}`);
    }
  });

  it(`reaches hit@1 >= ${OVERALL_HIT1} and hit@5 >= ${OVERALL_HIT5} overall`, () => {
    assert.ok(report.overall.hit1 >= OVERALL_HIT1, `hit@1 ${report.overall.hit1}`);
    assert.ok(report.overall.hit5 >= OVERALL_HIT5, `hit@5 ${report.overall.hit5}`);
  });

  it(`reaches hit@1 >= ${CATEGORY_HIT1} in every category of 20+ cases`, () => {
    for (const group of report.groups.filter((g) => g.name.startsWith('category: ') && g.cases >= 20)) {
      const bar = LOWER[group.name.slice('category: '.length)] ?? CATEGORY_HIT1;
      assert.ok(group.hit1 >= bar, `${group.name}: hit@1 ${group.hit1.toFixed(3)} over ${group.cases} cases (bar ${bar})`);
    }
  });
});

describe('independent check set (test/address/check-cases.json: other sources, collected without the resolver)', () => {
  const check = JSON.parse(readFileSync(new URL('./check-cases.json', import.meta.url), 'utf8')) as EvalCase[];
  const CHECK_HIT1 = 0.9;

  it('has its cases labelled with known units and sources, none of them in the evaluation set', () => {
    const inputs = new Set(cases.map((c) => c.input));
    assert.ok(check.length >= 50, String(check.length));
    for (const c of check) {
      assert.ok((c.source as { url?: string }).url?.startsWith('http'), `${c.id} has no source URL`);
      assert.ok(gazetteer().byCode(c.expected_code), `${c.id} expects unknown unit ${c.expected_code}`);
      assert.ok(!inputs.has(c.input), `${c.id} is also in eval-cases.json`);
    }
  });

  it(`reaches hit@1 >= ${CHECK_HIT1}`, () => {
    const report = evaluate(resolverFor(gazetteer(), searchIndex()), check);
    assert.ok(report.overall.hit1 >= CHECK_HIT1, `hit@1 ${report.overall.hit1}`);
  });
});
