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
// Wall-clock time, and the CPU time this process spent (user + system, microsecond resolution): on a shared machine
// the wall clock also counts the time other processes held the core, the CPU time does not.
const times = new Float64Array(inputs.length * rounds);
const cpu = new Float64Array(inputs.length * rounds);
let k = 0;
const t0 = performance.now();
const c0 = process.cpuUsage();
for (let r = 0; r < rounds; r++) {
  for (const q of inputs) {
    const c = process.cpuUsage();
    const t = process.hrtime.bigint();
    resolver.resolve(q);
    times[k] = Number(process.hrtime.bigint() - t) / 1e6;
    const used = process.cpuUsage(c);
    cpu[k++] = (used.user + used.system) / 1000;
  }
}
const totalMs = performance.now() - t0;
const totalCpu = process.cpuUsage(c0);
times.sort();
cpu.sort();
const at = (values: Float64Array, p: number) => +values[Math.min(values.length - 1, Math.floor(p * values.length))]!.toFixed(3);
console.log(JSON.stringify({
  addresses: inputs.length, rounds, resolverBuildMs: Math.round(builtMs), loadAverage: (await import('node:os')).loadavg()[0]!.toFixed(1),
  wallMs: { p50: at(times, 0.5), p90: at(times, 0.9), p99: at(times, 0.99), max: at(times, 1) },
  cpuMs: { p50: at(cpu, 0.5), p90: at(cpu, 0.9), p99: at(cpu, 0.99), max: at(cpu, 1) },
  addressesPerWallSecond: Math.round((inputs.length * rounds) / (totalMs / 1000)),
  addressesPerCpuSecond: Math.round((inputs.length * rounds) / ((totalCpu.user + totalCpu.system) / 1e6)),
}, null, 2));
