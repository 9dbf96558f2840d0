import { resolve } from 'node:path';
import { SqliteStore } from './sqlite-store.js';
import type { KeyStore } from './store.js';

export const DEFAULT_DATABASE_URL = 'sqlite:./var/kh-address.db';

/**
 * The key store could not be opened at start: the message says which store, which file or URL (password hidden)
 * and what to do, for a person to read without a stack trace.
 */
export class StoreOpenError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
  }
}

/** A PostgreSQL URL fit for a log or a message: the password replaced by `***`. */
export function redactUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    // Not parseable: hide anything between "://user:" and "@" by hand.
    return databaseUrl.replace(/^([a-z]+:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
  }
}

const codeOf = (error: unknown) => String((error as { code?: unknown })?.code ?? '');
const messageOf = (error: unknown) => String((error as Error)?.message ?? error).slice(0, 300);

function sqliteProblem(path: string, error: unknown): string {
  const code = codeOf(error);
  const what = `the SQLite key store ${path}`;
  if (/^SQLITE_(NOTADB|CORRUPT)/.test(code)) {
    return `${what} is not a SQLite database or is damaged (${code}: ${messageOf(error)}). Restore it from a backup, or move `
      + 'it (and its -wal and -shm files) aside to start with an empty store: its keys, plans, usage and accounts would be lost.';
  }
  if (/^SQLITE_(READONLY|CANTOPEN|PERM|AUTH)/.test(code) || /^(EACCES|EPERM|EROFS)$/.test(code)) {
    return `cannot open ${what} for writing (${code}: ${messageOf(error)}). The server writes the file and, beside it, its -wal `
      + 'and -shm files: make the file and its folder writable by the user running the server, or set DATABASE_URL to a writable path.';
  }
  if (/^SQLITE_(FULL|IOERR)/.test(code) || code === 'ENOSPC') {
    return `cannot write ${what} (${code}: ${messageOf(error)}): check the disk (space, errors) and retry.`;
  }
  return `cannot open ${what} (${code || 'error'}: ${messageOf(error)}). Check the file, or set DATABASE_URL to another path.`;
}

function postgresProblem(databaseUrl: string, error: unknown): string {
  const code = codeOf(error);
  const what = `the PostgreSQL key store at ${redactUrl(databaseUrl)}`;
  const why = `${code ? `${code}: ` : ''}${messageOf(error)}`;
  if (code === '3D000') return `${what}: the database does not exist (${why}). Create it (createdb), or fix the database name in DATABASE_URL.`;
  if (code.startsWith('28')) return `${what} refused the credentials (${why}). Check the user and password in DATABASE_URL and pg_hba.conf.`;
  if (code.startsWith('53')) return `${what} is out of resources (${why}), e.g. too many connections. Retry, or raise max_connections.`;
  if (code.startsWith('42')) return `${what} refused the schema migration (${why}). The user needs the right to create tables in the database.`;
  return `cannot reach ${what} (${why}). Check that PostgreSQL runs and accepts TCP connections there, and the host and port in DATABASE_URL.`;
}

/**
 * The store a DATABASE_URL names: `sqlite:<path>` (relative to the working directory; `sqlite::memory:` for a
 * private in-memory one) or `postgres://...` / `postgresql://...`. Migrations are applied before it is returned.
 * Failing to open it throws a StoreOpenError that says what to do. `timeoutMs` bounds each PostgreSQL query.
 */
export async function openStore(databaseUrl: string = DEFAULT_DATABASE_URL, { timeoutMs }: { timeoutMs?: number } = {}): Promise<KeyStore> {
  let store: KeyStore | undefined;
  let problem: (error: unknown) => string;
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    const file = path === ':memory:' ? path : resolve(path);
    problem = (error) => sqliteProblem(file, error);
  } else if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problem = (error) => postgresProblem(databaseUrl, error);
  } else {
    throw new Error('DATABASE_URL must start with sqlite: or postgres://');
  }
  try {
    if (databaseUrl.startsWith('sqlite:')) {
      const path = databaseUrl.slice('sqlite:'.length);
      store = new SqliteStore(path === ':memory:' ? path : resolve(path));
    } else {
      // Loaded only when used: `pg` adds about 45 ms to every start otherwise (measured).
      const { PostgresStore } = await import('./postgres-store.js');
      store = new PostgresStore(databaseUrl, { timeoutMs });
    }
    await store.migrate();
  } catch (error) {
    await store?.close().catch(() => undefined);
    throw new StoreOpenError(problem(error), error);
  }
  return store;
}
