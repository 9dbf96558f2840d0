/** The shared store: PostgreSQL through `pg`, for several replicas that share keys and usage. */
import pg from 'pg';
import { monthDays } from './periods.js';
import { MIGRATIONS } from './migrations.js';
import {
  type Account, type ApiKeyRecord, isStoreUnavailable, type KeyStore, type KeyWithPlan, type NewKey, type Plan, type Session, StoreError,
  type UsageIncrement,
} from './store.js';

/** Arbitrary constant naming the advisory lock that serialises migrations across replicas. */
const MIGRATION_LOCK = 7_461_523;
/** Arbitrary constant naming the advisory locks (one per account) that serialise an account's key creations. */
const OWNER_LOCK = 7_461_524;

interface KeyRow {
  id: string;
  prefix: string;
  name: string | null;
  plan: string;
  owner_id: string | null;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  allowed_origins: string | null;
}
interface PlanRow {
  name: string;
  monthly_quota: string;
  per_second: number;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());
const toKey = (row: KeyRow): ApiKeyRecord => ({
  id: row.id, prefix: row.prefix, name: row.name, plan: row.plan, ownerId: row.owner_id, createdAt: row.created_at.toISOString(),
  revokedAt: iso(row.revoked_at), lastUsedAt: iso(row.last_used_at),
  allowedOrigins: row.allowed_origins === null ? null : JSON.parse(row.allowed_origins) as string[],
});
// BIGINT arrives as a string: quotas and counts stay far below 2^53.
const toPlan = (row: PlanRow): Plan => ({ name: row.name, monthlyQuota: Number(row.monthly_quota), perSecond: row.per_second });
const KEY_COLUMNS = 'k.id, k.prefix, k.name, k.plan, k.owner_id, k.created_at, k.revoked_at, k.last_used_at, k.allowed_origins';

export class PostgresStore implements KeyStore {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;

  /**
   * `timeoutMs` bounds every store call in time, whatever the network does (STORE_TIMEOUT_MS): each query is
   * abandoned after it on the client (`query_timeout`, and the connection is then discarded, since a query may still
   * be running on it) and cancelled on the server (`statement_timeout`); a connection takes at most as long to open
   * or to be free in the pool; TCP keep-alive notices a silent peer; the server ends a transaction whose client vanished.
   */
  constructor(connectionString: string, { poolSize = 10, timeoutMs = 5000 }: { poolSize?: number; timeoutMs?: number } = {}) {
    this.pool = new pg.Pool({
      connectionString, max: poolSize,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      statement_timeout: timeoutMs,
      idle_in_transaction_session_timeout: Math.max(10_000, 2 * timeoutMs),
      keepAlive: true, keepAliveInitialDelayMillis: 10_000,
    });
    // An idle client losing its connection (server restart) must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      // A connection that timed out or broke is discarded (a late answer would belong to no query); after an error
      // of SQL the transaction is rolled back and the connection reused.
      if (isStoreUnavailable(error)) client.release(error as Error);
      else {
        const rolledBack = await client.query('ROLLBACK').then(() => true, () => false);
        client.release(rolledBack ? undefined : (error as Error));
      }
      throw error;
    }
  }

  async migrate(): Promise<void> {
    await this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
      const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        await client.query(migration.postgres);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      }
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async listPlans(): Promise<Plan[]> {
    return (await this.pool.query<PlanRow>('SELECT name, monthly_quota, per_second FROM plans ORDER BY monthly_quota, name')).rows.map(toPlan);
  }

  async getPlan(name: string): Promise<Plan | undefined> {
    const row = (await this.pool.query<PlanRow>('SELECT name, monthly_quota, per_second FROM plans WHERE name = $1', [name])).rows[0];
    return row && toPlan(row);
  }

  async createPlan(plan: Plan): Promise<Plan> {
    try {
      await this.pool.query('INSERT INTO plans (name, monthly_quota, per_second) VALUES ($1, $2, $3)', [plan.name, plan.monthlyQuota, plan.perSecond]);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new StoreError(`plan ${plan.name} exists`, 'conflict');
      throw error;
    }
    return plan;
  }

  async updatePlan(name: string, change: Partial<Omit<Plan, 'name'>>): Promise<Plan | undefined> {
    await this.pool.query('UPDATE plans SET monthly_quota = coalesce($1, monthly_quota), per_second = coalesce($2, per_second) WHERE name = $3',
      [change.monthlyQuota ?? null, change.perSecond ?? null, name]);
    return this.getPlan(name);
  }

  async createKey(key: NewKey, { maxLiveKeysPerOwner }: { maxLiveKeysPerOwner?: number } = {}): Promise<ApiKeyRecord> {
    const ownerId = key.ownerId ?? null;
    try {
      await this.transaction(async (client) => {
        let plan = key.plan;
        if (ownerId !== null) {
          // One key creation per account at a time, across replicas: the count below cannot be raced.
          await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [OWNER_LOCK, ownerId]);
          plan = (await client.query<{ plan: string }>('SELECT plan FROM accounts WHERE id = $1', [ownerId])).rows[0]?.plan ?? plan;
          if (maxLiveKeysPerOwner !== undefined) {
            const n = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM api_keys WHERE owner_id = $1 AND revoked_at IS NULL', [ownerId])).rows[0]!.n);
            if (n >= maxLiveKeysPerOwner) throw new StoreError(`the account already has ${n} live keys`, 'limit');
          }
        }
        await client.query('INSERT INTO api_keys (id, key_hash, prefix, name, plan, owner_id, created_at, allowed_origins) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [key.id, key.hash, key.prefix, key.name, plan, ownerId, key.createdAt, key.allowedOrigins ? JSON.stringify(key.allowedOrigins) : null]);
      });
    } catch (error) {
      if ((error as { code?: string }).code === '23503') throw new StoreError(`no plan named ${key.plan}`, 'not_found');
      throw error;
    }
    return (await this.getKey(key.id))!;
  }

  async findKeyByHash(hash: string): Promise<KeyWithPlan | undefined> {
    const row = (await this.pool.query<KeyRow & PlanRow>(
      `SELECT ${KEY_COLUMNS}, p.monthly_quota, p.per_second FROM api_keys k JOIN plans p ON p.name = k.plan WHERE k.key_hash = $1`, [hash])).rows[0];
    return row && { ...toKey(row), limits: { name: row.plan, monthlyQuota: Number(row.monthly_quota), perSecond: row.per_second } };
  }

  async getKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = (await this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = $1`, [id])).rows[0];
    return row && toKey(row);
  }

  async listKeys(filter: { ownerId?: string } = {}): Promise<ApiKeyRecord[]> {
    const result = filter.ownerId === undefined
      ? await this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys k ORDER BY k.created_at, k.id`)
      : await this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.owner_id = $1 ORDER BY k.created_at, k.id`, [filter.ownerId]);
    return result.rows.map(toKey);
  }

  async countKeys(): Promise<number> {
    return Number((await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM api_keys')).rows[0]!.n);
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    return (await this.pool.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id])).rowCount === 1;
  }

  async replaceSecret(id: string, hash: string, prefix: string): Promise<boolean> {
    return (await this.pool.query('UPDATE api_keys SET key_hash = $1, prefix = $2 WHERE id = $3 AND revoked_at IS NULL', [hash, prefix, id])).rowCount === 1;
  }

  async setKeyPlan(id: string, plan: string): Promise<boolean> {
    try {
      return await this.transaction(async (client) => {
        const key = (await client.query<{ owner_id: string | null }>('SELECT owner_id FROM api_keys WHERE id = $1', [id])).rows[0];
        if (!key) return false;
        if (key.owner_id === null) return (await client.query('UPDATE api_keys SET plan = $1 WHERE id = $2', [plan, id])).rowCount === 1;
        await client.query('UPDATE accounts SET plan = $1 WHERE id = $2', [plan, key.owner_id]);
        await client.query('UPDATE api_keys SET plan = $1 WHERE owner_id = $2', [plan, key.owner_id]);
        return true;
      });
    } catch (error) {
      if ((error as { code?: string }).code === '23503') throw new StoreError(`no plan named ${plan}`, 'not_found');
      throw error;
    }
  }

  async renameKey(id: string, name: string | null): Promise<boolean> {
    return (await this.pool.query('UPDATE api_keys SET name = $1 WHERE id = $2', [name, id])).rowCount === 1;
  }

  async setKeyOrigins(id: string, origins: string[]): Promise<boolean> {
    return (await this.pool.query('UPDATE api_keys SET allowed_origins = $1 WHERE id = $2 AND allowed_origins IS NOT NULL', [JSON.stringify(origins), id])).rowCount === 1;
  }

  async recordUsage(increments: UsageIncrement[], lastUsed: Map<string, string>, month: string, totalsFor: string[]): Promise<Map<string, number>> {
    return this.transaction(async (client) => {
      if (increments.length > 0) {
        // One statement for the whole batch; ordered by key so that concurrent replicas lock rows in the same order.
        const sorted = [...increments].sort((a, b) => (a.keyId + a.day < b.keyId + b.day ? -1 : 1));
        await client.query(
          `INSERT INTO usage_daily (key_id, day, count)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
           ON CONFLICT (key_id, day) DO UPDATE SET count = usage_daily.count + excluded.count`,
          [sorted.map((i) => i.keyId), sorted.map((i) => i.day), sorted.map((i) => i.count)]);
      }
      if (lastUsed.size > 0) {
        await client.query(
          `UPDATE api_keys k SET last_used_at = greatest(k.last_used_at, u.at)
           FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at) WHERE k.id = u.id`,
          [[...lastUsed.keys()], [...lastUsed.values()]]);
      }
      return this.holderTotals(client, totalsFor, month);
    });
  }

  private async holderTotals(client: pg.Pool | pg.PoolClient, holderIds: string[], month: string): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    if (holderIds.length === 0) return totals;
    const { first, last } = monthDays(month);
    const rows = (await client.query<{ holder: string; total: string }>(
      `SELECT coalesce(k.owner_id, k.id) AS holder, sum(u.count) AS total FROM usage_daily u JOIN api_keys k ON k.id = u.key_id
       WHERE u.day BETWEEN $1 AND $2 AND (k.owner_id = ANY($3::text[]) OR (k.owner_id IS NULL AND k.id = ANY($3::text[]))) GROUP BY 1`,
      [first, last, holderIds])).rows;
    for (const row of rows) totals.set(row.holder, Number(row.total));
    return totals;
  }

  async holderUsage(holderIds: string[], month: string): Promise<Map<string, number>> {
    return this.holderTotals(this.pool, holderIds, month);
  }

  private async totals(client: pg.Pool | pg.PoolClient, keyIds: string[], month: string): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    if (keyIds.length === 0) return totals;
    const { first, last } = monthDays(month);
    const rows = (await client.query<{ key_id: string; total: string }>(
      'SELECT key_id, sum(count) AS total FROM usage_daily WHERE day BETWEEN $1 AND $2 AND key_id = ANY($3::text[]) GROUP BY key_id',
      [first, last, keyIds])).rows;
    for (const row of rows) totals.set(row.key_id, Number(row.total));
    return totals;
  }

  async monthlyUsage(keyIds: string[], month: string): Promise<Map<string, number>> {
    return this.totals(this.pool, keyIds, month);
  }

  async dailyUsage(keyId: string, from: string, to: string): Promise<{ day: string; count: number }[]> {
    const rows = (await this.pool.query<{ day: string; count: string }>(
      'SELECT day, count FROM usage_daily WHERE key_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day', [keyId, from, to])).rows;
    return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
  }

  async createAccount(account: Account): Promise<Account> {
    try {
      await this.pool.query('INSERT INTO accounts (id, email, password_hash, created_at) VALUES ($1, $2, $3, $4)',
        [account.id, account.email, account.passwordHash, account.createdAt]);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new StoreError('email taken', 'conflict');
      throw error;
    }
    return account;
  }

  private async account(where: 'email' | 'id', value: string): Promise<Account | undefined> {
    const row = (await this.pool.query<{ id: string; email: string; password_hash: string; created_at: Date }>(
      `SELECT id, email, password_hash, created_at FROM accounts WHERE ${where} = $1`, [value])).rows[0];
    return row && { id: row.id, email: row.email, passwordHash: row.password_hash, createdAt: row.created_at.toISOString() };
  }

  async findAccountByEmail(email: string): Promise<Account | undefined> {
    return this.account('email', email);
  }

  async getAccount(id: string): Promise<Account | undefined> {
    return this.account('id', id);
  }

  async createSession(tokenHash: string, session: Session & { createdAt: string }): Promise<void> {
    await this.pool.query('INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [tokenHash, session.accountId, session.createdAt, session.expiresAt]);
  }

  async findSession(tokenHash: string, now: string): Promise<Session | undefined> {
    const row = (await this.pool.query<{ account_id: string; expires_at: Date }>(
      'SELECT account_id, expires_at FROM sessions WHERE token_hash = $1 AND expires_at > $2', [tokenHash, now])).rows[0];
    return row && { accountId: row.account_id, expiresAt: row.expires_at.toISOString() };
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.pool.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
  }
}
