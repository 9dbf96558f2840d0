/**
 * Throughput of `kh-address resolve` on one core: npm run bench:address-cli (a minute or two).
 *
 * Two CSV files of ROWS rows (default 100,000):
 * - distinct: every row a different address (the evaluation set's inputs, then addresses written from the gazetteer's
 *   chains in nine styles, Khmer, Latin and mixed; see bench/address-inputs.ts), so the CLI's cache of repeats never
 *   helps;
 * - repeated: the evaluation set's 570 inputs over and over (what the cache is for).
 * The CLI runs as its own process, the built one that the package installs as `kh-address` (`node dist/cli/main.js`;
 * the script builds first), pinned to the last CPU with taskset when there is one; the figures are from its summary
 * line: rows per second and CPU seconds of the resolving (the start, loading the gazetteer and the resolver's
 * tables, is reported apart). `npm run cli` runs the same code through tsx, which costs more per row (its helpers
 * name every function made at run time).
 *
 * The machine's speed drifts (by 10% within an hour on a shared VM), so each file is resolved RUNS times (default 3)
 * and the median and range are reported; with --variant other/cli/main.js (a copy of dist/ with a change, built with
 * `npx tsc -p tsconfig.build.json` into it), the other build runs right after each run of this one, on the same file,
 * and each pair's CPU ratio is reported: the comparison that drift does not move.
 *   npm run bench:address-cli                                 100,000 rows, 3 runs of each file
 *   ROWS=1000000 RUNS=2 npm run bench:address-cli -- --variant distB/cli/main.js
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadGazetteer } from '../src/gazetteer/load.js';
import { csvRow } from '../src/lib/csv.js';
import { distinctAddresses } from './address-inputs.js';
import { median } from './stats.js';

const rows = Number(process.env.ROWS ?? 100_000);
const runs = Number(process.env.RUNS ?? 3);
if (!Number.isInteger(runs) || runs < 1) throw new Error('RUNS must be a whole number of at least 1');
const { values: flags } = parseArgs({ options: { variant: { type: 'string' } } });
const MAIN = 'dist/cli/main.js';
const cases = JSON.parse(readFileSync(new URL('../test/address/eval-cases.json', import.meta.url), 'utf8')) as { input: string }[];
const evalInputs = cases.map((c) => c.input);
const distinct = [...new Set([...evalInputs, ...distinctAddresses(loadGazetteer(), rows)])].slice(0, rows);
const repeated = Array.from({ length: rows }, (_, i) => evalInputs[i % evalInputs.length]!);

const dir = mkdtempSync(join(tmpdir(), 'kh-address-bench-'));
const cpu = String(cpus().length - 1);
let pinned = true;
try {
  execFileSync('taskset', ['-c', cpu, 'true'], { stdio: 'ignore' });
} catch {
  pinned = false;
  console.error('taskset not available: the CLI is not pinned');
}

function once(file: string, main: string) {
  const args = [main, 'resolve', file];
  const started = performance.now();
  const child = spawnSync(pinned ? 'taskset' : process.execPath, pinned ? ['-c', cpu, process.execPath, ...args] : args, {
    cwd: new URL('..', import.meta.url), encoding: 'utf8', maxBuffer: 1 << 30,
  });
  const wallSeconds = (performance.now() - started) / 1000;
  if (child.status !== 0) throw new Error(`the CLI failed: ${child.stderr}`);
  // kh-address resolve: N rows: ... (S s, R rows/s; C s of CPU)
  const line = /(\d+) rows: .*\(([\d.]+) s, (\d+) rows\/s; ([\d.]+) s of CPU\)/.exec(child.stderr);
  if (!line) throw new Error(`no summary in: ${child.stderr}`);
  const [, n, seconds, perSecond, cpuSeconds] = line.map(Number) as [number, number, number, number, number];
  return { rows: n, seconds, rowsPerSecond: perSecond, cpuSeconds, processWallSeconds: +wallSeconds.toFixed(1) };
}

/** Rows per CPU-second: the median of the runs, and their range. */
function summary(results: ReturnType<typeof once>[]) {
  const rates = results.map((r) => Math.round(r.rows / r.cpuSeconds));
  const cpu = median(results.map((r) => r.cpuSeconds));
  return {
    rowsPerCpuSecond: Math.round(median(rates)), range: [Math.min(...rates), Math.max(...rates)],
    microsecondsPerRow: +((cpu / results[0]!.rows) * 1e6).toFixed(1), cpuSeconds: results.map((r) => r.cpuSeconds),
  };
}

function run(name: string, addresses: readonly string[]) {
  const file = join(dir, `${name}.csv`);
  writeFileSync(file, csvRow(['id', 'address']) + addresses.map((a, i) => csvRow([i + 1, a])).join(''));
  const own: ReturnType<typeof once>[] = [];
  const other: ReturnType<typeof once>[] = [];
  for (let i = 0; i < runs; i++) {
    own.push(once(file, MAIN));
    if (flags.variant) other.push(once(file, flags.variant));
  }
  // The variant's CPU over this build's, run for run: under 1, the variant is cheaper.
  const ratios = other.map((r, i) => r.cpuSeconds / own[i]!.cpuSeconds);
  return {
    rows: own[0]!.rows, distinct: new Set(addresses).size, runs, ...summary(own),
    ...(flags.variant && {
      variant: { main: flags.variant, ...summary(other) },
      variantCpuRatio: +median(ratios).toFixed(3),
      variantCpuRatioRange: [Math.min(...ratios), Math.max(...ratios)].map((x) => +x.toFixed(3)),
    }),
  };
}

try {
  console.log(JSON.stringify({
    pinnedToCpu: pinned ? Number(cpu) : null, loadAverage: (await import('node:os')).loadavg()[0]!.toFixed(1),
    distinct: run('distinct', distinct), repeated: run('repeated', repeated),
  }, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
