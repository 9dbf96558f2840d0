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

export async function throwawayPostgres(): Promise<ThrowawayDatabase> {
  const name = `kh_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
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
  { kind: 'postgres', create: throwawayPostgres },
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
