/**
 * HTTP benchmark: kh-address against references that do no application work, in one run on one machine.
 *
 *   npm run bench                      full run (about 20 minutes; --no-fresh: about 12)
 *   npm run bench -- --quick           smoke check (under a minute)
 *   npm run bench -- --only resolve    scenarios whose name contains "resolve" (repeatable)
 *   options: --rounds N --max-rounds N --precision 0.06 --seconds S --warmup S --pipelining P --connections C --no-pin --no-fresh
 *            --no-write --note "about the machine"
 *            --variant other/server.js   also measure another build of the service (e.g. a copy of dist/ with a change:
 *                                        put it beside dist/, as distB/, so that its data paths resolve) as a reference
 *                                        in every scenario, same key and store: an A/B of a change in one run
 *
 * Method (README, Performance, explains why each choice):
 * - Every server is the production build (what `npm start` runs, `dist/server.bundle.js`, with its Node flags), pinned with `taskset` to CPU 0; the
 *   load generator (autocannon, in this process) is pinned to the last CPU. Server and generator never compete.
 * - Each run of a static answer (same-bytes reference) is made on a fresh process (started for it, warmed up on the
 *   scenario's requests for the warm-up time, stopped after; --no-fresh: one process per server for the whole
 *   benchmark, faster, but each process's own bias stays in every round). Computed answers (resolve, search, reverse)
 *   keep one long-lived process per server: their memos and caches build over more than a warm-up. A long-lived
 *   kh-address process runs every scenario (for static ones, their warm-ups): the peak RSS.
 * - For each scenario, the service and its references are warmed up once, then measured in interleaved rounds (order
 *   reversed every round) of short runs, each started on an idle server. References: for static answers, same bytes
 *   (bare Fastify replaying the exact status, headers and body captured from the service); for computed answers,
 *   Fastify hello-world; for the headline route (GET /v1/districts/12) also hello-world and the service without its
 *   API-key gate. All run with `npm start`'s Node flags and kh-address's logger settings (pino, info, no request log).
 * - Each round gives a paired ratio (service / reference, measured seconds apart); the report is the median of the
 *   rounds and their range. Beside req/s, each run reads the server's CPU time from /proc: CPU µs per request, which
 *   other tenants of a shared machine do not change, so its ratio repeats where req/s drifts.
 * - The generator's own CPU is watched: a run where it used more than 90% of its core is flagged (then the
 *   generator, not the server, set the pace).
 * Writes bench/results/latest.json with the machine it ran on (not with --only or --no-write).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from './ports.js';
import { loadGazetteer } from '../src/gazetteer/load.js';
import { benchmarkStore, cpuSeconds, START_ENTRY, START_FLAGS, statusMb } from './server-process.js';
import { median, medianInterval } from './stats.js';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    rounds: { type: 'string' },
    'max-rounds': { type: 'string' },
    precision: { type: 'string' },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    pipelining: { type: 'string' },
    connections: { type: 'string' },
    'no-pin': { type: 'boolean', default: false },
    /** Each run of a static answer on a fresh server process (the default but with --quick); --no-fresh: one process each. */
    fresh: { type: 'boolean' },
    'no-fresh': { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    /** Said about the machine in the results (e.g. that it was shared). */
    note: { type: 'string' },
    /** Another build's server entry, measured beside the service in every scenario. */
    variant: { type: 'string' },
  },
});
const quick = flags.quick;
const SETTINGS = {
  connections: Number(flags.connections ?? 100),
  pipelining: Number(flags.pipelining ?? 10),
  rounds: Number(flags.rounds ?? (quick ? 1 : 5)),
  /** More rounds, up to this, while the 95% interval of a median ratio is wider than `precision`. */
  maxRounds: Number(flags['max-rounds'] ?? flags.rounds ?? (quick ? 1 : 7)),
  precision: Number(flags.precision ?? 0.06),
  seconds: Number(flags.seconds ?? (quick ? 1 : 3)),
  warmupSeconds: Number(flags.warmup ?? (quick ? 0.5 : 2)),
  startups: flags.only ? 0 : quick ? 1 : 3,
  sameBytes: !quick,
  /**
   * Each round measures every contender of a static answer on a process started for that round (then warmed up on
   * the scenario's requests and stopped after its run), not on one process for all rounds: two processes of the same
   * build differ by up to 9% in CPU per request for as long as they live (code and heap laid out differently), so one
   * process per contender made a bias that no number of rounds averaged out (README, Performance).
   */
  fresh: flags.fresh ?? (!quick && !flags['no-fresh']),
};

const root = new URL('..', import.meta.url).pathname;
/** Node's flags in `npm start` (package.json): every server runs as production does, references included. */

/** CPU pinning: servers on CPU 0, this process (the load generator) on the last CPU; none on a 1-CPU machine. */
function pinning(): { serverCpu: number; loadCpu: number } | null {
  const cpus = os.availableParallelism();
  if (flags['no-pin'] || cpus < 2) return null;
  try {
    const loadCpu = cpus - 1;
    execFileSync('taskset', ['-a', '-p', '-c', String(loadCpu), String(process.pid)], { stdio: 'ignore' });
    return { serverCpu: 0, loadCpu };
  } catch {
    console.error('taskset not available: server and load generator are not pinned (ratios will spread more)');
    return null;
  }
}
const pins = pinning();

interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  pid: number;
  /** Milliseconds from spawn to the first successful request. */
  readyMs: number;
  /** How it was started (to start another like it). */
  args: string[];
  env: Record<string, string>;
  probe: Probe;
}

interface Probe { path: string; headers?: Record<string, string>; status?: number }

/** Spawns a Node server (pinned when pinning) and polls `probe` until it answers 200. */
/** One request with node:http: the body's bytes exactly as sent (fetch would decompress a gzip or brotli answer). */
async function exchange(base: string, request: autocannon.Request): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = httpRequest(new URL(request.path!, base), { method: request.method, headers: request.headers as Record<string, string> }, resolve);
    outgoing.on('error', reject);
    outgoing.end(request.body as string | undefined);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
  return { status: response.statusCode!, headers, body: Buffer.concat(chunks) };
}

/** Where the servers' logs go (stdout and stderr), shown when something fails. */
let logDir = os.tmpdir();

async function start(name: string, args: string[], env: Record<string, string>, probe: Probe): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const command = pins ? 'taskset' : process.execPath;
  const argv = pins ? ['-c', String(pins.serverCpu), process.execPath, ...START_FLAGS, ...args] : [...START_FLAGS, ...args];
  const log = openSync(join(logDir, `${name.replace(/\W+/g, '-')}.log`), 'a');
  const child = spawn(command, argv, { cwd: root, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', log, log] });
  closeSync(log);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} (${args.join(' ')}) exited with ${child.exitCode}; its log: ${join(logDir, `${name.replace(/\W+/g, '-')}.log`)}`);
    try {
      const response = await fetch(url + probe.path, { headers: probe.headers });
      await response.arrayBuffer();
      if (response.status === (probe.status ?? 200)) return { name, url, child, pid: child.pid!, readyMs: performance.now() - started, args, env, probe };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (performance.now() - started > 30_000) throw new Error(`${name} did not answer within 30 s`);
  }
}

/** A new process started as `server` was. */
function startLike(server: Server): Promise<Server> {
  return start(server.name, server.args, server.env, server.probe);
}

async function stop(server: Server): Promise<void> {
  server.child.kill('SIGTERM');
  if (server.child.exitCode === null) await once(server.child, 'exit');
}


/** The highest resident memory of a process, sampled every 50 ms. */
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

interface Run {
  rps: number;
  /** Server CPU (user + system, all threads) per completed request, µs. */
  cpuUs: number;
  p50: number;
  p99: number;
  requests: number;
  /** Completed with a 2xx status, per second. */
  okRps: number;
  non2xx: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  errors: number;
  /** Share of one core the load generator used during the run. */
  loadCpu: number;
}

/**
 * Waits until a server is idle (under 5% of a core over 100 ms): when autocannon stops, requests already sent are
 * still being answered, and they must not be counted against the next run (with slow routes, seconds of work).
 */
async function settle(server: Server): Promise<void> {
  const deadline = performance.now() + 30_000;
  let before = cpuSeconds(server.pid);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuSeconds(server.pid);
    if (now - before < 0.005 || performance.now() > deadline) return;
    before = now;
  }
}

interface Load {
  connections: number;
  pipelining: number;
}

async function cannon(server: Server, requests: autocannon.Request[], seconds: number, load: Load): Promise<Run> {
  await settle(server);
  const cpuBefore = cpuSeconds(server.pid);
  const selfBefore = process.cpuUsage();
  const startedAt = performance.now();
  const result = await autocannon({ url: server.url, connections: load.connections, pipelining: load.pipelining, duration: seconds, requests });
  const wall = (performance.now() - startedAt) / 1000;
  const self = process.cpuUsage(selfBefore);
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const completed = result.requests.total;
  return {
    rps: completed / result.duration,
    cpuUs: completed ? (cpu / completed) * 1e6 : Number.NaN,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: completed,
    okRps: result['2xx'] / result.duration,
    non2xx: result.non2xx,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count ?? 0])),
    errors: result.errors + result.timeouts,
    loadCpu: (self.user + self.system) / 1e6 / wall,
  };
}

interface Reference {
  /** 'same bytes', 'hello-world', 'no key gate' or 'variant'. */
  kind: string;
  server: Server;
  requests: autocannon.Request[];
}

interface Scenario {
  name: string;
  /** The route, as in the OpenAPI document: a route this build does not have is skipped with a message. */
  route: { method: 'get' | 'post'; path: string };
  requests: autocannon.Request[];
  expectStatus: number;
  /** Replayed by the same-bytes reference (a static answer); computed answers compare with hello-world only. */
  static: boolean;
  /** Minimum share of the reference (`against`), from the issues; undefined: reported only. */
  target?: { against: 'same bytes' | 'hello-world'; minRatio: number };
  /** Also measure the service without its API-key gate (what auth, limits and metering cost). */
  gate?: boolean;
  /** Units of work per request, for a rate beside req/s (e.g. 100 addresses per batch call). */
  perRequest?: { count: number; unit: string };
  /** Connections and pipelining for this scenario, when the defaults would queue seconds of work (slow routes). */
  load?: Load;
}

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : 'n/a');
const range = (xs: number[]) => (xs.length ? xs.map((x) => (x * 100).toFixed(0)).join('-') : 'n/a');

interface Summary { rps: number; cpuUsPerRequest: number; p50: number; p99: number; loadGeneratorCpu: number }
interface Row {
  scenario: string;
  route: string;
  load: Load;
  service: Summary;
  references: (Summary & { kind: string; rounds: number; ratio: number; ratioInterval: number[]; ratioRange: number[]; cpuRatio: number;
    cpuRatioInterval: number[]; cpuRatioRange: number[] })[];
  perRequest: { unit: string; perSecond: number } | null;
  target: Scenario['target'] | null;
  met: boolean | null;
  cpuMet: boolean | null;
  errors: number;
  unexpectedStatuses: Record<string, number>;
  rounds: Record<string, { rps: number; cpuUs: number }>[];
}

/** The run as a Markdown table (bench/results/latest.md), for the README. */
function markdown(report: { date: string; machine: Record<string, unknown>; settings: typeof SETTINGS; results: Row[]; skipped: { scenario: string; reason: string }[];
  memory: { peakRssUnderLoadMb: number | null; rssAfterStartMb: number | null }; startup: { medianMs: number } }): string {
  const cell = (x: number, interval: number[]) => `${pct(x)} (${range(interval)})`;
  const lines = [
    `Run of ${report.date.slice(0, 16).replace('T', ' ')} UTC on ${String(report.machine.cpu)} x ${String(report.machine.cores)}, Node ${String(report.machine.node)}; `
      + `load average ${(report.machine.loadAverageAtStart as number[])[0]} at the start, ${(report.machine.loadAverageAtEnd as number[])[0]} at the end`
      + `${report.machine.note ? ` (${String(report.machine.note)})` : ''}; `
      + `${report.settings.connections} connections, pipelining ${report.settings.pipelining} unless said; ${report.settings.rounds}-${report.settings.maxRounds} rounds of ${report.settings.seconds} s`
      + `${report.settings.fresh ? ', each run of a static answer on a fresh process' : ''}.`,
    '',
    '| scenario | kh-address req/s | reference | its req/s | req/s ratio (95% interval) | CPU µs/request: kh-address / reference | CPU ratio (95% interval) | p50 / p99 ms: kh-address / reference | target |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of report.results) {
    for (const [i, a] of r.references.entries()) {
      const target = r.met !== null && r.target && a.kind === r.target.against ? `>= ${pct(r.target.minRatio)} of ${r.target.against}: req/s ${r.met ? 'met' : '**missed**'}, CPU ${r.cpuMet ? 'met' : '**missed**'}` : '';
      const load = r.load.connections !== report.settings.connections || r.load.pipelining !== report.settings.pipelining ? ` (${r.load.connections} connections, pipelining ${r.load.pipelining})` : '';
      const rate = r.perRequest ? `, ${Math.round(r.perRequest.perSecond).toLocaleString('en')} ${r.perRequest.unit}/s` : '';
      lines.push(`| ${i === 0 ? `${r.scenario}${load}` : ''} | ${i === 0 ? `${Math.round(r.service.rps).toLocaleString('en')}${rate}` : ''} | ${a.kind} | ${Math.round(a.rps).toLocaleString('en')} `
        + `| ${cell(a.ratio, a.ratioInterval)} | ${r.service.cpuUsPerRequest.toFixed(1)} / ${a.cpuUsPerRequest.toFixed(1)} | ${cell(a.cpuRatio, a.cpuRatioInterval)} `
        + `| ${r.service.p50} / ${r.service.p99} ; ${a.p50} / ${a.p99} | ${target} |`);
    }
  }
  for (const s of report.skipped) lines.push('', `Skipped: ${s.scenario} (${s.reason}).`);
  lines.push('', `Peak RSS under load ${report.memory.peakRssUnderLoadMb?.toFixed(0) ?? 'n/a'} MB (${report.memory.rssAfterStartMb?.toFixed(0) ?? 'n/a'} MB after start); `
    + `start to first keyed answer ${report.startup.medianMs.toFixed(0)} ms (median).`, '');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const loadAverageAtStart = os.loadavg().map((l) => Number(l.toFixed(1)));
  const gazetteer = loadGazetteer();
  const { dir, key, env: targetEnv } = await benchmarkStore('kh-bench-');
  logDir = dir;
  const keyed = { 'x-api-key': key };
  const probe = { path: '/v1/provinces', headers: keyed };

  // Time from process start to the first successful (keyed) request, on fresh processes.
  const startups: number[] = [];
  for (let i = 0; i < SETTINGS.startups; i++) {
    const server = await start('kh-address', [START_ENTRY], targetEnv, probe);
    startups.push(server.readyMs);
    await stop(server);
  }

  const target = await start('kh-address', [START_ENTRY], targetEnv, probe);
  const hello = await start('hello-world', ['bench/baseline-server.mjs'], {}, { path: '/' });
  const open = quick ? undefined : await start('no key gate', ['bench/open-server.mjs'], {}, { path: '/v1/provinces' });
  const variant = flags.variant ? await start('variant', [flags.variant], targetEnv, probe) : undefined;
  const rssAfterStartMb = statusMb(target.pid, 'VmRSS');
  const targetRss = new RssSampler(target.pid);
  const helloRss = new RssSampler(hello.pid);
  targetRss.start();
  helloRss.start();

  const openapi = await (await fetch(`${target.url}/openapi.json`)).json() as { paths: Record<string, Record<string, unknown>> };
  const hasRoute = ({ method, path }: Scenario['route']) => Boolean(openapi.paths[path]?.[method]);

  const etag = (await fetch(`${target.url}/v1/provinces`, { headers: keyed })).headers.get('etag')!;
  const searchQueries = [...new Set((JSON.parse(readFileSync(join(root, 'test/search/relevance-cases.json'), 'utf8')) as { q: string }[]).map((c) => c.q))];
  const searchMix = searchQueries.filter((_, i) => i % 4 === 0).slice(0, 60);
  const addresses = (JSON.parse(readFileSync(join(root, 'test/address/eval-cases.json'), 'utf8')) as { input: string }[]).map((c) => c.input);
  // Real addresses of the evaluation set, every fifth (the service caches a resolution after the first request).
  const resolveMix = addresses.filter((_, i) => i % 5 === 0).slice(0, 100);
  const batch = addresses.slice(0, 100);
  const get = (path: string, headers: Record<string, string> = keyed): autocannon.Request => ({ method: 'GET', path, headers });
  // Every request a new address (the evaluation set's, each time with another house number): none is answered from
  // the service's body cache, so this measures the resolver itself.
  let distinct = 0;
  const distinctPath = (query = '') => {
    const n = distinct++;
    return `/v1/resolve?q=${encodeURIComponent(`#${Math.floor(n / addresses.length) + 1}, ${addresses[n % addresses.length]}`)}${query}`;
  };
  const distinctRequest: autocannon.Request = { ...get(distinctPath()), setupRequest: (request) => ({ ...request, path: distinctPath() }) };
  // The same with limit=1: the best candidate only (what a form that fills itself in asks for).
  const bestOnlyRequest: autocannon.Request = { ...get(distinctPath('&limit=1')), setupRequest: (request) => ({ ...request, path: distinctPath('&limit=1') }) };
  // 60 points spread over Cambodia (deterministic), a few of them off the coast or outside.
  const points = Array.from({ length: 60 }, (_, i) => ({ lat: (10.4 + ((i * 0.37) % 4.2)).toFixed(4), lng: (102.4 + ((i * 0.53) % 5.2)).toFixed(4) }));
  const district = gazetteer.byCode('1201')!.id;
  const all: Scenario[] = [
    { name: 'districts of a province (/v1)', route: { method: 'get', path: '/v1/districts/{province_code}' }, requests: [get('/v1/districts/12')],
      expectStatus: 200, static: true, target: { against: 'same bytes', minRatio: 0.9 }, gate: true },
    { name: 'province list', route: { method: 'get', path: '/provinces' }, requests: [get('/provinces')], expectStatus: 200, static: true,
      target: { against: 'same bytes', minRatio: 0.9 } },
    { name: 'district by id', route: { method: 'get', path: '/districts/{id}' }, requests: [get(`/districts/${district}`)], expectStatus: 200, static: true,
      target: { against: 'same bytes', minRatio: 0.9 } },
    { name: 'villages of a commune (/v1)', route: { method: 'get', path: '/v1/villages/{commune_code}' }, requests: [get('/v1/villages/120101')],
      expectStatus: 200, static: true, target: { against: 'same bytes', minRatio: 0.9 } },
    { name: 'lookup by postal code', route: { method: 'get', path: '/lookup/{postcode}' }, requests: [get('/lookup/120101')], expectStatus: 200, static: true,
      target: { against: 'same bytes', minRatio: 0.9 } },
    { name: `search mix (${searchMix.length} queries)`, route: { method: 'get', path: '/search' },
      requests: searchMix.map((q) => get(`/search?q=${encodeURIComponent(q)}`)), expectStatus: 200, static: false, target: { against: 'hello-world', minRatio: 0.4 } },
    { name: '304 revalidation', route: { method: 'get', path: '/v1/provinces' }, requests: [get('/v1/provinces', { ...keyed, 'if-none-match': etag })],
      expectStatus: 304, static: true },
    { name: '401 without a key', route: { method: 'get', path: '/provinces' }, requests: [get('/provinces', {})], expectStatus: 401, static: true },
    { name: `resolve mix (${resolveMix.length} addresses, repeated: cached)`, route: { method: 'get', path: '/v1/resolve' },
      requests: resolveMix.map((q) => get(`/v1/resolve?q=${encodeURIComponent(q)}`)), expectStatus: 200, static: false, load: { connections: 10, pipelining: 1 },
      target: { against: 'hello-world', minRatio: 0.3 } },
    { name: 'resolve, distinct addresses (none cached)', route: { method: 'get', path: '/v1/resolve' }, requests: [distinctRequest], expectStatus: 200,
      static: false, load: { connections: 10, pipelining: 1 }, target: { against: 'hello-world', minRatio: 0.3 } },
    { name: 'resolve, distinct addresses, limit=1 (none cached)', route: { method: 'get', path: '/v1/resolve' }, requests: [bestOnlyRequest], expectStatus: 200,
      static: false, load: { connections: 10, pipelining: 1 } },
    { name: `resolve batch (POST, ${batch.length} addresses)`, route: { method: 'post', path: '/v1/resolve' },
      requests: [{ method: 'POST', path: '/v1/resolve', headers: { ...keyed, 'content-type': 'application/json' }, body: JSON.stringify(batch) }],
      expectStatus: 200, static: false, perRequest: { count: batch.length, unit: 'addresses' }, load: { connections: 2, pipelining: 1 } },
    { name: `reverse (${points.length} points)`, route: { method: 'get', path: '/v1/reverse' },
      requests: points.map(({ lat, lng }) => get(`/v1/reverse?lat=${lat}&lng=${lng}`)), expectStatus: 200, static: false,
      target: { against: 'hello-world', minRatio: 0.5 } },
    { name: 'commune boundary', route: { method: 'get', path: '/v1/boundaries/{code}' }, requests: [get('/v1/boundaries/120101')], expectStatus: 200,
      static: true, target: { against: 'same bytes', minRatio: 0.9 } },
    { name: 'dataset download, provinces (JSON)', route: { method: 'get', path: '/v1/dataset' }, requests: [get('/v1/dataset?level=province')],
      expectStatus: 200, static: true, target: { against: 'same bytes', minRatio: 0.9 } },
    // The whole file is large: 10 connections without pipelining keep a run's queued answers small.
    { name: 'dataset download, all levels (gzip)', route: { method: 'get', path: '/v1/dataset' },
      requests: [get('/v1/dataset', { ...keyed, 'accept-encoding': 'gzip' })], expectStatus: 200, static: true, load: { connections: 10, pipelining: 1 },
      target: { against: 'same bytes', minRatio: 0.9 } },
  ];
  const selected = all.filter((s) => !flags.only || flags.only.some((word) => s.name.includes(word) || s.route.path.includes(word)));
  const skipped: { scenario: string; reason: string }[] = [];
  const scenarios = selected.filter((s) => {
    if (hasRoute(s.route)) return true;
    const reason = `${s.route.method.toUpperCase()} ${s.route.path} is not in this build's OpenAPI document`;
    skipped.push({ scenario: s.name, reason });
    console.error(`  skipped: ${s.name}: ${reason}`);
    return false;
  });

  // Every request of every scenario answers as expected before anything is measured; static answers are captured
  // (exact bytes) for the same-bytes reference.
  const captured = new Map<Scenario, { method: string; url: string; status: number; headers: Record<string, string>; body: string }>();
  for (const scenario of scenarios) {
    for (const [i, request] of scenario.requests.entries()) {
      const response = await exchange(target.url, request);
      const { body } = response;
      if (response.status !== scenario.expectStatus) throw new Error(`${scenario.name}: ${request.method} ${request.path} answered ${response.status}: ${body.toString().slice(0, 300)}`);
      if (i === 0 && scenario.static) {
        const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)));
        captured.set(scenario, { method: request.method!, url: new URL(request.path!, target.url).pathname, status: response.status, headers, body: body.toString('base64') });
      }
    }
  }
  // Where the peak is set: the server's highest RSS so far, after the first requests (which prepare the downloads)
  // and after each scenario.
  console.error(`  server RSS peak after the first request of every scenario: ${targetRss.peakMb?.toFixed(0) ?? 'n/a'} MB`);
  /** A same-bytes server for one scenario: the captured answer on the same route, so it gets the very same requests. */
  const startSameBytes = async (scenario: Scenario) => {
    const answer = captured.get(scenario)!;
    const file = join(dir, 'responses.json');
    writeFileSync(file, JSON.stringify([answer]));
    const [request] = scenario.requests;
    return start('same bytes', ['bench/same-bytes-server.mjs'], { RESPONSES: file },
      { path: request!.path!, headers: request!.headers as Record<string, string>, status: answer.status });
  };

  const rows: Row[] = [];
  /** The highest VmHWM of the fresh kh-address processes (each loaded with one scenario), with --fresh. */
  let freshPeakMb = 0;
  for (const scenario of scenarios) {
    const references: Reference[] = [];
    // Static answers: same bytes (and hello-world too for the headline route, or when same bytes is not run);
    // computed answers: hello-world.
    // Every reference gets the same request headers as kh-address (the key included): the same bytes in, as out.
    const sameBytes = SETTINGS.sameBytes && captured.has(scenario) ? await startSameBytes(scenario) : undefined;
    if (sameBytes) references.push({ kind: 'same bytes', server: sameBytes, requests: scenario.requests });
    if (!references.length || scenario.gate) references.push({ kind: 'hello-world', server: hello, requests: [{ method: 'GET', path: '/', headers: scenario.requests[0]!.headers }] });
    if (open && scenario.gate) references.push({ kind: 'no key gate', server: open, requests: scenario.requests });
    if (variant) references.push({ kind: 'variant', server: variant, requests: scenario.requests });
    const contenders = [{ kind: 'kh-address', server: target, requests: scenario.requests }, ...references];

    // Warm-up: each server's JIT and caches see this scenario's requests before anything counts.
    const load = scenario.load ?? { connections: SETTINGS.connections, pipelining: SETTINGS.pipelining };
    // Fresh processes for static answers (their state is whole after the first request of the warm-up); computed
    // answers build theirs (memos, caches, the young generation's size) over longer than a warm-up: fresh processes
    // measured resolve with distinct addresses at 299 µs of CPU a request, a long-lived one at 244, in two runs of
    // the same hour (2026-11-24). They keep one process per server, warmed up and then measured round after round.
    const fresh = SETTINGS.fresh && scenario.static;
    for (const c of contenders) await cannon(c.server, c.requests, SETTINGS.warmupSeconds, load);
    const rounds: Record<string, Run>[] = [];
    // At least `rounds` rounds; then more, up to `maxRounds`, while the 95% interval of the median ratio against
    // the main reference (req/s or CPU per request) is wider than `precision`.
    const main = references[0]!.kind;
    const width = (values: number[]) => {
      const interval = medianInterval(values);
      return interval.length ? interval[1] - interval[0] : Number.POSITIVE_INFINITY;
    };
    for (let round = 0; round < SETTINGS.maxRounds; round++) {
      if (round >= SETTINGS.rounds) {
        const paired = rounds.filter((r) => r['kh-address']!.requests > 0 && r[main]!.requests > 0);
        if (width(paired.map((r) => r['kh-address']!.rps / r[main]!.rps)) <= SETTINGS.precision
          && width(paired.map((r) => r[main]!.cpuUs / r['kh-address']!.cpuUs)) <= SETTINGS.precision) break;
      }
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      const runs: Record<string, Run> = {};
      for (const c of order) {
        if (!fresh) {
          runs[c.kind] = await cannon(c.server, c.requests, SETTINGS.seconds, load);
          continue;
        }
        const server = await startLike(c.server);
        try {
          await cannon(server, c.requests, SETTINGS.warmupSeconds, load);
          runs[c.kind] = await cannon(server, c.requests, SETTINGS.seconds, load);
          if (c.kind === 'kh-address') freshPeakMb = Math.max(freshPeakMb, statusMb(server.pid, 'VmHWM') ?? 0);
        } finally {
          await stop(server);
        }
      }
      rounds.push(runs);
    }
    const summary = (kind: string) => {
      const runs = rounds.map((r) => r[kind]!);
      return {
        rps: median(runs.map((r) => r.rps)),
        cpuUsPerRequest: median(runs.filter((r) => r.requests > 0).map((r) => r.cpuUs)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        loadGeneratorCpu: Math.max(...runs.map((r) => r.loadCpu)),
      };
    };
    const service = summary('kh-address');
    const against = references.map(({ kind }) => {
      // A run that completed nothing (a server starved of CPU for the whole run, on a shared machine) has no ratio.
      const paired = rounds.filter((r) => r['kh-address']!.requests > 0 && r[kind]!.requests > 0);
      // A batch (perRequest): its units per second (addresses) against the reference's requests per second; against
      // another build of the service (--variant), which answers the same batches, request for request.
      const units = kind === 'variant' ? 1 : scenario.perRequest?.count ?? 1;
      const ratios = paired.map((r) => (r['kh-address']!.rps * units) / r[kind]!.rps);
      const cpuRatios = paired.map((r) => (r[kind]!.cpuUs * units) / r['kh-address']!.cpuUs);
      return {
        kind, ...summary(kind),
        rounds: paired.length,
        ratio: median(ratios), ratioInterval: medianInterval(ratios), ratioRange: ratios.length ? [Math.min(...ratios), Math.max(...ratios)] : [],
        cpuRatio: median(cpuRatios), cpuRatioInterval: medianInterval(cpuRatios), cpuRatioRange: cpuRatios.length ? [Math.min(...cpuRatios), Math.max(...cpuRatios)] : [],
      };
    });
    const errors = rounds.reduce((n, r) => n + r['kh-address']!.errors, 0);
    const unexpected: Record<string, number> = {};
    for (const r of rounds) {
      for (const [code, count] of Object.entries(r['kh-address']!.statuses)) if (Number(code) !== scenario.expectStatus) unexpected[code] = (unexpected[code] ?? 0) + count;
    }
    const unexpectedText = Object.entries(unexpected).map(([code, count]) => `${count} x ${code}`).join(', ');
    const goal = scenario.target ? against.find((a) => a.kind === scenario.target!.against) : undefined;
    // Met by throughput (what a user sees) and by CPU per request (the ratio that repeats on a shared machine).
    const met = goal && scenario.target ? goal.ratio >= scenario.target.minRatio : null;
    const cpuMet = goal && scenario.target ? goal.cpuRatio >= scenario.target.minRatio : null;
    const row: Row = {
      scenario: scenario.name, route: `${scenario.route.method.toUpperCase()} ${scenario.route.path}`, load, service, references: against,
      perRequest: scenario.perRequest
        ? { unit: scenario.perRequest.unit, perSecond: median(rounds.map((r) => r['kh-address']!.okRps)) * scenario.perRequest.count } : null,
      target: scenario.target ?? null, met, cpuMet, errors, unexpectedStatuses: unexpected,
      rounds: rounds.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, { rps: Math.round(v.rps), cpuUs: Number(v.cpuUs.toFixed(1)) }]))),
    };
    rows.push(row);
    if (sameBytes) await stop(sameBytes);
    const per = scenario.perRequest ? ` (${scenario.perRequest.unit} per second against its requests per second)` : '';
    console.error(`  ${scenario.name}${per}: ${against.map((a) => `${pct(a.ratio)} of ${a.kind} req/s (${range(a.ratioInterval)}), ${pct(a.cpuRatio)} of its CPU per request `
      + `(${range(a.cpuRatioInterval)})`).join('; ')}${errors ? ` errors=${errors}` : ''}${unexpectedText ? ` unexpected statuses: ${unexpectedText}` : ''}; `
      + `server RSS peak so far ${targetRss.peakMb?.toFixed(0) ?? 'n/a'} MB`);
  }

  targetRss.stop();
  helloRss.stop();
  // The long-lived process has seen every scenario (their warm-ups, or all their runs without --fresh); a fresh
  // process only its scenario's, start-up included.
  const peakRss = Math.max(targetRss.peakMb ?? 0, freshPeakMb) || null;
  const highWaterMb = statusMb(target.pid, 'VmHWM');
  await Promise.all([stop(target), stop(hello), ...[open, variant].filter((s) => s !== undefined).map(stop)]);
  rmSync(dir, { recursive: true, force: true });

  const machine = {
    cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version,
    platform: `${os.platform()} ${os.release()}`, loadAverageAtStart, loadAverageAtEnd: os.loadavg().map((l) => Number(l.toFixed(1))),
    ...(flags.note ? { note: flags.note } : {}),
  };
  const startupMs = startups.length ? median(startups) : Number.NaN;
  const report = {
    date: new Date().toISOString(),
    mode: quick ? 'quick' : flags.only ? 'partial' : 'full',
    machine,
    settings: { ...SETTINGS, pinning: pins, nodeFlags: START_FLAGS },
    results: rows,
    skipped,
    memory: { peakRssUnderLoadMb: peakRss, rssAfterStartMb, highWaterMarkMb: highWaterMb, helloWorldPeakRssUnderLoadMb: helloRss.peakMb,
      targetMb: 250, met: peakRss !== null && peakRss < 250 },
    startup: { msToFirstSuccessfulRequest: startups, medianMs: startupMs, targetMs: 1500, met: startupMs < 1500 },
  };
  if (!flags['no-write'] && !flags.only && !flags.variant) {
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(join(root, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(root, 'bench/results/latest.md'), markdown(report));
  }

  const num = (n: number, width = 7) => n.toFixed(0).padStart(width);
  console.log(`\nkh-address benchmark (${report.mode}) on ${machine.cpu} x ${machine.cores}, ${machine.memoryGb} GB, Node ${machine.node}, load average ${machine.loadAverageAtEnd.join(' ')}`);
  console.log(`${SETTINGS.connections} connections, pipelining ${SETTINGS.pipelining}; ${SETTINGS.rounds} to ${SETTINGS.maxRounds} interleaved rounds of ${SETTINGS.seconds} s `
    + `(more while a median's 95% interval is wider than ${SETTINGS.precision * 100} points), ${SETTINGS.fresh ? 'static answers each run on a fresh process, ' : ''}after ${SETTINGS.warmupSeconds} s warm-up; `
    + `${pins ? `servers on CPU ${pins.serverCpu}, load generator on CPU ${pins.loadCpu}` : 'not pinned'}\n`);
  console.log('ratio: kh-address req/s / reference req/s; CPU ratio: reference CPU µs per request / kh-address\'s (its share of one core\'s capacity).');
  console.log('A batch (units per request) is counted per unit: its addresses per second against the reference\'s requests per second.');
  console.log('Both: median of the per-round ratios, (95% interval of that median).\n');
  console.log(`${'scenario / reference'.padEnd(38)} ${'req/s'.padStart(7)} ${'ratio (95% i.)'.padStart(14)} ${'CPU µs/req'.padStart(10)} ${'CPU ratio (95% i.)'.padStart(18)} ${'p50/p99 ms'.padStart(11)}`);
  const fixed = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
  for (const r of rows) {
    const verdict = r.met === null ? '' : `  target >= ${pct(r.target!.minRatio)} of ${r.target!.against}: req/s ${r.met ? 'met' : 'MISSED'}, CPU ${r.cpuMet ? 'met' : 'MISSED'}`;
    const extra = r.perRequest ? `  = ${num(r.perRequest.perSecond, 0)} ${r.perRequest.unit}/s` : '';
    const load = r.load.connections !== SETTINGS.connections || r.load.pipelining !== SETTINGS.pipelining ? ` (${r.load.connections} connections, pipelining ${r.load.pipelining})` : '';
    console.log(`${r.scenario.padEnd(38)} ${num(r.service.rps)} ${''.padStart(14)} ${fixed(r.service.cpuUsPerRequest).padStart(10)} ${''.padStart(18)} ${`${r.service.p50}/${r.service.p99}`.padStart(11)}`
      + `${verdict}${extra}${load}${r.errors ? ` errors=${r.errors}` : ''}${Object.keys(r.unexpectedStatuses).length ? ` unexpected statuses: ${JSON.stringify(r.unexpectedStatuses)}` : ''}`);
    for (const a of r.references) {
      console.log(`${`  vs ${a.kind}`.padEnd(38)} ${num(a.rps)} ${`${pct(a.ratio)} (${range(a.ratioInterval)})`.padStart(14)} ${fixed(a.cpuUsPerRequest).padStart(10)} `
        + `${`${pct(a.cpuRatio)} (${range(a.cpuRatioInterval)})`.padStart(18)} ${`${a.p50}/${a.p99}`.padStart(11)}`
        + `  generator ${pct(a.loadGeneratorCpu)} of a core${a.loadGeneratorCpu > 0.9 ? ' (saturated: the generator capped this reference\'s req/s, so the req/s ratio overstates kh-address: read the CPU ratio)' : ''}`);
    }
  }
  for (const s of skipped) console.log(`skipped: ${s.scenario}: ${s.reason}`);
  console.log(`\npeak RSS of the server under load: ${peakRss?.toFixed(0) ?? 'n/a'} MB (target < 250 MB; ${rssAfterStartMb?.toFixed(0) ?? 'n/a'} MB after start; `
    + `${highWaterMb?.toFixed(0) ?? 'n/a'} MB at most, start-up included; hello-world under the same load: ${helloRss.peakMb?.toFixed(0) ?? 'n/a'} MB)`);
  if (startups.length) console.log(`start to first successful request: ${startups.map((s) => s.toFixed(0)).join(', ')} ms, median ${startupMs.toFixed(0)} ms (target < 1500 ms)`);
  if (!flags['no-write'] && !flags.only && !flags.variant) console.log('written: bench/results/latest.json');
}

await main();
