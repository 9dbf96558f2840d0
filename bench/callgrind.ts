/**
 * Instructions per request, for `npm run bench:profile -- --callgrind`: a count that does not depend on the machine's
 * load (the CPU-time profile does: other tenants, caches, preemption), so that two builds, or kh-address and its
 * same-bytes reference, can be compared to a fraction of a percent on a shared machine.
 *
 * The server runs under `valgrind --tool=callgrind` (about 50 times slower), instrumentation off during start and
 * warm-up; then on, a short second warm-up (code is translated again with instrumentation), counters zeroed,
 * `amount` requests, a dump. Only the measured window is in the dump. JIT code has no symbols: node's
 * `--perf-basic-prof` writes /tmp/perf-<pid>.map, which names each address range (JS function and file).
 *
 * What instructions do not show: the kernel (syscalls: the socket reads and writes), and time per instruction (a
 * cache miss costs more than an add). They are the part of a request's CPU the process itself executes.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort } from './ports.js';

export interface Counted {
  requests: number;
  /** Write syscalls of the server during the window (one writev per response; a check on `requests`). */
  writes: number;
  /** Requests autocannon sent (with pipelining, more than it counted as answered when it stops). */
  sent: number;
  non2xx: number;
  instructions: number;
  /** Self instructions by group (see groupOf). */
  groups: Map<string, number>;
  /** Self instructions by function (named by symbol, or the perf map for JIT code). */
  functions: Map<string, number>;
  /**
   * With `cacheSim`: every event of the dump (Ir, the simulated cache misses, branches and mispredictions; see
   * CACHE_SIM_ARGS) summed over the window, in all and by group.
   */
  events?: { names: string[]; all: number[]; groups: Map<string, number[]> };
}

/**
 * The events callgrind counts with `--cache-sim=yes --branch-sim=yes`: instructions (Ir), data reads and writes,
 * misses of the simulated first-level instruction and data caches (I1mr, D1mr, D1mw) and of the last level (ILmr,
 * DLmr, DLmw), conditional and indirect branches and their simulated mispredictions (Bcm, Bim).
 */
export const CACHE_SIM_ARGS = ['--cache-sim=yes', '--branch-sim=yes'];

/**
 * Estimated cycles from the events: an instruction 1, a first-level miss 10, a last-level miss 100, a misprediction
 * 10 (the weights of valgrind's and KCachegrind's own "cycle estimation"; a model, not this CPU's timings). Its ratio
 * between two servers says whether the misses make a request's instructions cost more in one than in the other.
 */
export function estimatedCycles(names: string[], values: number[]): number {
  const v = (name: string) => values[names.indexOf(name)] ?? 0;
  return v('Ir') + 10 * (v('I1mr') + v('D1mr') + v('D1mw')) + 100 * (v('ILmr') + v('DLmr') + v('DLmw')) + 10 * (v('Bcm') + v('Bim'));
}

interface PerfEntry { start: bigint; end: bigint; name: string }

function readPerfMap(pid: number): PerfEntry[] {
  const file = `/tmp/perf-${pid}.map`;
  if (!existsSync(file)) return [];
  const entries: PerfEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (!m) continue;
    const start = BigInt(`0x${m[1]}`);
    entries.push({ start, end: start + BigInt(`0x${m[2]}`), name: m[3]! });
  }
  rmSync(file, { force: true });
  // Later entries win (code space reused after a code object died): keep the last one for each start.
  return entries.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

function lookUp(map: PerfEntry[], address: bigint): string | undefined {
  let lo = 0;
  let hi = map.length - 1;
  let found: PerfEntry | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (map[mid]!.start <= address) {
      found = map[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found && address < found.end ? found.name : undefined;
}

/**
 * Self cost per function from a callgrind dump: `self` and `calls` count the first event (Ir), `selfEvents` every
 * event the dump names (see `events`). Cost lines after a `calls=` line are the call's inclusive cost, charged to the
 * caller's inclusive total, not to its self cost.
 */
export function parseDump(text: string): { events: string[]; functions: Map<string, { object: string; self: number; calls: number; selfEvents: number[] }> } {
  const names = { fn: new Map<string, string>(), ob: new Map<string, string>() };
  const functions = new Map<string, { object: string; self: number; calls: number; selfEvents: number[] }>();
  const events = /^events: (.*)$/m.exec(text)?.[1]?.trim().split(/\s+/) ?? ['Ir'];
  let object = '';
  let fn = '';
  let callee = '';
  let afterCall = false;
  const named = (kind: 'fn' | 'ob', value: string) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(value);
    if (!m) return value;
    if (m[2] !== undefined) names[kind].set(m[1]!, m[2]);
    return names[kind].get(m[1]!) ?? value;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const c = line.charCodeAt(0);
    if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 42) {
      // position and cost
      const parts = line.split(' ');
      const cost = Number(parts[1] ?? 0);
      const key = `${object}\u0000${fn}`;
      let entry = functions.get(key);
      if (!entry) functions.set(key, (entry = { object, self: 0, calls: 0, selfEvents: new Array<number>(events.length).fill(0) }));
      if (afterCall) {
        // A call's inclusive cost: the caller's inclusive total (a recursive call is already in it).
        afterCall = false;
        if (callee !== fn) entry.calls += cost;
      } else {
        entry.self += cost;
        // Trailing zero events may be left out of a cost line.
        for (let e = 1; e < events.length && e + 1 < parts.length; e++) entry.selfEvents[e]! += Number(parts[e + 1]);
        entry.selfEvents[0]! += cost;
      }
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const field = line.slice(0, eq);
    const value = line.slice(eq + 1);
    if (field === 'ob') object = named('ob', value);
    else if (field === 'fn') fn = named('fn', value);
    else if (field === 'cfn' || field === 'cfi' || field === 'cfl') {
      if (field === 'cfn') callee = named('fn', value);
    } else if (field === 'cob') named('ob', value);
    else if (field === 'calls') afterCall = true;
  }
  return { events, functions };
}

/** The group of a JS function, from its perf map name ("JS:*admit file:///.../dist/keys/access-control.js:150:3"). */
function jsGroup(name: string): string {
  const url = /\s(\S+?)(?::\d+){1,2}$/.exec(name)?.[1] ?? '';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (nm) return nm[1] === 'fastify' ? 'JS fastify' : `JS npm: ${nm[1]}`;
  const ours = /\/dist[A-Za-z0-9]*\/(.*)$/.exec(url);
  if (ours) return `JS kh-address: ${ours[1]}`;
  if (/bench\/same-bytes-server/.test(url)) return 'JS same-bytes handler';
  const node = /^node:(?:internal\/)?(.*)$/.exec(url);
  if (node) {
    const n = node[1]!;
    if (/^(_http_|http)/.test(n)) return `JS node: ${n}`;
    if (/^(net|stream|streams\/|stream_base)/.test(n)) return 'JS node: net and streams';
    if (/^(timers|process\/task_queues|async_hooks|async_local)/.test(n)) return 'JS node: timers, ticks, async hooks';
    return `JS node: ${n}`;
  }
  if (/^(JS|LazyCompile|Function):/.test(name) && url === '') return 'JS (no file)';
  return 'V8 stubs and handlers (JIT, no file)';
}

/** The group of a function, by its object and symbol (native code) or its perf map name (JIT code). */
function groupOf(object: string, symbol: string, js: string | undefined): string {
  if (js !== undefined) return jsGroup(js);
  if (/^0x[0-9a-f]+$/.test(symbol)) return 'JIT code not in the perf map';
  if (/libc\.so|libc-/.test(object)) return 'libc (memcpy, malloc...)';
  if (/ld-linux/.test(object)) return 'dynamic loader';
  if (/vgpreload|valgrind/.test(object)) return 'valgrind preload';
  if (/^Builtins_/.test(symbol)) {
    if (/Handler$|^Builtins_Interpreter|Bytecode/.test(symbol)) return 'V8 builtins: interpreter';
    if (/^Builtins_(Call|Construct|ArgumentsAdaptor|JSEntry|JSConstruct|CEntry|Generic)/.test(symbol)) return 'V8 builtins: calls, entry';
    if (/IC|LoadIC|StoreIC|KeyedLoad|KeyedStore|Megamorphic/.test(symbol)) return 'V8 builtins: inline caches';
    if (/String|RegExp/.test(symbol)) return 'V8 builtins: strings, regexps';
    if (/Map|Set|Hash|OrderedHash|Collection/.test(symbol)) return 'V8 builtins: Map, Set';
    if (/Promise|Async|Microtask|Await/.test(symbol)) return 'V8 builtins: promises, microtasks';
    if (/Array|Object|Clone|Copy|Allocate|Create/.test(symbol)) return 'V8 builtins: objects, arrays';
    return 'V8 builtins: other';
  }
  // Work done once a second whatever the load (under-pressure's event-loop histogram): under valgrind, about 50 times
  // slower, it weighs 50 times as much per request as at full speed.
  if (/^hdr_|all_values_iter|^hdr_iter/.test(symbol)) return 'timers once a second (event-loop histogram): inflated by valgrind';
  if (/^llhttp|^node::http_parser|llhttp/.test(symbol)) return 'node C++: HTTP parser (llhttp)';
  if (/^uv_|^uv__/.test(symbol)) return 'libuv';
  if (/v8::internal::(Heap|Scavenge|MarkCompact|Sweeper|Marking|Evacuat|Concurrent|Minor|Memory|Page|Local|Space|Gc|GC|Young|Old|Incremental|Object(Visitor|StatsCollector)|.*Visitor)/.test(symbol)
    || /Scavenge|MarkCompact|Sweeper|heap::/.test(symbol)) return 'V8: GC';
  if (/v8::internal::(compiler|maglev|baseline|Compiler|Turbofan|Optimiz|Deoptim)/.test(symbol)) return 'V8: compilers, deopt';
  if (/^v8::internal::Runtime_|Runtime_/.test(symbol)) return 'V8: runtime functions';
  if (/^v8::|^v8_|^non-virtual thunk to v8::/.test(symbol)) return 'V8: other C++ (API, handles)';
  if (/^node::crypto|ncrypto|RAND|SHA|EVP_|OPENSSL|CRYPTO/.test(symbol)) return 'node C++: crypto';
  if (/^node::|^non-virtual thunk to node::/.test(symbol)) return 'node C++: other (streams, TCP, buffers, callbacks)';
  if (/sqlite3|better_sqlite|Database|Statement/.test(symbol)) return 'SQLite (better-sqlite3)';
  if (/^std::|^operator (new|delete)|__cxa|__gnu_cxx/.test(symbol)) return 'C++ runtime (new/delete, std::)';
  return `native other: ${object.split('/').pop()}`;
}

/** Waits until the process has used less than 2% of a CPU over 300 ms. */
async function idle(pid: number): Promise<void> {
  const cpu = () => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  for (let before = cpu(); ;) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = cpu();
    if (now - before < 6) return;
    before = now;
  }
}

/** The process's write syscalls so far (/proc/<pid>/io, all threads). */
function writeSyscalls(pid: number): number {
  return Number(/syscw: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);
}

/**
 * callgrind_control finds the process by files named after the user and host; valgrind took the host from the
 * server's HOST variable (127.0.0.1), so the same must be given here. It exits 0 even when it found nothing: its
 * output says.
 */
function control(pid: string, action: string): void {
  const output = execFileSync('callgrind_control', [action, pid], { env: { ...process.env, HOST: '127.0.0.1' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (!/OK\./.test(output)) throw new Error(`callgrind_control ${action} ${pid}: ${output}`);
}

/**
 * Starts `args` (node flags and script) under callgrind, pinned to CPU 0 when `pinned`, waits for `path` to answer
 * 200, warms it up, counts `amount` requests, and returns what the dump says per request.
 */
export async function countServer(options: {
  dir: string; name: string; root: string; nodeArgs: string[]; env: Record<string, string>; path: string; headers: Record<string, string>;
  pinned: boolean; warmup: number; amount: number; connections: number; pipelining: number; onReady?: (url: string) => Promise<void>;
  /** Also simulate the caches and branch predictor (CACHE_SIM_ARGS): about twice as slow again. */
  cacheSim?: boolean;
  /**
   * With cacheSim: the simulated last-level cache as valgrind's `--LL=size,associativity,line size` (by default the
   * machine's last level, read by valgrind). Valgrind simulates two levels only: `1048576,8,64` makes its last level a
   * 1 MiB second level, to count the misses that go past it.
   */
  lastLevel?: string;
}): Promise<Counted> {
  const { dir, name, path, headers } = options;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const out = join(dir, `${name}.callgrind`);
  const valgrind = ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, ...(options.cacheSim ? CACHE_SIM_ARGS : []),
    ...(options.cacheSim && options.lastLevel ? [`--LL=${options.lastLevel}`] : []),
    process.execPath, '--perf-basic-prof', ...options.nodeArgs];
  const child: ChildProcess = spawn(options.pinned ? 'taskset' : valgrind[0]!, options.pinned ? ['-c', '0', ...valgrind] : valgrind.slice(1), {
    cwd: options.root, stdio: ['ignore', 'ignore', 'ignore'], env: { ...process.env, ...options.env, PORT: String(port), HOST: '127.0.0.1' },
  });
  const pid = String(child.pid);
  try {
    for (let i = 0; ; i++) {
      const status = await fetch(url + path, { headers }).then(async (response) => (await response.arrayBuffer(), response.status), () => 0);
      if (status === 200) break;
      // 503: the key store's first answer can come too late under valgrind; asked again.
      if (status !== 0 && status !== 503) throw new Error(`${name}: ${path} answered ${status}`);
      if (i > 6000) throw new Error(`${name} did not start under valgrind`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await options.onReady?.(url);
    const load = { url: url + path, headers, connections: options.connections, pipelining: options.pipelining, timeout: 600 };
    await autocannon({ ...load, amount: options.warmup });
    control(pid, '--instr=on');
    await autocannon({ ...load, amount: Math.max(2000, Math.round(options.amount / 2)) });
    control(pid, '--zero');
    const writesBefore = writeSyscalls(child.pid!);
    const result = await autocannon({ ...load, amount: options.amount });
    // autocannon stops when each connection has sent its share; the last pipelined requests are answered after it
    // returns: the dump waits until the server is idle, so that the window holds every request sent.
    await idle(child.pid!);
    control(pid, '--dump=window');
    const writes = writeSyscalls(child.pid!) - writesBefore;
    const dumps = readdirSync(dir).filter((f) => f.startsWith(`${name}.callgrind.`));
    if (dumps.length !== 1) throw new Error(`${name}: expected one dump, found ${dumps.join(', ') || 'none'}`);
    const perfMap = readPerfMap(child.pid!);
    const functions = new Map<string, number>();
    const groups = new Map<string, number>();
    const rows: [string, string, number, number][] = [];
    let instructions = 0;
    const dump = parseDump(readFileSync(join(dir, dumps[0]!), 'utf8'));
    const events = { names: dump.events, all: new Array<number>(dump.events.length).fill(0), groups: new Map<string, number[]>() };
    for (const [key, { object, self, calls, selfEvents }] of dump.functions) {
      const symbol = key.slice(key.indexOf('\u0000') + 1);
      const js = /^0x[0-9a-f]+$/.test(symbol) ? lookUp(perfMap, BigInt(symbol)) : undefined;
      const label = js ?? (symbol === '' ? object : symbol);
      const g = groupOf(object, symbol, js);
      let byGroup = events.groups.get(g);
      if (!byGroup) events.groups.set(g, (byGroup = new Array<number>(dump.events.length).fill(0)));
      selfEvents.forEach((n, e) => { events.all[e]! += n; byGroup![e]! += n; });
      instructions += self;
      groups.set(g, (groups.get(g) ?? 0) + self);
      functions.set(label, (functions.get(label) ?? 0) + self);
      rows.push([g, label, self, self + calls]);
    }
    // Every function with its group, self and inclusive instructions (kept with --keep): what a group is made of.
    writeFileSync(join(dir, `${name}.functions.json`), JSON.stringify(rows.filter((r) => r[2] > 0).sort((a, b) => b[2] - a[2])));
    return { requests: result.requests.total, sent: result.requests.sent, writes, non2xx: result.non2xx, instructions, groups, functions,
      ...(dump.events.length > 1 ? { events } : {}) };
  } finally {
    child.kill('SIGTERM');
    const exited = once(child, 'exit');
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Prints instructions per request by group, each contender side by side, then the top functions of the first. */
export function printCounts(contenders: [string, Counted][], top: number): void {
  // Every request sent is in the window (the dump waits for the server to be idle).
  const per = (c: Counted, n: number | undefined) => (n ?? 0) / c.sent;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);
  for (const [name, c] of contenders) {
    console.log(`${name}: ${c.requests} requests (${c.sent} sent, ${c.non2xx} not 2xx; ${c.writes} write syscalls), ${fmt(per(c, c.instructions)).trim()} instructions per request`);
  }
  const [first] = contenders;
  const last = contenders[contenders.length - 1]!;
  console.log(`\n${contenders.map(([n]) => n.padStart(12)).join(' ')} ${'difference'.padStart(12)}  group (self instructions per request; difference: first - last)`);
  const names = [...new Set(contenders.flatMap(([, c]) => [...c.groups.keys()]))]
    .sort((a, b) => per(first![1], first![1].groups.get(b)) - per(first![1], first![1].groups.get(a)));
  for (const g of names) {
    const values = contenders.map(([, c]) => per(c, c.groups.get(g)));
    if (values.every((v) => v < 50)) continue;
    console.log(`${values.map(fmt).join(' ')} ${fmt(values[0]! - values[values.length - 1]!)}  ${g}`);
  }
  const totals = contenders.map(([, c]) => per(c, c.instructions));
  console.log(`${totals.map(fmt).join(' ')} ${fmt(totals[0]! - totals[totals.length - 1]!)}  all (${last[0]} = ${((totals[totals.length - 1]! / totals[0]!) * 100).toFixed(1)}% of ${first![0]})`);
  // GC and the JIT compilers depend on when they happen to run (a major GC falls in one window and not the next);
  // the once-a-second timers on valgrind's slowness: the rest is the request path itself, what a change moves.
  const noisy = (g: string) => g === 'V8: GC' || g === 'V8: compilers, deopt' || g.startsWith('timers once a second');
  const path = contenders.map(([, c]) => per(c, c.instructions - [...c.groups].filter(([g]) => noisy(g)).reduce((sum, [, n]) => sum + n, 0)));
  console.log(`${path.map(fmt).join(' ')} ${fmt(path[0]! - path[path.length - 1]!)}  all but GC, compilers and timers (${last[0]} = ${((path[path.length - 1]! / path[0]!) * 100).toFixed(1)}% of ${first![0]})`);
  if (contenders.every(([, c]) => c.events)) printCacheSim(contenders, noisy);
  for (const [name, c] of contenders) {
    console.log(`\n${name}: top ${top} functions (self instructions per request)`);
    for (const [fn, n] of [...c.functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${fmt(per(c, n))}  ${fn}`);
  }
}

/**
 * With --cache-sim: per request, the simulated misses and mispredictions of each contender and the estimated cycles
 * (estimatedCycles), on the request path (as above, without GC, compilers and timers) and in all; then the groups
 * whose estimated cycles differ most.
 */
function printCacheSim(contenders: [string, Counted][], noisy: (group: string) => boolean): void {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(12);
  const names = contenders[0]![1].events!.names;
  const pathOf = (c: Counted) => {
    const sum = new Array<number>(names.length).fill(0);
    for (const [g, values] of c.events!.groups) if (!noisy(g)) values.forEach((n, e) => { sum[e]! += n; });
    return sum;
  };
  const rows: [string, (values: number[]) => number][] = [
    ['instructions (Ir)', (v) => v[names.indexOf('Ir')]!],
    ['first-level instruction misses (I1mr)', (v) => v[names.indexOf('I1mr')] ?? 0],
    ['first-level data misses (D1mr + D1mw)', (v) => (v[names.indexOf('D1mr')] ?? 0) + (v[names.indexOf('D1mw')] ?? 0)],
    ['last-level misses (ILmr + DLmr + DLmw)', (v) => (v[names.indexOf('ILmr')] ?? 0) + (v[names.indexOf('DLmr')] ?? 0) + (v[names.indexOf('DLmw')] ?? 0)],
    ['mispredicted branches (Bcm + Bim)', (v) => (v[names.indexOf('Bcm')] ?? 0) + (v[names.indexOf('Bim')] ?? 0)],
    ['estimated cycles (Ir + 10 L1m + 100 LLm + 10 Bm)', (v) => estimatedCycles(names, v)],
  ];
  const last = contenders[contenders.length - 1]!;
  for (const [label, pick] of [['the request path (all but GC, compilers and timers)', pathOf], ['all', (c: Counted) => c.events!.all]] as const) {
    console.log(`\nsimulated caches and branch predictor, per request, ${label}`);
    console.log(`${contenders.map(([n]) => n.padStart(12)).join(' ')} ${'difference'.padStart(12)}  ${'ratio'.padStart(7)}  event`);
    for (const [row, value] of rows) {
      const values = contenders.map(([, c]) => value(pick(c)) / c.sent);
      const ratio = values[values.length - 1]! / values[0]!;
      console.log(`${values.map(fmt).join(' ')} ${fmt(values[0]! - values[values.length - 1]!)}  ${(ratio * 100).toFixed(1).padStart(6)}%  ${row} (${last[0]} / ${contenders[0]![0]})`);
    }
  }
  const perGroup = (c: Counted, g: string, pick: (values: number[]) => number) => { const v = c.events!.groups.get(g); return v ? pick(v) / c.sent : 0; };
  const cycles = (c: Counted, g: string) => perGroup(c, g, (v) => estimatedCycles(names, v));
  const groups = [...new Set(contenders.flatMap(([, c]) => [...c.events!.groups.keys()]))]
    .map((g) => [g, cycles(contenders[0]![1], g) - cycles(last[1], g)] as const)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 15);
  const firstLevel = rows[1]![1];
  const data = rows[2]![1];
  const lastLevel = rows[3]![1];
  console.log('\nper request by group, largest differences in estimated cycles first: estimated cycles, instructions, first-level '
    + 'misses (instruction + data), last-level misses; each for ' + contenders.map(([n]) => n).join(', '));
  const cell = (n: number) => Math.round(n).toLocaleString('en-US').padStart(8);
  for (const [g] of groups) {
    const columns = [(c: Counted) => cycles(c, g), (c: Counted) => perGroup(c, g, rows[0]![1]),
      (c: Counted) => perGroup(c, g, (v) => firstLevel(v) + data(v)), (c: Counted) => perGroup(c, g, lastLevel)];
    console.log(`${columns.map((column) => contenders.map(([, c]) => cell(column(c))).join(' ')).join('  |')}  ${g}`);
  }
}
