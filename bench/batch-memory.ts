/**
 * Peak memory of the batch route, A/B: for each build given (alternately, `rounds` times), a fresh server (pinned
 * to CPU 0, `npm start`'s flags) under `seconds` of POST /v1/resolve with the benchmark's 100 addresses (2
 * connections, as bench/http.ts), VmRSS sampled every 25 ms; prints the RSS after start, the peak, and the server's
 * CPU per batch (schedstat, all threads).
 *
 *   node --import tsx bench/batch-memory.ts [--rounds 3] [--seconds 10] dist/server.js distB/server.js
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from './ports.js';
import { benchmarkStore, cpuSeconds, START_ENTRY, START_FLAGS, statusMb } from './server-process.js';
import { median } from './stats.js';

const { values: flags, positionals } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '10' } }, allowPositionals: true,
});
const builds = positionals.length ? positionals : [START_ENTRY];
const root = new URL('..', import.meta.url).pathname;

const cpuMs = (pid: number) => cpuSeconds(pid) * 1000;
const rssMb = (pid: number) => statusMb(pid, 'VmRSS') ?? 0;

const { dir, key, env } = await benchmarkStore('kh-batch-memory-');
const addresses = (JSON.parse(readFileSync(join(root, 'test/address/eval-cases.json'), 'utf8')) as { input: string }[]).map((c) => c.input);
const body = JSON.stringify(addresses.slice(0, 100));

async function measure(entry: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn('taskset', ['-c', '0', process.execPath, ...START_FLAGS, entry], {
    cwd: root, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        if ((await fetch(`${url}/health`)).status === 200) break;
      } catch {
        // not yet
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const afterStart = rssMb(child.pid!);
    let peak = afterStart;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(child.pid!));
    }, 25);
    const cpuBefore = cpuMs(child.pid!);
    const result = await autocannon({
      url, connections: 2, pipelining: 1, duration: Number(flags.seconds),
      requests: [{ method: 'POST', path: '/v1/resolve', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body }],
    });
    const cpuPerBatch = (cpuMs(child.pid!) - cpuBefore) / result.requests.total;
    clearInterval(sampler);
    if (result.non2xx) throw new Error(`${entry}: ${result.non2xx} answers not 2xx`);
    return { afterStart, peak, cpuPerBatch, batches: result.requests.total };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

const results = new Map<string, Awaited<ReturnType<typeof measure>>[]>(builds.map((b) => [b, []]));
for (let round = 0; round < Number(flags.rounds); round++) {
  for (const entry of round % 2 ? [...builds].reverse() : builds) {
    const r = await measure(entry);
    results.get(entry)!.push(r);
    console.log(`${entry}: ${r.afterStart.toFixed(0)} MB after start, peak ${r.peak.toFixed(0)} MB, ${r.cpuPerBatch.toFixed(1)} ms CPU per batch (${r.batches} batches)`);
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`\nload average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const [entry, rs] of results) {
  console.log(`${entry}: peak RSS median ${median(rs.map((r) => r.peak)).toFixed(0)} MB (${rs.map((r) => r.peak.toFixed(0)).join(', ')}), `
    + `CPU per batch median ${median(rs.map((r) => r.cpuPerBatch)).toFixed(1)} ms`);
}
