/**
 * Start-up, A/B: starts builds of the server alternately (pinned to CPU 0, `npm start`'s Node flags, the benchmark's
 * environment) and reports, per build, the wall time from spawn to the first keyed 200 and the process's CPU time at
 * that moment (all threads, /proc/<pid>/task/<tid>/schedstat: what other tenants of a shared machine do not change).
 *
 *   node --import tsx bench/startup.ts [--runs 8] [dist/server.bundle.js distB/server.js ...]
 *
 * An entry may carry extra Node flags before it, joined by spaces: 'dist/server.bundle.js' '--some-flag dist/server.bundle.js'.
 *
 * A second build must sit beside dist/ (distB/) so that its data paths resolve.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { freePort } from './ports.js';
import { benchmarkStore, cpuSeconds, START_ENTRY, START_FLAGS } from './server-process.js';
import { median } from './stats.js';

const { values: flags, positionals } = parseArgs({ options: { runs: { type: 'string', default: '8' } }, allowPositionals: true });
const builds = positionals.length ? positionals : [START_ENTRY];
const root = new URL('..', import.meta.url).pathname;

/** CPU time of every thread of `pid`, in ms. */
const cpuMs = (pid: number) => cpuSeconds(pid) * 1000;

async function startOnce(entry: string, env: Record<string, string>, key: string): Promise<{ wallMs: number; cpuMs: number }> {
  const port = await freePort();
  const started = performance.now();
  const words = entry.split(' ');
  const child = spawn('taskset', ['-c', '0', process.execPath, ...START_FLAGS, ...words], {
    cwd: root, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore',
  });
  // taskset execs node: the child's pid is the server's.
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v1/provinces`, { headers: { 'x-api-key': key } });
        await response.arrayBuffer();
        if (response.status === 200) return { wallMs: performance.now() - started, cpuMs: cpuMs(child.pid!) };
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (performance.now() - started > 30_000) throw new Error(`${entry} did not answer within 30 s`);
    }
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

const { dir, key, env } = await benchmarkStore('kh-startup-');

const results = new Map<string, { wallMs: number; cpuMs: number }[]>(builds.map((b) => [b, []]));
for (let run = 0; run < Number(flags.runs); run++) {
  // Alternate the order every run, so that neither build always follows the other.
  for (const entry of run % 2 ? [...builds].reverse() : builds) {
    const r = await startOnce(entry, env, key);
    results.get(entry)!.push(r);
    console.log(`${entry}: ${r.wallMs.toFixed(0)} ms wall, ${r.cpuMs.toFixed(0)} ms CPU`);
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`\nload average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const [entry, rs] of results) {
  console.log(`${entry}: median wall ${median(rs.map((r) => r.wallMs)).toFixed(0)} ms, median CPU ${median(rs.map((r) => r.cpuMs)).toFixed(0)} ms `
    + `(CPU ${rs.map((r) => r.cpuMs.toFixed(0)).join(', ')})`);
}
