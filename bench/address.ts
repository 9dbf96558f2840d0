/**
 * Address resolution speed, in process: npm run bench:address (half a minute). Pin it for steadier figures:
 * taskset -c 1 npm run bench:address.
 * - The evaluation set's inputs: per-address latency (p50, p90, p99, max) over several rounds after a warm-up, and
 *   addresses per second on one core.
 * - Hostile inputs (bench/address-inputs.ts: 500 characters dense with place names in both scripts, typos, digits,
 *   unit words, namesakes, combining marks, NFKD expanders): each one's median over several resolves, the worst, and
 *   its ratio to the evaluation set's p99.
 * Wall-clock and CPU time (user + system, process.cpuUsage) both: on a shared machine the wall clock also counts the
 * time other processes held the core, the CPU time does not.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { AddressInputError, AddressResolver } from '../src/address/resolve.js';
import { loadGazetteer } from '../src/gazetteer/load.js';
import { loadSearchIndex } from '../src/search/load.js';
import { hostileInputs } from './address-inputs.js';

const cases = JSON.parse(readFileSync(new URL('../test/address/eval-cases.json', import.meta.url), 'utf8')) as { input: string }[];
const inputs = cases.map((c) => c.input);
const gazetteer = loadGazetteer();
const started = performance.now();
const resolver = new AddressResolver(gazetteer, loadSearchIndex(gazetteer).index);
const builtMs = performance.now() - started;
const rounds = Number(process.env.ROUNDS ?? 20);
const hostile = hostileInputs(gazetteer);

/** Resolves one input; hostile ones may be refused (AddressInputError), which is part of their cost. */
function resolve(input: string): void {
  try {
    resolver.resolve(input);
  } catch (error) {
    if (!(error instanceof AddressInputError)) throw error;
  }
}

/** Wall and CPU milliseconds of one resolve (CPU of the whole process: GC helper threads included). */
function timed(input: string): [number, number] {
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  resolve(input);
  const wall = Number(process.hrtime.bigint() - t) / 1e6;
  const used = process.cpuUsage(c);
  return [wall, (used.user + used.system) / 1000];
}

/**
 * CPU milliseconds of the main thread alone (Linux: /proc/self/task/<pid>/schedstat, nanoseconds), or null elsewhere.
 * The process's CPU time also counts V8's helper threads: while a concurrent collection marks, a resolve of 1.2 ms of
 * wall time was charged 3.3 ms (two runs of 2026-11-23), which is the collector's work, not the address's.
 */
const mainThread = `/proc/self/task/${process.pid}/schedstat`;
function mainThreadMs(): number | null {
  try {
    return Number(readFileSync(mainThread, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

for (let i = 0; i < 3; i++) {
  for (const q of inputs) resolve(q);
  for (const h of hostile) resolve(h.input);
}

const times = new Float64Array(inputs.length * rounds);
const cpu = new Float64Array(inputs.length * rounds);
let k = 0;
const t0 = performance.now();
const c0 = process.cpuUsage();
for (let r = 0; r < rounds; r++) {
  for (const q of inputs) {
    [times[k], cpu[k]] = timed(q);
    k++;
  }
}
const totalMs = performance.now() - t0;
const totalCpu = process.cpuUsage(c0);
times.sort();
cpu.sort();
const at = (values: Float64Array, p: number) => +values[Math.min(values.length - 1, Math.floor(p * values.length))]!.toFixed(3);

// Hostile inputs: the median of several resolves of each (one resolve can meet a garbage collection).
const hostileRounds = Math.max(5, Math.round(rounds / 2));
const perInput = hostile.map(({ label, input }) => {
  const wall: number[] = [];
  const used: number[] = [];
  const own: number[] = [];
  for (let r = 0; r < hostileRounds; r++) {
    const before = mainThreadMs();
    const [w, c] = timed(input);
    const after = mainThreadMs();
    wall.push(w);
    used.push(c);
    if (before !== null && after !== null) own.push(after - before);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
  return {
    label, length: input.length, wallMs: +median(wall).toFixed(3), cpuMs: +median(used).toFixed(3),
    // Includes reading the schedstat file once (a few µs).
    mainThreadCpuMs: own.length ? +median(own).toFixed(3) : null,
  };
}).sort((a, b) => b.cpuMs - a.cpuMs);
const worst = perInput[0]!;
const evalP99 = at(cpu, 0.99);

console.log(JSON.stringify({
  addresses: inputs.length, rounds, resolverBuildMs: Math.round(builtMs), loadAverage: loadavg()[0]!.toFixed(1),
  wallMs: { p50: at(times, 0.5), p90: at(times, 0.9), p99: at(times, 0.99), max: at(times, 1) },
  cpuMs: { p50: at(cpu, 0.5), p90: at(cpu, 0.9), p99: evalP99, max: at(cpu, 1) },
  addressesPerWallSecond: Math.round((inputs.length * rounds) / (totalMs / 1000)),
  addressesPerCpuSecond: Math.round((inputs.length * rounds) / ((totalCpu.user + totalCpu.system) / 1e6)),
  hostile: {
    inputs: hostile.length, roundsEach: hostileRounds,
    worst: { label: worst.label, cpuMs: worst.cpuMs, wallMs: worst.wallMs, ratioToEvalCpuP99: +(worst.cpuMs / evalP99).toFixed(1) },
    // The same comparison without V8's helper threads: the slowest input by wall time (pinned, on a quiet core: the
    // main thread's work) against the evaluation set's wall p99, and its main thread's CPU.
    worstByWall: (() => {
      const w = [...perInput].sort((a, b) => b.wallMs - a.wallMs)[0]!;
      return { label: w.label, wallMs: w.wallMs, mainThreadCpuMs: w.mainThreadCpuMs, ratioToEvalWallP99: +(w.wallMs / at(times, 0.99)).toFixed(1) };
    })(),
    slowest: perInput.slice(0, 8),
  },
}, null, 2));
