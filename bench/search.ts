/**
 * Search engine benchmark, in-process: index build time and memory, loading it from a snapshot (what a start of the
 * production build does), then every relevance-suite query timed
 * uncached (the ranking itself) and its p50/p99, then paging through a large result set with and without the
 * ranking cache, and last hostile queries (issue 14: characters that fold to several letters each, combining marks,
 * Khmer signs, digits, mixed scripts, 200 characters each, uncached): their worst case per query, and its ratio to
 * the median of the ordinary queries measured in the same run.
 *
 *   npm run bench:search            (node --expose-gc for the memory figure)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { loadGazetteer } from '../src/gazetteer/load.js';
import { loadAliases } from '../src/search/aliases.js';
import { SearchIndex } from '../src/search/search-index.js';
import { readSnapshot, writeSnapshot } from '../src/search/snapshot.js';

const ROUNDS = 50;
const gc = (globalThis as { gc?: () => void }).gc;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

const gazetteer = loadGazetteer();
const aliases = loadAliases();
const queries = [...new Set((JSON.parse(readFileSync(new URL('../test/search/relevance-cases.json', import.meta.url), 'utf8')) as { q: string }[])
  .map((c) => c.q.trim()))];

gc?.();
const heapBefore = process.memoryUsage().heapUsed;
let started = performance.now();
const index = new SearchIndex(gazetteer.units, aliases, { cacheSize: 0 });
const buildMs = performance.now() - started;
gc?.();
const heapAfter = process.memoryUsage().heapUsed;
// Warm up the JIT so that the figures describe a running server.
for (let i = 0; i < 5; i++) for (const q of queries) index.search(q);
const builds: number[] = [];
for (let i = 0; i < 5; i++) {
  started = performance.now();
  new SearchIndex(gazetteer.units, aliases);
  builds.push(performance.now() - started);
}
const snapshotDir = mkdtempSync(join(os.tmpdir(), 'kh-bench-search-'));
const snapshotPath = join(snapshotDir, 'search-index.json');
writeSnapshot(snapshotPath, gazetteer.units, aliases, index.tables);
const loads: number[] = [];
for (let i = 0; i < 5; i++) {
  started = performance.now();
  const read = readSnapshot(snapshotPath, gazetteer.units, aliases);
  if (!('tables' in read)) throw new Error(`snapshot not usable: ${read.unusable}`);
  new SearchIndex(gazetteer.units, aliases, { tables: read.tables });
  loads.push(performance.now() - started);
}
rmSync(snapshotDir, { recursive: true, force: true });

const perQuery: number[] = [];
const all: number[] = [];
for (const q of queries) {
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    index.search(q, { limit: 10 });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  perQuery.push(percentile(times, 50));
  all.push(...times);
}
all.sort((a, b) => a - b);
perQuery.sort((a, b) => a - b);
const slowest = queries.map((q) => ({ q, ms: (() => { const t = performance.now(); index.search(q); return performance.now() - t; })() }))
  .sort((a, b) => b.ms - a.ms).slice(0, 5);

// Paging: 40 pages of 25 through "phum" (hundreds of results), ranking every time vs once.
const cached = new SearchIndex(gazetteer.units, aliases);
const pageRun = (ix: SearchIndex) => {
  const t = performance.now();
  for (let p = 0; p < 40; p++) ix.search('phum', { offset: p * 25, limit: 25 });
  return (performance.now() - t) / 40;
};
pageRun(cached);

console.log(`machine: ${os.cpus()[0]?.model} × ${os.cpus().length}, Node ${process.version}`);
console.log(`index: first build ${buildMs.toFixed(0)} ms (cold), warm builds median ${builds.sort((a, b) => a - b)[2]!.toFixed(0)} ms; ` +
  `heap ${gc ? `${((heapAfter - heapBefore) / 1e6).toFixed(1)} MB` : 'n/a (run with --expose-gc)'}; ${aliases.length} aliases`);
console.log(`  loaded from a snapshot instead: median ${loads.sort((a, b) => a - b)[2]!.toFixed(0)} ms (fingerprint, read, parse, tables)`);
console.log(`queries: ${queries.length} distinct from the relevance suite, ${ROUNDS} rounds each, uncached`);
console.log(`  all runs:         p50 ${us(percentile(all, 50))}  p99 ${us(percentile(all, 99))}  max ${us(all.at(-1)!)}`);
console.log(`  per-query median: p50 ${us(percentile(perQuery, 50))}  p99 ${us(percentile(perQuery, 99))}`);
console.log(`  slowest: ${slowest.map((s) => `${JSON.stringify(s.q)} ${us(s.ms)}`).join(', ')}`);
console.log(`paging "phum" (${index.search('phum').total} results), per page of 25: uncached ${us(pageRun(index))}, cached ranking ${us(pageRun(cached))}`);

// Hostile queries: 200 characters each from alphabets that expand under NFKD or stress the normalisers.
const ALPHABETS = [
  ['ﬃ', 'ﬄ', 'ⅷ', 'ⅻ', '㎉', '℡', '℻', '㍱', 'ﷺ', '㌀', '⒇'],
  Array.from({ length: 0x70 }, (_, i) => String.fromCharCode(0x300 + i)),
  Array.from({ length: 0x2a }, (_, i) => String.fromCharCode(0x17b4 + i)),
  [...'0123456789០១២៣៤៥៦៧៨៩ '],
  [...'aeiouyxkhpbtd ’-ⅷﬃកខ្ញុំжあ😀'],
];
let seed = 14;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
};
const hostile: string[] = [];
for (let n = 0; n < 2000; n++) {
  const mix = ALPHABETS.filter(() => random() < 0.6);
  const chars = (mix.length > 0 ? mix : [ALPHABETS[0]!]).flat();
  hostile.push(Array.from({ length: 200 }, () => chars[Math.floor(random() * chars.length)]).join(''));
}
for (const q of hostile.slice(0, 200)) index.search(q);
// Each query's time is the median of 3 runs, so that a scheduler or GC pause on a shared machine is not taken for
// the query's own cost.
const hostileTimes = hostile.map((q) => {
  const runs = [0, 1, 2].map(() => {
    const t = performance.now();
    index.search(q, { limit: 10 });
    return performance.now() - t;
  }).sort((a, b) => a - b);
  return runs[1]!;
}).sort((a, b) => a - b);
const worst = hostileTimes.at(-1)!;
// The reference: ranking an ordinary broad query ("phum", hundreds of results), measured in this run.
const reference = pageRun(index);
const HOSTILE_LIMIT = 25;
console.log(`hostile queries: ${hostile.length} of 200 characters (NFKD-expanding, combining marks, Khmer signs, digits, mixed), uncached, median of 3 runs each`);
console.log(`  p50 ${us(percentile(hostileTimes, 50))}  p99 ${us(percentile(hostileTimes, 99))}  worst ${us(worst)} ` +
  `(${(worst / reference).toFixed(1)}× ranking "phum" uncached, limit ${HOSTILE_LIMIT}×; before the fix: about 1.3 s, 5,000×)`);
if (worst > HOSTILE_LIMIT * reference) {
  console.error(`FAIL: a hostile query took ${us(worst)}, over ${HOSTILE_LIMIT}× the reference (${us(reference)})`);
  process.exitCode = 1;
}
