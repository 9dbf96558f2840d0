/**
 * What the benchmark scripts (http.ts, profile.ts, startup.ts, batch-memory.ts) share about the servers they start:
 * `npm start`'s node flags, a key of an unlimited plan in a throwaway store, and a process's CPU time and memory read
 * from /proc (Linux).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createKey } from '../src/keys/issue-keys.js';
import { openStore } from '../src/keys/open-store.js';

const root = new URL('..', import.meta.url).pathname;

const startWords = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);

/** The node flags of `npm start` (package.json), given to every server measured, references included. */
export const START_FLAGS = startWords.filter((word) => word.startsWith('--'));

/** The file `npm start` runs (dist/server.bundle.js, the build's one-file bundle of dist/server.js): what is measured. */
export const START_ENTRY = startWords.at(-1)!;

/**
 * A throwaway SQLite key store (in a new temporary directory) with one key of a plan without limits that matter: the
 * directory, the store's URL, the key, and the environment of a production server using it.
 */
export async function benchmarkStore(prefix: string): Promise<{ dir: string; databaseUrl: string; key: string; env: Record<string, string> }> {
  const dir = mkdtempSync(join(os.tmpdir(), prefix));
  const databaseUrl = `sqlite:${join(dir, 'keys.db')}`;
  const store = await openStore(databaseUrl);
  // A billion a month: more than any run sends, and, like every real plan's quota, a small integer for V8 (under
  // 2^31). A quota of 10^12 made the RateLimit header format a double on every request (about 480 instructions).
  await store.createPlan({ name: 'benchmark', monthlyQuota: 1_000_000_000, perSecond: 1_000_000_000 });
  const { key } = await createKey(store, { plan: 'benchmark', name: 'benchmark' });
  await store.close();
  return { dir, databaseUrl, key, env: { DATABASE_URL: databaseUrl, DEV_KEY: 'off', LOG_LEVEL: 'info', NODE_ENV: 'production' } };
}

/**
 * CPU seconds a process has run, all its threads (main, GC helpers, libuv pool), to the nanosecond: the sum of
 * /proc/<pid>/task/<tid>/schedstat's first field. /proc/<pid>/stat's ticks (10 ms) are too coarse for runs of a
 * few seconds.
 */
export function cpuSeconds(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return ns / 1e9;
}

/** A field of /proc/<pid>/status in MB: VmRSS (resident now) or VmHWM (the most ever, start-up included). */
export function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}
