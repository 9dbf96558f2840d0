/**
 * Address resolution speed, in process: per-address latency (p50, p99, max) over the evaluation set's inputs, several
 * rounds after a warm-up, and addresses per second on one core. Run: npm run bench:address (a few seconds).
 */
import { readFileSync } from 'node:fs';
import { AddressResolver } from '../src/address/resolve.js';
import { loadGazetteer } from '../src/gazetteer/load.js';
import { loadSearchIndex } from '../src/search/load.js';

const cases = JSON.parse(readFileSync(new URL('../test/address/eval-cases.json', import.meta.url), 'utf8')) as { input: string }[];
const inputs = cases.map((c) => c.input);
const gazetteer = loadGazetteer();
const started = performance.now();
const resolver = new AddressResolver(gazetteer, loadSearchIndex(gazetteer).index);
const builtMs = performance.now() - started;
const rounds = Number(process.env.ROUNDS ?? 20);

for (let i = 0; i < 3; i++) for (const q of inputs) resolver.resolve(q);
const times = new Float64Array(inputs.length * rounds);
let k = 0;
const t0 = performance.now();
for (let r = 0; r < rounds; r++) {
  for (const q of inputs) {
    const t = process.hrtime.bigint();
    resolver.resolve(q);
    times[k++] = Number(process.hrtime.bigint() - t) / 1e6;
  }
}
const totalMs = performance.now() - t0;
times.sort();
const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
console.log(JSON.stringify({
  addresses: inputs.length, rounds, resolverBuildMs: Math.round(builtMs),
  p50Ms: +at(0.5).toFixed(4), p90Ms: +at(0.9).toFixed(4), p99Ms: +at(0.99).toFixed(4), maxMs: +times[times.length - 1]!.toFixed(3),
  addressesPerSecond: Math.round((inputs.length * rounds) / (totalMs / 1000)),
}, null, 2));
