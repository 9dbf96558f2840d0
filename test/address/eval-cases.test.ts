/**
 * Checks the shape of the address evaluation set (test/address/eval-cases.json): real addresses from public sources,
 * each with the NCDD code of the most specific unit it names. This test checks the file, not the resolver: every
 * expected code is a real unit, every case has its source, the counts and categories are as documented in
 * eval-cases.README.md. The resolver's hit@1/hit@5 runner reads the same file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { gazetteer } from '../helper.js';

export interface EvalCase {
  id: string;
  input: string;
  expected_code: string;
  category: string;
  script: 'km' | 'latn' | 'mixed';
  source: { url: string; title: string; kind: string };
  note: string;
}

export const CATEGORIES = [
  'latin-full',
  'latin-partial',
  'latin-anglicised-spelling',
  'latin-abbreviated',
  'khmer-full',
  'khmer-nospace',
  'khmer-partial',
  'mixed-script',
  'with-postal-code',
  'former-parent',
  'province-outside-phnom-penh',
] as const;

/** What kind of public source a case was copied from (see eval-cases.README.md). */
export const KINDS: readonly string[] = ['business listing', 'NGO', 'news', 'open dataset', 'reference'];

const KHMER = /[\u1780-\u17ff]/u;
const LATIN = /[A-Za-z]/u;

export function loadEvalCases(): EvalCase[] {
  return JSON.parse(readFileSync(new URL('eval-cases.json', import.meta.url), 'utf8')) as EvalCase[];
}

describe('address evaluation set', () => {
  const cases = loadEvalCases();
  const g = gazetteer();

  it('holds at least 300 cases, at least 100 of them in Khmer script', () => {
    assert.ok(Array.isArray(cases));
    assert.ok(cases.length >= 300, `${cases.length} cases`);
    const khmer = cases.filter((c) => c.script === 'km').length;
    assert.ok(khmer >= 100, `${khmer} cases in Khmer script`);
  });

  it('gives every case a unique id, a non-blank input, a known category and a source with a url', () => {
    const ids = new Set<string>();
    for (const c of cases) {
      const where = JSON.stringify(c.id);
      assert.match(c.id, /^[a-z0-9]+(?:-[a-z0-9]+)*-\d{3}$/u, where);
      assert.ok(!ids.has(c.id), `duplicate id ${where}`);
      ids.add(c.id);
      assert.equal(typeof c.input, 'string', where);
      assert.ok(c.input.trim().length > 0 && c.input.length <= 500, where);
      assert.ok((CATEGORIES as readonly string[]).includes(c.category), `${where}: category ${c.category}`);
      assert.equal(typeof c.note, 'string', where);
      assert.equal(typeof c.source?.title, 'string', where);
      assert.ok(c.source.title.length > 0, where);
      assert.ok(KINDS.includes(c.source.kind), `${where}: kind ${c.source.kind}`);
      assert.match(c.source.url, /^https?:\/\/\S+$/u, where);
    }
  });

  it('has no input twice', () => {
    const inputs = new Set<string>();
    for (const c of cases) {
      assert.ok(!inputs.has(c.input), `input twice: ${c.input}`);
      inputs.add(c.input);
    }
  });

  it('labels the script from the text itself', () => {
    for (const c of cases) {
      const km = KHMER.test(c.input);
      const latn = LATIN.test(c.input);
      const expected = km && latn ? 'mixed' : km ? 'km' : 'latn';
      assert.equal(c.script, expected, `${c.id}: ${c.input}`);
    }
  });

  it('points every case at a unit that exists in data/gazetteer.json', () => {
    for (const c of cases) {
      assert.match(c.expected_code, /^\d{2}(?:\d{2}(?:\d{2}(?:\d{2})?)?)?$/u, c.id);
      assert.ok(g.byCode(c.expected_code), `${c.id}: no unit ${c.expected_code}`);
    }
  });

  it('keeps the categories consistent with their names', () => {
    for (const c of cases) {
      if (c.category.startsWith('khmer-')) assert.equal(c.script, 'km', c.id);
      if (c.category.startsWith('latin-')) assert.equal(c.script, 'latn', c.id);
      if (c.category === 'mixed-script') assert.equal(c.script, 'mixed', c.id);
      if (c.category === 'with-postal-code') assert.match(c.input, /(?<!\d)[0-9០-៩]{5,6}(?![0-9០-៩])/u, c.id);
      if (c.category === 'khmer-nospace') assert.doesNotMatch(c.input.trim(), / /u, c.id);
      if (c.category === 'province-outside-phnom-penh') assert.ok(!c.expected_code.startsWith('12'), c.id);
    }
  });

  it('covers every category, with 20+ cases in all but the two the sources made scarce', () => {
    const counts = new Map<string, number>();
    for (const c of cases) counts.set(c.category, (counts.get(c.category) ?? 0) + 1);
    for (const category of CATEGORIES) assert.ok((counts.get(category) ?? 0) >= 3, `${category}: ${counts.get(category) ?? 0}`);
    const small = CATEGORIES.filter((category) => (counts.get(category) ?? 0) < 20);
    assert.ok(small.length <= 2, `categories under 20 cases: ${small.join(', ')}`);
  });

  it('matches the counts the README gives, so the documentation cannot drift from the file', () => {
    const readme = readFileSync(new URL('eval-cases.README.md', import.meta.url), 'utf8');
    const documented = new Map<string, number>();
    for (const m of readme.matchAll(/^\| `([a-z-]+)` \| (\d+) \|/gmu)) documented.set(m[1]!, Number(m[2]));
    assert.deepEqual([...documented.keys()].sort(), [...CATEGORIES].sort());
    for (const category of CATEGORIES) {
      assert.equal(cases.filter((c) => c.category === category).length, documented.get(category), category);
    }
    const total = readme.match(/^## Counts \((\d+) cases, (\d+) in Khmer script, (\d+) mixed, (\d+) Latin\)$/mu);
    assert.ok(total, 'README counts heading');
    assert.deepEqual(total.slice(1).map(Number), [
      cases.length,
      cases.filter((c) => c.script === 'km').length,
      cases.filter((c) => c.script === 'mixed').length,
      cases.filter((c) => c.script === 'latn').length,
    ]);
  });

  it('keeps every source url pinned: GitHub files at a commit, never a moving branch', () => {
    for (const c of cases) {
      if (c.source.url.startsWith('https://github.com/')) assert.match(c.source.url, /\/blob\/[0-9a-f]{40}\//u, c.id);
    }
  });
});
