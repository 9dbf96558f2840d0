/**
 * Where a request's time goes: runs the production build under `node --cpu-prof` (servers pinned to CPU 0, this
 * process, the load generator, to the last CPU), sends a warm-up and then a fixed number of keyed requests, stops
 * the server (SIGTERM: the profile is written at exit) and prints the CPU time of the measured window per request,
 * grouped (Node's HTTP and sockets, Fastify, the router, pino, each of our modules, GC...), from the samples.
 *
 *   npm run bench:profile                                  GET /v1/districts/12 with a key, 100,000 requests
 *   npm run bench:profile -- --path /lookup/120101 --amount 50000 --keep   (--keep: leave the .cpuprofile)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createKey } from '../src/keys/issue-keys.js';
import { openStore } from '../src/keys/open-store.js';

const { values: flags } = parseArgs({
  options: {
    path: { type: 'string', default: '/v1/districts/12' },
    amount: { type: 'string', default: '100000' },
    warmup: { type: 'string', default: '3' },
    pipelining: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    keep: { type: 'boolean', default: false },
    top: { type: 'string', default: '25' },
  },
});
const root = new URL('..', import.meta.url).pathname;
const START_FLAGS = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(/\s+/).filter((word) => word.startsWith('--'));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] }

/** The group a frame's self time belongs to, by where its code lives. */
function group(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return 'V8: garbage collection';
    if (functionName === '(program)') return 'V8/native: (program) (outside JS: syscalls, libuv, JIT)';
    if (functionName === '(idle)') return '(idle)';
    return `native: ${functionName || '(anonymous)'}`;
  }
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (nm) return nm[1] === 'fastify' ? `fastify: ${nm[2]!.replace(/^lib\//, '')}` : `npm: ${nm[1]}`;
  const ours = /\/dist\/(.*)$/.exec(url);
  if (ours) return `kh-address: ${ours[1]}`;
  if (url.startsWith('node:')) {
    const m = /^node:(?:internal\/)?(.*)$/.exec(url)!;
    const name = m[1]!;
    if (/^(_http_|http)/.test(name)) return `node: ${name}`;
    if (/^(net|stream|streams\/|stream_base)/.test(name)) return 'node: net and streams';
    if (/^(timers|process\/task_queues|async_hooks|async_local)/.test(name)) return 'node: timers, ticks, async hooks';
    return `node: ${name}`;
  }
  return url;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

async function main(): Promise<void> {
  const cpus = os.availableParallelism();
  const pinned = cpus >= 2;
  if (pinned) execFileSync('taskset', ['-a', '-p', '-c', String(cpus - 1), String(process.pid)], { stdio: 'ignore' });
  const dir = mkdtempSync(join(os.tmpdir(), 'kh-profile-'));
  const databaseUrl = `sqlite:${join(dir, 'keys.db')}`;
  const store = await openStore(databaseUrl);
  await store.createPlan({ name: 'benchmark', monthlyQuota: 1_000_000_000_000, perSecond: 1_000_000_000 });
  const { key } = await createKey(store, { plan: 'benchmark', name: 'benchmark' });
  await store.close();

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const nodeArgs = [...START_FLAGS, '--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir', dir, 'dist/server.js'];
  const child: ChildProcess = spawn(pinned ? 'taskset' : process.execPath, pinned ? ['-c', '0', process.execPath, ...nodeArgs] : nodeArgs, {
    cwd: root, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, DEV_KEY: 'off', LOG_LEVEL: 'info', NODE_ENV: 'production' },
  });
  const headers = { 'x-api-key': key };
  for (let i = 0; ; i++) {
    try {
      const response = await fetch(url + flags.path, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${flags.path} answered ${response.status}`);
      break;
    } catch (error) {
      if (error instanceof Error && error.message.includes('answered')) throw error;
      if (i > 3000) throw new Error('server did not start', { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const load = { url: url + flags.path, headers, connections: Number(flags.connections), pipelining: Number(flags.pipelining) };
  await autocannon({ ...load, duration: Number(flags.warmup) });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const windowStart = performance.now();
  const result = await autocannon({ ...load, amount: Number(flags.amount) });
  const windowMs = performance.now() - windowStart;
  child.kill('SIGTERM');
  await once(child, 'exit');
  const stoppedAfterMs = performance.now() - windowStart;

  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no .cpuprofile written');
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // Samples from the start of the measured load to the end of the profile (the exit follows the load at once).
  const windowStartUs = profile.endTime - stoppedAfterMs * 1000;
  const self = new Map<string, number>();
  const fns = new Map<string, number>();
  let t = profile.startTime;
  let busyUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i]!;
    t += delta;
    if (t < windowStartUs) continue;
    const frame = byId.get(profile.samples[i]!)!.callFrame;
    const g = group(frame);
    if (g === '(idle)') continue;
    busyUs += delta;
    self.set(g, (self.get(g) ?? 0) + delta);
    const fn = `${frame.functionName || '(anonymous)'} ${frame.url ? `${frame.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${frame.lineNumber + 1}` : ''}`;
    fns.set(fn, (fns.get(fn) ?? 0) + delta);
  }
  const requests = result.requests.total;
  const per = (us: number) => (us / requests).toFixed(2).padStart(7);
  console.log(`\n${flags.path} with a key: ${requests} requests (${result.non2xx} not 2xx) in ${(windowMs / 1000).toFixed(1)} s, ${Math.round(requests / (windowMs / 1000))} req/s; `
    + `pipelining ${load.pipelining}, ${load.connections} connections; ${pinned ? 'server on CPU 0, load generator on CPU ' + (cpus - 1) : 'not pinned'}`);
  console.log(`CPU time sampled in the window (not idle): ${(busyUs / 1000).toFixed(0)} ms = ${per(busyUs).trim()} µs per request (shutdown included: a few ms)\n`);
  console.log('µs/request  share  group (self time)');
  for (const [g, us] of [...self].sort((a, b) => b[1] - a[1])) {
    if (us / busyUs < 0.003) continue;
    console.log(`${per(us)}  ${((us / busyUs) * 100).toFixed(1).padStart(5)}%  ${g}`);
  }
  console.log(`\ntop ${flags.top} functions (self time)`);
  for (const [fn, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, Number(flags.top))) {
    console.log(`${per(us)}  ${((us / busyUs) * 100).toFixed(1).padStart(5)}%  ${fn}`);
  }
  if (flags.keep) console.log(`\nprofile kept: ${join(dir, file)}`);
  else rmSync(dir, { recursive: true, force: true });
}

await main();
