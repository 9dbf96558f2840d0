import { resolve } from 'node:path';
import { SqliteStore } from './sqlite-store.js';
import type { KeyStore } from './store.js';

export const DEFAULT_DATABASE_URL = 'sqlite:./var/kh-address.db';

/**
 * The store a DATABASE_URL names: `sqlite:<path>` (relative to the working directory; `sqlite::memory:` for a
 * private in-memory one) or `postgres://...` / `postgresql://...`. Migrations are applied before it is returned.
 */
export async function openStore(databaseUrl: string = DEFAULT_DATABASE_URL): Promise<KeyStore> {
  let store: KeyStore;
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    store = new SqliteStore(path === ':memory:' ? path : resolve(path));
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // Loaded only when used: `pg` adds about 45 ms to every start otherwise (measured).
    const { PostgresStore } = await import('./postgres-store.js');
    store = new PostgresStore(databaseUrl);
  } else {
    throw new Error('DATABASE_URL must start with sqlite: or postgres://');
  }
  try {
    await store.migrate();
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}
