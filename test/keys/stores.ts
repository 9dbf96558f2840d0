/**
 * Real stores for tests: a SQLite file in a temporary folder, and a throwaway PostgreSQL database created on the
 * server at TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres) and dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../../src/keys/open-store.js';
import type { KeyStore } from '../../src/keys/store.js';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A store's DATABASE_URL and how to throw it away. */
export interface ThrowawayDatabase {
  kind: 'sqlite' | 'postgres';
  url: string;
  drop(): Promise<void>;
}

export async function throwawaySqlite(): Promise<ThrowawayDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'kh-address-test-'));
  return { kind: 'sqlite', url: `sqlite:${join(dir, 'keys.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** The URL without its password, for a message. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/**
 * A client connected to the PostgreSQL server the tests use; if there is none, an error that says how to get one
 * (issue 14, item 16), rather than a bare ECONNREFUSED.
 */
export async function connectAdmin(adminUrl: string = POSTGRES_ADMIN_URL): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new Error(`The PostgreSQL tests need a PostgreSQL server (12 or later) and found none at ${shown(adminUrl)}: `
      + `${(error as Error).message || String(error)}.\n`
      + 'Start one on 127.0.0.1:5432 that the user postgres can reach without a password, e.g.\n'
      + '  docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16\n'
      + '  (or: sudo apt-get install postgresql, with "trust" for 127.0.0.1 in pg_hba.conf),\n'
      + 'or set TEST_POSTGRES_URL to a server and a role that may CREATE DATABASE, e.g. postgres://me:secret@db.example:5432/postgres.',
    { cause: error });
  }
  return client;
}

export async function throwawayPostgres(adminUrl: string = POSTGRES_ADMIN_URL): Promise<ThrowawayDatabase> {
  const name = `kh_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await connectAdmin(adminUrl);
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.toString(),
    async drop() {
      const client = await connectAdmin(adminUrl);
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export const STORE_KINDS = [
  { kind: 'sqlite', create: throwawaySqlite },
  { kind: 'postgres', create: () => throwawayPostgres() },
] as const;

/** Opens a migrated store on a fresh throwaway database. */
export async function freshStore(kind: 'sqlite' | 'postgres'): Promise<{ store: KeyStore; database: ThrowawayDatabase; close(): Promise<void> }> {
  const database = await (kind === 'sqlite' ? throwawaySqlite() : throwawayPostgres());
  const store = await openStore(database.url);
  return {
    store,
    database,
    async close() {
      await store.close();
      await database.drop();
    },
  };
}
