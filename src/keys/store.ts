/**
 * Where keys, plans and usage live. One async interface, two implementations that pass the same contract tests:
 * SQLite (the default, no setup) and PostgreSQL (several replicas sharing keys and usage).
 */

export interface Plan {
  name: string;
  /** Requests per calendar month (UTC). */
  monthlyQuota: number;
  /** Requests per second, per server process. */
  perSecond: number;
}

export interface ApiKeyRecord {
  id: string;
  /** First characters of the key, not secret: tells keys apart in lists. */
  prefix: string;
  name: string | null;
  plan: string;
  /** The account that owns the key (dashboard), or null for keys made with the CLI. */
  ownerId: string | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** A browser key's allowed origins (canonical `scheme://host[:port]`); null for a secret key. */
  allowedOrigins: string[] | null;
}

/**
 * Whose monthly quota and per-second limit a key draws on: its account (all keys of an account share its plan's
 * limits, so more keys or a revoked and re-created key give no more), or the key itself for an operator's key made
 * without an account. Account and key ids never collide (`acct_`, `key_`).
 */
export function quotaHolderOf(key: { id: string; ownerId: string | null }): string {
  return key.ownerId ?? key.id;
}

/** A key found by its hash, with its plan's limits: what a request needs to be admitted. */
export interface KeyWithPlan extends ApiKeyRecord {
  limits: Plan;
}

export interface UsageIncrement {
  keyId: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  count: number;
}

export interface NewKey {
  id: string;
  hash: string;
  prefix: string;
  name: string | null;
  plan: string;
  ownerId?: string | null;
  createdAt: string;
  /** For a browser key: the origins it is served to. Absent or null: a secret key. */
  allowedOrigins?: string[] | null;
}

/** A developer's dashboard account. The email is stored lower-cased; the password only as an scrypt hash. */
export interface Account {
  id: string;
  email: string;
  passwordHash: string;
  createdAt: string;
}

export interface Session {
  accountId: string;
  expiresAt: string;
}

export class StoreError extends Error {
  /** `limit`: a limit the store enforces was reached (e.g. an account's live keys). */
  constructor(message: string, readonly code: 'conflict' | 'not_found' | 'invalid' | 'limit') {
    super(message);
  }
}

export interface KeyStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Applies the migrations not applied yet, in order; safe to run on every start, from several replicas at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Throws if the store cannot answer a query now (readiness checks). */
  ping(): Promise<void>;

  listPlans(): Promise<Plan[]>;
  getPlan(name: string): Promise<Plan | undefined>;
  /** Throws StoreError('conflict') if the name is taken. */
  createPlan(plan: Plan): Promise<Plan>;
  updatePlan(name: string, change: Partial<Omit<Plan, 'name'>>): Promise<Plan | undefined>;

  /**
   * Throws StoreError('not_found') if the plan does not exist. A key with an owner takes its account's plan (all keys
   * of an account share it). `maxLiveKeysPerOwner`: throws StoreError('limit') if the owner already has that many
   * live keys; checked and inserted atomically, also against other processes.
   */
  createKey(key: NewKey, options?: { maxLiveKeysPerOwner?: number }): Promise<ApiKeyRecord>;
  findKeyByHash(hash: string): Promise<KeyWithPlan | undefined>;
  getKey(id: string): Promise<ApiKeyRecord | undefined>;
  listKeys(filter?: { ownerId?: string }): Promise<ApiKeyRecord[]>;
  countKeys(): Promise<number>;
  /** False if there is no such key or it was already revoked. */
  revokeKey(id: string, at: string): Promise<boolean>;
  /** A new secret for the same key (rotation): id, plan and usage stay. False if there is no such live key. */
  replaceSecret(id: string, hash: string, prefix: string): Promise<boolean>;
  /**
   * Throws StoreError('not_found') if the plan does not exist; false if the key does not. For a key with an owner,
   * this is the account's plan: it and every key of the account move to it.
   */
  setKeyPlan(id: string, plan: string): Promise<boolean>;
  renameKey(id: string, name: string | null): Promise<boolean>;
  /** Replaces a browser key's allowed origins. False if there is no such browser key (secret keys have none). */
  setKeyOrigins(id: string, origins: string[]): Promise<boolean>;

  /**
   * Adds usage counts and last-used times in one transaction, then returns the monthly totals of the given quota
   * holders (see quotaHolderOf; all replicas' usage included) for `month`.
   */
  recordUsage(increments: UsageIncrement[], lastUsed: Map<string, string>, month: string, totalsFor: string[]): Promise<Map<string, number>>;
  /**
   * Requests counted in `month` per quota holder: an account id totals every key the account ever had (revoked ones
   * too), a key id without an account is that key. Holders without usage are absent.
   */
  holderUsage(holderIds: string[], month: string): Promise<Map<string, number>>;
  /** Requests counted per key in `month` (`YYYY-MM`). Keys without usage are absent. */
  monthlyUsage(keyIds: string[], month: string): Promise<Map<string, number>>;
  /** Requests per day of one key, from `from` to `to` inclusive (`YYYY-MM-DD`), days without usage absent. */
  dailyUsage(keyId: string, from: string, to: string): Promise<{ day: string; count: number }[]>;

  /** Throws StoreError('conflict') if the email is taken. */
  createAccount(account: Account): Promise<Account>;
  findAccountByEmail(email: string): Promise<Account | undefined>;
  getAccount(id: string): Promise<Account | undefined>;
  /** Sessions are stored by the hash of their token (the cookie holds the token). */
  createSession(tokenHash: string, session: Session & { createdAt: string }): Promise<void>;
  /** The session if it exists and has not expired at `now`. */
  findSession(tokenHash: string, now: string): Promise<Session | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
}

/**
 * The store failed where the request cannot go on without it (admission): always a 503 with Retry-After, whatever
 * the cause (down, stalled, dropped database, refused credentials, missing table...). The cause is kept for the log.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  constructor(cause: unknown) {
    super(`key store unavailable: ${String((cause as Error)?.message ?? cause).slice(0, 200)}`, { cause });
  }
}

/**
 * Whether an error means the store cannot serve now (down, restarting, refusing, stalled, dropped or misconfigured),
 * not a bad query of ours: such errors are a 503 with Retry-After, never a 500.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  const code = String((error as { code?: unknown })?.code ?? '');
  // pg: connection failures (08), shutdown and cancellations such as statement_timeout (57), missing database
  // (3D000), credentials (28), resources such as too many connections (53), a missing table (42P01: a dropped or
  // never migrated schema), read-only transactions on a standby (25006); SQLite: busy/locked, read-only, I/O errors.
  return /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|08\w{3}|57\w{3}|3D000|28\w{3}|53\w{3}|42P01|25006|SQLITE_(BUSY|LOCKED|READONLY|IOERR|CANTOPEN|FULL|CORRUPT|NOTADB)\w*)$/.test(code)
    || /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|pool is closed|database connection is not open|store call timed out/i.test(String((error as Error)?.message));
}

export const FREE_PLAN: Plan = { name: 'free', monthlyQuota: 1000, perSecond: 5 };
