/**
 * HTTP benchmark: kh-address against the framework's own ceiling, in one run on one machine.
 *
 *   npm run bench               full run (about 10 minutes)
 *   npm run bench -- --quick    smoke check (under a minute)
 *
 * Starts the production build (dist/, real SQLite store, real API-key gate and metering, a key on a plan whose limits
 * never interfere) and a bare Fastify hello-world with the same Fastify and logger settings, then for each scenario
 * alternates baseline and target runs of autocannon (100 connections, pipelining 1 and 10; warm-up, then a timed
 * window), repeats, and compares medians. Ratios measured side by side are what to read: machines are shared and noisy.
 * Writes bench/results/latest.json with the machine it ran on.
 *
 * The full run also measures a second reference, `same bytes`: Fastify answering with kh-address's exact status,
 * headers and body for the scenario, as constants. Hello-world's 17-byte body is cheap for the load generator too;
 * on a 2-core machine it shares the CPU, so the same-bytes ratio shows how much of a gap is the response's size.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { loadGazetteer } from '../src/gazetteer/load.js';
import { createKey } from '../src/keys/issue-keys.js';
import { openStore } from '../src/keys/open-store.js';

const quick = process.argv.includes('--quick');
const SETTINGS = quick
  ? { connections: 100, pipelining: [10], rounds: 1, warmupSeconds: 0.5, seconds: 1.5, startups: 1, sameBytes: false }
  : { connections: 100, pipelining: [1, 10], rounds: 3, warmupSeconds: 2, seconds: 5, startups: 3, sameBytes: true };

const root = new URL('..', import.meta.url).pathname;
/** Node's flags in `npm start` (package.json): the benchmark runs the server as production does. */
const START_FLAGS = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  .split(/\s+/).filter((word) => word.startsWith('--'));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

interface Server {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the first successful request. */
  readyMs: number;
}

/** Spawns a server and polls `probe` until it answers 200. */
async function start(args: string[], env: Record<string, string>, probe: { path: string; headers?: Record<string, string> }): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      const response = await fetch(url + probe.path, { headers: probe.headers });
      await response.arrayBuffer();
      if (response.status === 200) return { url, child, readyMs: performance.now() - started };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (performance.now() - started > 30_000) throw new Error(`${args.join(' ')} did not answer within 30 s`);
  }
}

async function stop(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  if (server.child.exitCode === null) await once(server.child, 'exit');
}

/** A field of /proc/<pid>/status in MB (Linux): VmRSS (resident now) or VmHWM (the most ever, start-up included). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** The highest resident memory of a process while it is under load, sampled every 50 ms. */
class RssSampler {
  peakMb: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly pid: number) {}
  start(): void {
    this.timer = setInterval(() => {
      const rss = statusMb(this.pid, 'VmRSS');
      if (rss !== null && (this.peakMb === null || rss > this.peakMb)) this.peakMb = rss;
    }, 50);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function cannon(url: string, options: { pipelining: number; seconds: number; requests?: autocannon.Request[]; headers?: Record<string, string> }): Promise<Measure> {
  const result = await autocannon({
    url,
    connections: SETTINGS.connections,
    pipelining: options.pipelining,
    duration: options.seconds,
    headers: options.headers,
    requests: options.requests,
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

interface Scenario {
  name: string;
  /** Minimum share of the baseline's req/s (the targets of the benchmark issue); undefined: reported only. */
  minRatio?: number;
  /** Highest p99 as a multiple of the baseline's. */
  maxP99Ratio?: number;
  requests: autocannon.Request[];
  expectStatus: number;
}

async function main(): Promise<void> {
  const gazetteer = loadGazetteer();
  const dir = mkdtempSync(join(os.tmpdir(), 'kh-bench-'));
  const databaseUrl = `sqlite:${join(dir, 'keys.db')}`;
  const store = await openStore(databaseUrl);
  await store.createPlan({ name: 'benchmark', monthlyQuota: 1_000_000_000_000, perSecond: 1_000_000_000 });
  const { key } = await createKey(store, { plan: 'benchmark', name: 'benchmark' });
  await store.close();
  const keyed = { 'x-api-key': key };
  const targetEnv = { DATABASE_URL: databaseUrl, DEV_KEY: 'off', LOG_LEVEL: 'info', NODE_ENV: 'production' };
  const probe = { path: '/v1/provinces', headers: keyed };

  // Time from process start to the first successful (keyed) request, on fresh processes.
  const startups: number[] = [];
  for (let i = 0; i < SETTINGS.startups; i++) {
    const server = await start([...START_FLAGS, 'dist/server.js'], targetEnv, probe);
    startups.push(server.readyMs);
    await stop(server);
  }

  const target = await start([...START_FLAGS, 'dist/server.js'], targetEnv, probe);
  const baseline = await start(['bench/baseline-server.mjs'], {}, { path: '/' });
  const open = await start([...START_FLAGS, 'bench/open-server.mjs'], {}, { path: '/v1/provinces' });
  const rssAfterStartMb = statusMb(target.child.pid!, 'VmRSS');
  const underLoad = new RssSampler(target.child.pid!);
  const baselineUnderLoad = new RssSampler(baseline.child.pid!);

  const etag = (await fetch(`${target.url}/v1/provinces`, { headers: keyed })).headers.get('etag')!;
  const searchQueries = [...new Set((JSON.parse(readFileSync(join(root, 'test/search/relevance-cases.json'), 'utf8')) as { q: string }[]).map((c) => c.q))];
  const mix = searchQueries.filter((_, i) => i % 4 === 0).slice(0, 60);
  const district = gazetteer.byCode('1201')!.id;
  // Real addresses of the evaluation set, every fifth (different each request of the mix: cached after the first).
  const addresses = (JSON.parse(readFileSync(join(root, 'test/address/eval-cases.json'), 'utf8')) as { input: string }[])
    .map((c) => c.input).filter((_, i) => i % 5 === 0).slice(0, 100);
  const scenarios: Scenario[] = [
    { name: 'province list', requests: [{ path: '/provinces', headers: keyed }], minRatio: 0.8, maxP99Ratio: 2, expectStatus: 200 },
    { name: 'district by id', requests: [{ path: `/districts/${district}`, headers: keyed }], minRatio: 0.8, maxP99Ratio: 2, expectStatus: 200 },
    { name: 'villages of a commune (/v1)', requests: [{ path: '/v1/villages/120101', headers: keyed }], minRatio: 0.8, maxP99Ratio: 2, expectStatus: 200 },
    { name: 'lookup by postal code', requests: [{ path: '/lookup/120101', headers: keyed }], minRatio: 0.8, maxP99Ratio: 2, expectStatus: 200 },
    { name: `search mix (${mix.length} queries)`, requests: mix.map((q) => ({ path: `/search?q=${encodeURIComponent(q)}`, headers: keyed })), minRatio: 0.4, expectStatus: 200 },
    { name: `resolve mix (${addresses.length} addresses, /v1)`, requests: addresses.map((q) => ({ path: `/v1/resolve?q=${encodeURIComponent(q)}`, headers: keyed })), minRatio: 0.3, expectStatus: 200 },
    { name: 'resolve batch of 100 (POST /v1)', requests: [{ method: 'POST', path: '/v1/resolve', headers: { ...keyed, 'content-type': 'application/json' }, body: JSON.stringify(addresses.slice(0, 100)) }], expectStatus: 200 },
    { name: '304 revalidation', requests: [{ path: '/v1/provinces', headers: { ...keyed, 'if-none-match': etag } }], expectStatus: 304 },
    { name: '401 without a key', requests: [{ path: '/provinces' }], expectStatus: 401 },
  ];
  // --only=<text>: only the scenarios whose name contains it (e.g. --only=resolve), for a short run.
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter((x) => x.name.includes(only)));
  const captured: { status: number; headers: Record<string, string>; body: string }[] = [];
  for (const scenario of scenarios) {
    for (const [i, request] of scenario.requests.entries()) {
      const response = await fetch(target.url + request.path!, { method: request.method ?? 'GET', headers: request.headers as Record<string, string>, body: request.body as string | undefined });
      const body = await response.text();
      if (response.status !== scenario.expectStatus) throw new Error(`${scenario.name}: ${request.path} answered ${response.status}`);
      const headers = Object.fromEntries([...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(name)));
      if (i === 0) captured.push({ status: response.status, headers, body });
    }
  }
  const responsesFile = join(dir, 'responses.json');
  writeFileSync(responsesFile, JSON.stringify(captured));
  const sameBytes = SETTINGS.sameBytes ? await start(['bench/same-bytes-server.mjs'], { RESPONSES: responsesFile }, { path: '/0' }) : undefined;

  const rows = [];
  // From here on the target is under load (or idle between its runs): its resident memory is sampled throughout.
  underLoad.start();
  baselineUnderLoad.start();
  for (const [index, scenario] of scenarios.entries()) {
    for (const pipelining of SETTINGS.pipelining) {
      const runs: { target: Measure; baseline: Measure; sameBytes?: Measure }[] = [];
      for (let round = 0; round < SETTINGS.rounds; round++) {
        // Alternate which goes first, so that drift hits all alike.
        const all = ['baseline', 'target', ...(sameBytes ? ['sameBytes'] as const : [])] as const;
        const order = round % 2 === 0 ? all : [...all].reverse();
        const measured: Partial<Record<'target' | 'baseline' | 'sameBytes', Measure>> = {};
        for (const which of order) {
          const url = which === 'target' ? target.url : which === 'baseline' ? baseline.url : sameBytes!.url;
          const requests = which === 'target' ? scenario.requests : which === 'baseline' ? [{ path: '/' }] : [{ path: `/${index}` }];
          await cannon(url, { pipelining, seconds: SETTINGS.warmupSeconds, requests });
          measured[which] = await cannon(url, { pipelining, seconds: SETTINGS.seconds, requests });
        }
        runs.push(measured as { target: Measure; baseline: Measure; sameBytes?: Measure });
      }
      const t = { rps: median(runs.map((r) => r.target.rps)), p50: median(runs.map((r) => r.target.p50)), p99: median(runs.map((r) => r.target.p99)) };
      const b = { rps: median(runs.map((r) => r.baseline.rps)), p50: median(runs.map((r) => r.baseline.p50)), p99: median(runs.map((r) => r.baseline.p99)) };
      const ratio = median(runs.map((r) => r.target.rps / r.baseline.rps));
      const sameBytesRatio = sameBytes ? median(runs.map((r) => r.target.rps / r.sameBytes!.rps)) : null;
      const p99Ratio = t.p99 / Math.max(b.p99, 1);
      const errors = runs.reduce((n, r) => n + r.target.errors, 0);
      const unexpected = scenario.expectStatus === 200 ? runs.reduce((n, r) => n + r.target.non2xx, 0) : 0;
      const met = (scenario.minRatio === undefined || ratio >= scenario.minRatio) && (scenario.maxP99Ratio === undefined || p99Ratio <= scenario.maxP99Ratio);
      rows.push({ scenario: scenario.name, pipelining, target: t, baseline: b, ratio, sameBytesRatio, p99Ratio, errors, unexpectedStatuses: unexpected,
        targets: { minRatio: scenario.minRatio ?? null, maxP99Ratio: scenario.maxP99Ratio ?? null }, met: scenario.minRatio === undefined ? null : met });
      console.error(`  ${scenario.name}, pipelining ${pipelining}: ${(ratio * 100).toFixed(0)}% of baseline`);
    }
  }

  // What the API-key gate (auth + metering) costs: the same lookup with and without it, alternated.
  const gate: { with: number; without: number }[] = [];
  for (let round = 0; round < SETTINGS.rounds; round++) {
    const withGate = await cannon(target.url, { pipelining: 10, seconds: SETTINGS.seconds, requests: [{ path: '/lookup/120101', headers: keyed }] });
    const without = await cannon(open.url, { pipelining: 10, seconds: SETTINGS.seconds, requests: [{ path: '/lookup/120101' }] });
    gate.push({ with: withGate.rps, without: without.rps });
  }
  const gateRatio = median(gate.map((g) => g.with / g.without));
  underLoad.stop();
  baselineUnderLoad.stop();
  const peakRss = underLoad.peakMb;
  const highWaterMb = statusMb(target.child.pid!, 'VmHWM');
  await Promise.all([stop(target), stop(baseline), stop(open), ...(sameBytes ? [stop(sameBytes)] : [])]);
  rmSync(dir, { recursive: true, force: true });

  const machine = { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}` };
  const startupMs = median(startups);
  const report = {
    date: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    machine,
    settings: SETTINGS,
    results: rows,
    authAndMetering: { route: '/lookup/120101', pipelining: 10, medianRatio: gateRatio, runs: gate },
    memory: { peakRssUnderLoadMb: peakRss, rssAfterStartMb, highWaterMarkMb: highWaterMb, baselinePeakRssUnderLoadMb: baselineUnderLoad.peakMb,
      targetMb: 200, met: peakRss !== null && peakRss < 200 },
    startup: { msToFirstSuccessfulRequest: startups, medianMs: startupMs, targetMs: 1500, met: startupMs < 1500 },
  };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);

  const pad = (s: string, n: number) => s.padEnd(n);
  const num = (n: number) => n.toFixed(0).padStart(7);
  console.log(`\nkh-address benchmark (${report.mode}) on ${machine.cpu} x ${machine.cores}, ${machine.memoryGb} GB, Node ${machine.node}`);
  console.log(`${SETTINGS.connections} connections; ${SETTINGS.rounds} round(s) of ${SETTINGS.seconds} s after ${SETTINGS.warmupSeconds} s warm-up; medians; baseline = Fastify hello-world\n`);
  console.log(`${pad('scenario', 30)} ${pad('pipe', 4)} ${'req/s'.padStart(7)} ${'base'.padStart(7)} ${'ratio'.padStart(6)}  p50 ms (base)  p99 ms (base)  p99x  same-bytes   target`);
  for (const r of rows) {
    const verdict = r.met === null ? '-' : r.met ? 'met' : 'MISSED';
    const goal = r.targets.minRatio === null ? '' : `>=${r.targets.minRatio * 100}%${r.targets.maxP99Ratio ? `, p99<=${r.targets.maxP99Ratio}x` : ''}`;
    console.log(`${pad(r.scenario, 30)} ${pad(String(r.pipelining), 4)} ${num(r.target.rps)} ${num(r.baseline.rps)} ${(r.ratio * 100).toFixed(0).padStart(5)}%  ${String(r.target.p50).padStart(5)} (${String(r.baseline.p50).padStart(4)})   ${String(r.target.p99).padStart(5)} (${String(r.baseline.p99).padStart(4)})  ${r.p99Ratio.toFixed(1).padStart(4)}  ${(r.sameBytesRatio === null ? '-' : `${(r.sameBytesRatio * 100).toFixed(0)}%`).padStart(10)}   ${verdict} ${goal}${r.errors ? ` errors=${r.errors}` : ''}${r.unexpectedStatuses ? ` non2xx=${r.unexpectedStatuses}` : ''}`);
  }
  console.log(`\nAPI-key gate (auth + metering) on /lookup/120101, pipelining 10: ${(gateRatio * 100).toFixed(0)}% of the same server without it`);
  console.log(`peak RSS of the server under load: ${peakRss?.toFixed(0) ?? 'n/a'} MB (target < 200 MB; ${rssAfterStartMb?.toFixed(0) ?? 'n/a'} MB after start; `
    + `${highWaterMb?.toFixed(0) ?? 'n/a'} MB at most, start-up included; hello-world under the same load: ${baselineUnderLoad.peakMb?.toFixed(0) ?? 'n/a'} MB)`);
  console.log(`start to first successful request: ${startups.map((s) => s.toFixed(0)).join(', ')} ms, median ${startupMs.toFixed(0)} ms (target < 1500 ms)`);
  console.log('written: bench/results/latest.json');
}

await main();
