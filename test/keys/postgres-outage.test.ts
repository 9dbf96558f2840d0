/**
 * PostgreSQL stopped while serving, on a private instance (initdb into a temporary folder, pg_ctl on its own port;
 * never the shared server): known keys keep working, unknown ones get a clear 503, /ready says not ready, and after
 * the database returns everything recovers with no usage lost (the meter keeps failed writes).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createKey } from '../../src/keys/issue-keys.js';
import { openStore } from '../../src/keys/open-store.js';
import { monthOf } from '../../src/keys/periods.js';
import { startServer, type ServerProcess } from '../server-process.js';

const PG_ROOT = '/usr/lib/postgresql';
const bin = (name: string) => join(PG_ROOT, readdirSync(PG_ROOT).sort().at(-1)!, 'bin', name);
/** PostgreSQL refuses to run as root: as root, run its tools as the postgres user. */
const asPostgres = (command: string, args: string[]) =>
  process.getuid?.() === 0 ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' }) : execFileSync(command, args, { stdio: 'pipe' });

class PrivatePostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'kh-pg-'));
  constructor(readonly port: number) {
    chmodSync(this.dir, 0o777);
    asPostgres(bin('initdb'), ['-D', join(this.dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  }
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }
  start(): void {
    asPostgres(bin('pg_ctl'), ['-D', join(this.dir, 'data'), '-l', join(this.dir, 'log'), '-w', '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  }
  stop(): void {
    asPostgres(bin('pg_ctl'), ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
  }
  remove(): void {
    try {
      this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** What the server printed, for a request that fails (a CI run once saw "fetch failed" before the outage began). */
let serverOutput = () => '';
const get = async (url: string, key?: string) => {
  let response: Response;
  try {
    response = await fetch(url, { headers: key ? { 'x-api-key': key } : {} });
  } catch (error) {
    throw new Error(`GET ${url}: ${(error as Error).message} (${String((error as { cause?: unknown }).cause)})\nserver output:\n${serverOutput()}`, { cause: error });
  }
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { error?: { code: string } } };
};

describe('PostgreSQL outage while serving', { skip: !existsSync(PG_ROOT) && 'PostgreSQL server binaries not installed' }, () => {
  let pg: PrivatePostgres;
  let server: ServerProcess | undefined;
  before(() => {
    pg = new PrivatePostgres(54_000 + (process.pid % 1000));
    pg.start();
  });
  after(async () => {
    await server?.stop().catch(() => undefined);
    pg.remove();
  });

  it('keeps known keys working, says 503 for the rest, recovers, and loses no usage', async (t) => {
    const store = await openStore(pg.url);
    await store.createPlan({ name: 'roomy', monthlyQuota: 1_000_000, perSecond: 10_000 });
    const { key: known, record } = await createKey(store, { plan: 'roomy' });
    const { key: unseen } = await createKey(store, { plan: 'roomy' });
    await store.close();
    server = await startServer({ DATABASE_URL: pg.url, USAGE_FLUSH_MS: '200', KEY_CACHE_TTL_MS: '600000' });
    serverOutput = server.output;

    for (let i = 0; i < 20; i++) assert.equal((await get(`${server.url}/v1/provinces`, known)).status, 200);
    pg.stop();
    let servedDuringOutage = 0;
    for (let i = 0; i < 20; i++) {
      const response = await get(`${server.url}/v1/provinces`, known);
      assert.equal(response.status, 200, 'a cached key keeps working');
      servedDuringOutage++;
    }
    const refused = await get(`${server.url}/provinces`, unseen);
    assert.deepEqual([refused.status, refused.retryAfter, refused.body.error?.code], [503, '5', 'service_unavailable']);
    assert.equal((await get(`${server.url}/ready`)).status, 503);
    assert.equal((await get(`${server.url}/health`)).status, 200, 'alive, just not ready');
    await new Promise((resolve) => setTimeout(resolve, 600)); // a few failed usage writes

    pg.start();
    const deadline = Date.now() + 15_000;
    while ((await get(`${server.url}/ready`)).status !== 200) {
      assert.ok(Date.now() < deadline, 'ready again within 15 s of the database returning');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal((await get(`${server.url}/provinces`, unseen)).status, 200, 'the unseen key works once the store is back');
    assert.equal(await server.stop(), 0);
    server = undefined;

    const after = await openStore(pg.url);
    const stored = (await after.monthlyUsage([record.id], monthOf(new Date()))).get(record.id);
    await after.close();
    t.diagnostic(`known key: 20 requests before, ${servedDuringOutage} during the outage; stored after recovery: ${stored}`);
    assert.equal(stored, 40, 'every request counted, those of the outage included');
  });
});
