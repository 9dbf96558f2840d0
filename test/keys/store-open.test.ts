/**
 * A key store that cannot be opened at start (a corrupt, truncated or read-only SQLite file, an unreachable or
 * missing PostgreSQL database) stops the server with one line that names the store, the file or URL (password
 * hidden) and what to do: no stack trace.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createKey } from '../../src/keys/issue-keys.js';
import { openStore, redactUrl } from '../../src/keys/open-store.js';

/** Starts the server and waits for it to exit: its exit code and everything it printed. */
async function failedStart(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, PORT: '0', DEV_KEY: 'off', DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  return { code: code as number | null, output };
}

const noStack = (output: string) => assert.doesNotMatch(output, /^\s+at /m, `a stack trace was printed:\n${output}`);

describe('a key store that cannot be opened at start', () => {
  let dir: string;
  let good: Buffer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kh-store-open-'));
    const store = await openStore(`sqlite:${join(dir, 'good.db')}`);
    for (let i = 0; i < 40; i++) await createKey(store);
    await store.close();
    good = readFileSync(join(dir, 'good.db'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('hides the password of a URL', () => {
    assert.equal(redactUrl('postgres://kh:s3cret@db.example:5432/kh'), 'postgres://kh:***@db.example:5432/kh');
    assert.equal(redactUrl('postgres://kh@db/kh'), 'postgres://kh@db/kh');
  });

  it('a file that is not a database: says which file and what to do', async () => {
    const file = join(dir, 'garbage.db');
    writeFileSync(file, 'not a database at all '.repeat(300));
    const { code, output } = await failedStart(`sqlite:${file}`);
    assert.equal(code, 1);
    assert.match(output, new RegExp(`key store: the SQLite key store ${file} is not a SQLite database or is damaged`));
    assert.match(output, /Restore it from a backup, or move it/);
    noStack(output);
  });

  it('a truncated database file', async () => {
    const file = join(dir, 'truncated.db');
    writeFileSync(file, good.subarray(0, Math.floor(good.length / 2)));
    const { code, output } = await failedStart(`sqlite:${file}`);
    assert.equal(code, 1);
    assert.match(output, /is not a SQLite database or is damaged \(SQLITE_CORRUPT/);
    noStack(output);
  });

  it('a read-only database file', async (t) => {
    const file = join(dir, 'readonly.db');
    writeFileSync(file, good);
    // root ignores file modes: make the file immutable instead (where the file system allows it).
    if (process.getuid?.() === 0) {
      try {
        execFileSync('chattr', ['+i', file], { stdio: 'pipe' });
      } catch {
        t.skip('running as root and chattr +i is not available here');
        return;
      }
    } else {
      execFileSync('chmod', ['444', file]);
    }
    try {
      const { code, output } = await failedStart(`sqlite:${file}`);
      assert.equal(code, 1);
      assert.match(output, new RegExp(`key store: cannot open the SQLite key store ${file} for writing`));
      assert.match(output, /make the file and its folder writable/);
      noStack(output);
    } finally {
      if (process.getuid?.() === 0) execFileSync('chattr', ['-i', file]);
    }
  });

  it('an unreachable PostgreSQL server: the URL without its password', async () => {
    const { code, output } = await failedStart('postgres://kh:s3cret-pw@127.0.0.1:1/kh');
    assert.equal(code, 1);
    assert.match(output, /key store: cannot reach the PostgreSQL key store at postgres:\/\/kh:\*\*\*@127\.0\.0\.1:1\/kh \(ECONNREFUSED/);
    assert.match(output, /Check that PostgreSQL runs/);
    assert.doesNotMatch(output, /s3cret-pw/);
    noStack(output);
  });

  it('a PostgreSQL database that does not exist', async () => {
    const admin = new URL(process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    admin.pathname = '/kh_no_such_database_here';
    const { code, output } = await failedStart(admin.toString());
    assert.equal(code, 1);
    assert.match(output, /the database does not exist \(3D000/);
    noStack(output);
  });
});
