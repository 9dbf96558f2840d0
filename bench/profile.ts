/**
 * Where a request's time goes: runs the production build under `node --cpu-prof` (servers pinned to CPU 0, this
 * process, the load generator, to the last CPU), sends a warm-up and then a fixed number of keyed requests, stops
 * the server (SIGTERM: the profile is written at exit) and prints the CPU time of the measured window per request,
 * grouped (Node's HTTP and sockets, Fastify, the router, pino, each of our modules, GC...), from the samples. Then
 * the same for the same-bytes reference (bench/same-bytes-server.mjs replaying the exact answer), side by side:
 * the difference is what kh-address does per request beyond sending those bytes.
 *
 *   npm run bench:profile                                  GET /v1/districts/12 with a key, 100,000 requests
 *   npm run bench:profile -- --path /lookup/120101 --amount 50000 --keep   (--keep: leave the .cpuprofile)
 *   npm run bench:profile -- --resolve-distinct --amount 20000 --connections 10 --pipelining 1
 *                                                          GET /v1/resolve with a new address on every request (the
 *                                                          evaluation set's, each with another house number: none
 *                                                          answered from the body cache); the reference replays the
 *                                                          first answer's bytes; --resolve-query '&limit=1' adds to
 *                                                          each path
 *   npm run bench:profile -- --callgrind --amount 10000    instructions per request under valgrind instead (repeatable
 *                                                          on a busy machine; see bench/callgrind.ts), by group and
 *                                                          function; --variant distB/server.js adds another build;
 *                                                          --cache-sim also simulates the caches and the branch
 *                                                          predictor: misses and estimated cycles per request
 *                                                          (--last-level 1048576,8,64: a 1 MiB last level)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { countServer, printCounts, type Counted } from './callgrind.js';
import { freePort } from './ports.js';
import { benchmarkStore, cpuSeconds, START_ENTRY, START_FLAGS } from './server-process.js';

const { values: flags } = parseArgs({
  options: {
    path: { type: 'string', default: '/v1/districts/12' },
    amount: { type: 'string', default: '100000' },
    warmup: { type: 'string', default: '3' },
    pipelining: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    keep: { type: 'boolean', default: false },
    top: { type: 'string', default: '25' },
    callgrind: { type: 'boolean', default: false },
    'callgrind-warmup': { type: 'string', default: '20000' },
    /** With --callgrind: also simulate the caches and the branch predictor (misses, estimated cycles). */
    'cache-sim': { type: 'boolean', default: false },
    /** With --cache-sim: the simulated last level as valgrind's --LL=size,associativity,line (e.g. 1048576,8,64). */
    'last-level': { type: 'string' },
    variant: { type: 'string' },
    'resolve-distinct': { type: 'boolean', default: false },
    /** Appended to each --resolve-distinct path, e.g. `&limit=1`. */
    'resolve-query': { type: 'string', default: '' },
  },
});
const root = new URL('..', import.meta.url).pathname;

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


/** A coarser grouping, for the README: what each part of a request is for. */
function category(g: string): string {
  if (g === 'native: writev') return 'socket write (writev), one per response';
  if (g.startsWith('V8/native: (program)')) return '(program): native code outside JS (syscalls, libuv, JIT)';
  if (g === 'V8: garbage collection') return 'V8 garbage collection';
  if (g === 'node: crypto/random') return 'correlation id (randomUUID)';
  if (g === 'npm: find-my-way' || g === 'fastify: validation.js' || /^native: (validate\d+|RegExp: \^\[0-9\])/.test(g)) return 'routing and parameter validation';
  if (/^kh-address: (http\/plugins\/api-keys|keys\/)/.test(g) || g === 'npm: better-sqlite3') return 'API-key gate (key, limits, metering, RateLimit headers)';
  if (g.startsWith('kh-address: ')) return 'application (route, payload cache, gazetteer, app-wide hook)';
  if (g.startsWith('fastify: ')) return 'Fastify';
  if (g === 'npm: pino') return 'pino (request loggers)';
  if (g.startsWith('node: ') || g.startsWith('native: ')) return 'Node: HTTP parser, headers, response, sockets, events, ticks';
  return 'other';
}


interface Measured {
  requests: number;
  non2xx: number;
  seconds: number;
  /** Time in the samples (not idle), wall-clock between samples. */
  sampledUs: number;
  /** CPU time the kernel counted for the process (all threads) during the measured load. */
  busyUs: number;
  groups: Map<string, number>;
  functions: Map<string, number>;
  file: string;
}

const cpus = os.availableParallelism();
const pinned = cpus >= 2;

/**
 * Starts `args` under --cpu-prof, waits for `path` to answer 200, loads it (warm-up, then `amount` requests), stops it
 * and reads the samples from the start of the measured load to the exit (which follows at once).
 */
async function profileServer(dir: string, name: string, args: string[], env: Record<string, string>, path: string, headers: Record<string, string>,
  onReady: (url: string) => Promise<void> = async () => undefined): Promise<Measured> {
  const profileDir = join(dir, name);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const nodeArgs = [...START_FLAGS, '--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir', profileDir, ...args];
  const child: ChildProcess = spawn(pinned ? 'taskset' : process.execPath, pinned ? ['-c', '0', process.execPath, ...nodeArgs] : nodeArgs, {
    cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  for (let i = 0; ; i++) {
    const status = await fetch(url + path, { headers }).then(async (response) => (await response.arrayBuffer(), response.status), () => 0);
    if (status === 200) break;
    if (status !== 0) throw new Error(`${name}: ${path} answered ${status}`);
    if (i > 6000) throw new Error(`${name} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await onReady(url);
  const load = { url: url + path, headers, connections: Number(flags.connections), pipelining: Number(flags.pipelining),
    ...(flags['resolve-distinct'] && name === 'kh-address' ? { requests: [{ setupRequest: (request: object) => ({ ...request, path: distinctPath() }) }] } : {}) };
  await autocannon({ ...load, duration: Number(flags.warmup) });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const windowStart = performance.now();
  const cpuBefore = cpuSeconds(child.pid!);
  const result = await autocannon({ ...load, amount: Number(flags.amount) });
  const seconds = (performance.now() - windowStart) / 1000;
  const cpuUs = (cpuSeconds(child.pid!) - cpuBefore) * 1e6;
  child.kill('SIGTERM');
  await once(child, 'exit');
  const stoppedAfterMs = performance.now() - windowStart;

  const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${name}: no .cpuprofile written`);
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const windowStartUs = profile.endTime - stoppedAfterMs * 1000;
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
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
    groups.set(g, (groups.get(g) ?? 0) + delta);
    const fn = `${frame.functionName || '(anonymous)'} ${frame.url ? `${frame.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${frame.lineNumber + 1}` : ''}`;
    functions.set(fn, (functions.get(fn) ?? 0) + delta);
  }
  // The sampler's intervals are wall-clock: time the process spent preempted (by other tenants of a shared machine)
  // is charged to whatever ran before. Scaled to the CPU time the kernel counted, the groups add up to real CPU.
  const scale = cpuUs / busyUs;
  for (const [g, us] of groups) groups.set(g, us * scale);
  for (const [f, us] of functions) functions.set(f, us * scale);
  return { requests: result.requests.total, non2xx: result.non2xx, seconds, sampledUs: busyUs, busyUs: cpuUs, groups, functions, file: join(profileDir, file) };
}

/** For --resolve-distinct: the evaluation set's addresses, each time with another house number (as `npm run bench`). */
const addresses = (JSON.parse(readFileSync(join(root, 'test/address/eval-cases.json'), 'utf8')) as { input: string }[]).map((c) => c.input);
let distinct = 0;
function distinctPath(): string {
  const n = distinct++;
  return `/v1/resolve?q=${encodeURIComponent(`#${Math.floor(n / addresses.length) + 1}, ${addresses[n % addresses.length]}`)}${flags['resolve-query']}`;
}

async function main(): Promise<void> {
  if (pinned) execFileSync('taskset', ['-a', '-p', '-c', String(cpus - 1), String(process.pid)], { stdio: 'ignore' });
  const { dir, databaseUrl, key } = await benchmarkStore('kh-profile-');
  const headers = { 'x-api-key': key };
  const path = flags['resolve-distinct'] ? distinctPath() : flags.path;
  const responses = join(dir, 'responses.json');
  const capture = async (url: string) => {
    const response = await fetch(url + path, { headers });
    const body = Buffer.from(await response.arrayBuffer()).toString('base64');
    const kept = [...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name));
    writeFileSync(responses, JSON.stringify([{ method: 'GET', url: new URL(path, url).pathname, status: response.status, headers: Object.fromEntries(kept), body }]));
  };
  const serviceEnv = { DATABASE_URL: databaseUrl, DEV_KEY: 'off', LOG_LEVEL: 'info', NODE_ENV: 'production' };

  if (flags.callgrind) {
    // Instructions per request (repeatable whatever the machine's load): see bench/callgrind.ts.
    const common = { dir, root, path, headers, pinned, cacheSim: flags['cache-sim'], lastLevel: flags['last-level'], warmup: Number(flags['callgrind-warmup']), amount: Number(flags.amount),
      connections: Number(flags.connections), pipelining: Number(flags.pipelining) };
    const contenders: [string, Counted][] = [];
    // About 50 times slower under valgrind: the load shedder would refuse (its threshold, not its check, is raised),
    // and the usage flush, once a second, would come 50 times as often per request as at full speed.
    const slowEnv = { ...serviceEnv, MAX_EVENT_LOOP_DELAY_MS: '60000', USAGE_FLUSH_MS: '50000', SHUTDOWN_TIMEOUT_MS: '120000' };
    contenders.push(['kh-address', await countServer({ ...common, name: 'kh-address', nodeArgs: [...START_FLAGS, START_ENTRY], env: slowEnv, onReady: capture })]);
    if (flags.variant) contenders.push(['variant', await countServer({ ...common, name: 'variant', nodeArgs: [...START_FLAGS, flags.variant], env: slowEnv })]);
    contenders.push(['same bytes', await countServer({ ...common, name: 'same-bytes', nodeArgs: [...START_FLAGS, 'bench/same-bytes-server.mjs'], env: { RESPONSES: responses } })]);
    console.log(`${path} with a key; pipelining ${flags.pipelining}, ${flags.connections} connections; under valgrind --tool=callgrind, `
      + `${flags['callgrind-warmup']} requests of warm-up, then ${Math.max(2000, Math.round(Number(flags.amount) / 2))} more with instrumentation, then ${flags.amount} counted\n`);
    printCounts(contenders, Number(flags.top));
    if (flags.keep) console.log(`\ndumps kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
    return;
  }

  const service = await profileServer(dir, 'kh-address', [START_ENTRY], serviceEnv, path, headers, capture);
  // The same requests (path and key header) as kh-address got: the same bytes in and out.
  const reference = await profileServer(dir, 'same-bytes', ['bench/same-bytes-server.mjs'], { RESPONSES: responses }, path, headers);

  const per = (m: Measured, us: number | undefined) => (us === undefined ? '-' : (us / m.requests).toFixed(2)).padStart(8);
  for (const [name, m] of [['kh-address', service], ['same bytes', reference]] as const) {
    console.log(`${name}: ${m.requests} requests (${m.non2xx} not 2xx) in ${m.seconds.toFixed(1)} s, ${Math.round(m.requests / m.seconds)} req/s; `
      + `CPU ${per(m, m.busyUs).trim()} µs per request (schedstat; the samples, wall-clock, add up to ${per(m, m.sampledUs).trim()}: groups scaled to the CPU)`);
  }
  console.log(`${path} with a key; pipelining ${flags.pipelining}, ${flags.connections} connections; `
    + `${pinned ? `servers on CPU 0, load generator on CPU ${cpus - 1}` : 'not pinned'}; samples every 50 µs\n`);
  console.log(`${'kh-address'.padStart(10)} ${'same bytes'.padStart(10)} ${'extra'.padStart(8)}  group (self time, µs per request)`);
  const names = [...new Set([...service.groups.keys(), ...reference.groups.keys()])]
    .sort((a, b) => (service.groups.get(b) ?? 0) / service.requests - (service.groups.get(a) ?? 0) / service.requests);
  for (const g of names) {
    const a = (service.groups.get(g) ?? 0) / service.requests;
    const b = (reference.groups.get(g) ?? 0) / reference.requests;
    if (a < 0.1 && b < 0.1) continue;
    console.log(`${a.toFixed(2).padStart(10)} ${b.toFixed(2).padStart(10)} ${(a - b).toFixed(2).padStart(8)}  ${g}`);
  }
  const totalA = service.busyUs / service.requests;
  const totalB = reference.busyUs / reference.requests;
  console.log(`${totalA.toFixed(2).padStart(10)} ${totalB.toFixed(2).padStart(10)} ${(totalA - totalB).toFixed(2).padStart(8)}  all (same bytes = ${((totalB / totalA) * 100).toFixed(0)}% of kh-address's CPU per request)`);
  console.log(`\n${'kh-address'.padStart(10)} ${'same bytes'.padStart(10)} ${'extra'.padStart(8)}  what (µs per request)`);
  const categories = (m: Measured) => {
    const sums = new Map<string, number>();
    for (const [g, us] of m.groups) sums.set(category(g), (sums.get(category(g)) ?? 0) + us / m.requests);
    return sums;
  };
  const ca = categories(service);
  const cb = categories(reference);
  for (const c of [...new Set([...ca.keys(), ...cb.keys()])].sort((x, y) => (ca.get(y) ?? 0) - (ca.get(x) ?? 0))) {
    const a = ca.get(c) ?? 0;
    const b = cb.get(c) ?? 0;
    console.log(`${a.toFixed(2).padStart(10)} ${b.toFixed(2).padStart(10)} ${(a - b).toFixed(2).padStart(8)}  ${c}`);
  }
  console.log(`\nkh-address: top ${flags.top} functions (self time, µs per request)`);
  for (const [fn, us] of [...service.functions].sort((a, b) => b[1] - a[1]).slice(0, Number(flags.top))) console.log(`${per(service, us)}  ${fn}`);
  if (flags.keep) console.log(`\nprofiles kept: ${service.file} ${reference.file}`);
  else rmSync(dir, { recursive: true, force: true });
}

await main();
