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
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGazetteer } from '../src/gazetteer/load.js';
import { csvRow } from '../src/lib/csv.js';
import { distinctAddresses } from './address-inputs.js';

const rows = Number(process.env.ROWS ?? 100_000);
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

function run(name: string, addresses: readonly string[]) {
  const file = join(dir, `${name}.csv`);
  writeFileSync(file, csvRow(['id', 'address']) + addresses.map((a, i) => csvRow([i + 1, a])).join(''));
  const args = ['dist/cli/main.js', 'resolve', file];
  const started = performance.now();
  const child = spawnSync(pinned ? 'taskset' : process.execPath, pinned ? ['-c', cpu, process.execPath, ...args] : args, {
    cwd: new URL('..', import.meta.url), encoding: 'utf8', maxBuffer: 1 << 30,
  });
  const wallSeconds = (performance.now() - started) / 1000;
  if (child.status !== 0) throw new Error(`the CLI failed: ${child.stderr}`);
  // kh-address resolve: N rows: ... (S s, R rows/s; C s of CPU)
  const summary = /(\d+) rows: .*\(([\d.]+) s, (\d+) rows\/s; ([\d.]+) s of CPU\)/.exec(child.stderr);
  if (!summary) throw new Error(`no summary in: ${child.stderr}`);
  const [, n, seconds, perSecond, cpuSeconds] = summary.map(Number) as [number, number, number, number, number];
  return {
    rows: n, distinct: new Set(addresses).size, seconds, rowsPerSecond: perSecond, cpuSeconds,
    rowsPerCpuSecond: Math.round(n / cpuSeconds), microsecondsPerRow: +((cpuSeconds / n) * 1e6).toFixed(1),
    processWallSeconds: +wallSeconds.toFixed(1),
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
