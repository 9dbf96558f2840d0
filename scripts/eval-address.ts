/**
 * Prints hit@1 and hit@5 of the address resolver on the evaluation set, by category and script:
 *   npm run eval:address [-- path/to/cases.json] [--misses]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AddressResolver } from '../src/address/resolve.js';
import { evaluate, type EvalCase } from '../src/address/evaluate.js';
import { loadGazetteer } from '../src/gazetteer/load.js';
import { loadSearchIndex } from '../src/search/load.js';

const args = process.argv.slice(2);
const path = args.find((a) => !a.startsWith('--')) ?? fileURLToPath(new URL('../test/address/eval-cases.json', import.meta.url));
const cases = JSON.parse(readFileSync(path, 'utf8')) as EvalCase[];
const gazetteer = loadGazetteer();
const resolver = new AddressResolver(gazetteer, loadSearchIndex(gazetteer).index);
const report = evaluate(resolver, cases);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(7);
console.log(`${'group'.padEnd(40)} ${'cases'.padStart(6)} ${'hit@1'.padStart(7)} ${'hit@5'.padStart(7)}`);
for (const row of report.groups) console.log(`${row.name.padEnd(40)} ${String(row.cases).padStart(6)} ${pct(row.hit1)} ${pct(row.hit5)}`);
if (args.includes('--misses')) {
  for (const miss of report.misses) console.log(`MISS ${miss.id} [${miss.category}] ${miss.input}\n   expected ${miss.expected} got ${miss.got.join(' ') || '(none)'}`);
}
console.log('\nconfidence band   cases  mean conf  hit@1');
for (const band of report.calibration) console.log(`${band.band.padEnd(16)} ${String(band.cases).padStart(6)} ${band.meanConfidence.toFixed(2).padStart(10)} ${pct(band.hit1)}`);
