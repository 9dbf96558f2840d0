/** The embedded store: SQLite through better-sqlite3, in WAL mode. Synchronous underneath, async to its callers. */
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { monthDays } from './periods.js';
import { MIGRATIONS } from './migrations.js';
import {
  type Account, type ApiKeyRecord, type KeyStore, type KeyWithPlan, type NewKey, type Plan, type Session, StoreError, type UsageIncrement,
} from './store.js';

interface KeyRow {
  id: string;
  prefix: string;
  name: string | null;
  plan: string;
  owner_id: string | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  allowed_origins: string | null;
}
interface PlanRow {
  name: string;
  monthly_quota: number;
  per_second: number;
}

const toKey = (row: KeyRow): ApiKeyRecord => ({
  id: row.id, prefix: row.prefix, name: row.name, plan: row.plan, ownerId: row.owner_id, createdAt: row.created_at,
  revokedAt: row.revoked_at, lastUsedAt: row.last_used_at,
  allowedOrigins: row.allowed_origins === null ? null : JSON.parse(row.allowed_origins) as string[],
});
const toPlan = (row: PlanRow): Plan => ({ name: row.name, monthlyQuota: row.monthly_quota, perSecond: row.per_second });
const KEY_COLUMNS = 'k.id, k.prefix, k.name, k.plan, k.owner_id, k.created_at, k.revoked_at, k.last_used_at, k.allowed_origins';

export class SqliteStore implements KeyStore {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;

  /**
   * Opens (and creates) the database file; `:memory:` for a private in-memory one. `busyTimeoutMs`: how long a
   * statement waits for another process's write lock before failing. Short, because better-sqlite3 waits
   * synchronously: the whole server would stall that long. A usage write that fails is retried at the next flush.
   */
  constructor(readonly path: string, { busyTimeoutMs = 200 }: { busyTimeoutMs?: number } = {}) {
    if (path !== ':memory:') {
      mkdirSync(dirname(path), { recursive: true });
      // A file SQLite cannot write still opens (read-only) and even starts, in WAL mode, with nothing to migrate: then
      // every usage write fails. Refuse it at start instead (EACCES, EPERM for an immutable file, EROFS), and a
      // folder where the -wal and -shm files cannot be made.
      accessSync(dirname(path), constants.W_OK);
      if (existsSync(path)) accessSync(path, constants.W_OK);
    }
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // NORMAL is durable across process crashes in WAL mode (not power loss): what the usage bound assumes.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  }

  async migrate(): Promise<void> {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    // IMMEDIATE takes the write lock first, so two processes starting together apply each migration once.
    this.db.transaction(() => {
      const applied = new Set((this.db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        this.db.exec(migration.sqlite);
        this.db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(migration.version, migration.name, new Date().toISOString());
      }
    }).immediate();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async listPlans(): Promise<Plan[]> {
    return (this.db.prepare('SELECT name, monthly_quota, per_second FROM plans ORDER BY monthly_quota, name').all() as PlanRow[]).map(toPlan);
  }

  async getPlan(name: string): Promise<Plan | undefined> {
    const row = this.db.prepare('SELECT name, monthly_quota, per_second FROM plans WHERE name = ?').get(name) as PlanRow | undefined;
    return row && toPlan(row);
  }

  async createPlan(plan: Plan): Promise<Plan> {
    try {
      this.db.prepare('INSERT INTO plans (name, monthly_quota, per_second, created_at) VALUES (?, ?, ?, ?)')
        .run(plan.name, plan.monthlyQuota, plan.perSecond, new Date().toISOString());
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new StoreError(`plan ${plan.name} exists`, 'conflict');
      throw error;
    }
    return plan;
  }

  async updatePlan(name: string, change: Partial<Omit<Plan, 'name'>>): Promise<Plan | undefined> {
    this.db.prepare('UPDATE plans SET monthly_quota = coalesce(?, monthly_quota), per_second = coalesce(?, per_second) WHERE name = ?')
      .run(change.monthlyQuota ?? null, change.perSecond ?? null, name);
    return this.getPlan(name);
  }

  async createKey(key: NewKey, { maxLiveKeysPerOwner }: { maxLiveKeysPerOwner?: number } = {}): Promise<ApiKeyRecord> {
    const ownerId = key.ownerId ?? null;
    // IMMEDIATE: the count and the insert hold the write lock together, so no other process can slip a key between.
    this.db.transaction(() => {
      const plan = (ownerId === null ? undefined
        : (this.db.prepare('SELECT plan FROM accounts WHERE id = ?').get(ownerId) as { plan: string } | undefined)?.plan) ?? key.plan;
      if (!this.db.prepare('SELECT 1 FROM plans WHERE name = ?').get(plan)) throw new StoreError(`no plan named ${plan}`, 'not_found');
      if (ownerId !== null && maxLiveKeysPerOwner !== undefined) {
        const { n } = this.db.prepare('SELECT count(*) AS n FROM api_keys WHERE owner_id = ? AND revoked_at IS NULL').get(ownerId) as { n: number };
        if (n >= maxLiveKeysPerOwner) throw new StoreError(`the account already has ${n} live keys`, 'limit');
      }
      this.db.prepare('INSERT INTO api_keys (id, key_hash, prefix, name, plan, owner_id, created_at, allowed_origins) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(key.id, key.hash, key.prefix, key.name, plan, ownerId, key.createdAt, key.allowedOrigins ? JSON.stringify(key.allowedOrigins) : null);
    }).immediate();
    return (await this.getKey(key.id))!;
  }

  async findKeyByHash(hash: string): Promise<KeyWithPlan | undefined> {
    const row = this.db.prepare(`SELECT ${KEY_COLUMNS}, p.monthly_quota, p.per_second FROM api_keys k JOIN plans p ON p.name = k.plan WHERE k.key_hash = ?`)
      .get(hash) as (KeyRow & PlanRow) | undefined;
    return row && { ...toKey(row), limits: { name: row.plan, monthlyQuota: row.monthly_quota, perSecond: row.per_second } };
  }

  async getKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.id = ?`).get(id) as KeyRow | undefined;
    return row && toKey(row);
  }

  async listKeys(filter: { ownerId?: string } = {}): Promise<ApiKeyRecord[]> {
    const rows = filter.ownerId === undefined
      ? this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys k ORDER BY k.created_at, k.id`).all()
      : this.db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.owner_id = ? ORDER BY k.created_at, k.id`).all(filter.ownerId);
    return (rows as KeyRow[]).map(toKey);
  }

  async countKeys(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n;
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    return this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id).changes === 1;
  }

  async replaceSecret(id: string, hash: string, prefix: string): Promise<boolean> {
    return this.db.prepare('UPDATE api_keys SET key_hash = ?, prefix = ? WHERE id = ? AND revoked_at IS NULL').run(hash, prefix, id).changes === 1;
  }

  async setKeyPlan(id: string, plan: string): Promise<boolean> {
    if (!(await this.getPlan(plan))) throw new StoreError(`no plan named ${plan}`, 'not_found');
    return this.db.transaction(() => {
      const key = this.db.prepare('SELECT owner_id FROM api_keys WHERE id = ?').get(id) as { owner_id: string | null } | undefined;
      if (!key) return false;
      if (key.owner_id === null) return this.db.prepare('UPDATE api_keys SET plan = ? WHERE id = ?').run(plan, id).changes === 1;
      this.db.prepare('UPDATE accounts SET plan = ? WHERE id = ?').run(plan, key.owner_id);
      this.db.prepare('UPDATE api_keys SET plan = ? WHERE owner_id = ?').run(plan, key.owner_id);
      return true;
    }).immediate();
  }

  async renameKey(id: string, name: string | null): Promise<boolean> {
    return this.db.prepare('UPDATE api_keys SET name = ? WHERE id = ?').run(name, id).changes === 1;
  }

  async setKeyOrigins(id: string, origins: string[]): Promise<boolean> {
    return this.db.prepare('UPDATE api_keys SET allowed_origins = ? WHERE id = ? AND allowed_origins IS NOT NULL').run(JSON.stringify(origins), id).changes === 1;
  }

  async recordUsage(increments: UsageIncrement[], lastUsed: Map<string, string>, month: string, totalsFor: string[]): Promise<Map<string, number>> {
    const add = this.db.prepare('INSERT INTO usage_daily (key_id, day, count) VALUES (?, ?, ?) ON CONFLICT (key_id, day) DO UPDATE SET count = count + excluded.count');
    const touch = this.db.prepare('UPDATE api_keys SET last_used_at = max(coalesce(last_used_at, \'\'), ?) WHERE id = ?');
    this.db.transaction(() => {
      for (const { keyId, day, count } of increments) add.run(keyId, day, count);
      for (const [keyId, at] of lastUsed) touch.run(at, keyId);
    })();
    return this.holderUsage(totalsFor, month);
  }

  async holderUsage(holderIds: string[], month: string): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    if (holderIds.length === 0) return totals;
    const { first, last } = monthDays(month);
    const placeholders = holderIds.map(() => '?').join(',');
    const rows = this.db.prepare(`SELECT coalesce(k.owner_id, k.id) AS holder, sum(u.count) AS total FROM usage_daily u JOIN api_keys k ON k.id = u.key_id
      WHERE u.day BETWEEN ? AND ? AND (k.owner_id IN (${placeholders}) OR (k.owner_id IS NULL AND k.id IN (${placeholders}))) GROUP BY holder`)
      .all(first, last, ...holderIds, ...holderIds) as { holder: string; total: number }[];
    for (const row of rows) totals.set(row.holder, row.total);
    return totals;
  }

  async monthlyUsage(keyIds: string[], month: string): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    if (keyIds.length === 0) return totals;
    const { first, last } = monthDays(month);
    const placeholders = keyIds.map(() => '?').join(',');
    const rows = this.db.prepare(`SELECT key_id, sum(count) AS total FROM usage_daily WHERE day BETWEEN ? AND ? AND key_id IN (${placeholders}) GROUP BY key_id`)
      .all(first, last, ...keyIds) as { key_id: string; total: number }[];
    for (const row of rows) totals.set(row.key_id, row.total);
    return totals;
  }

  async dailyUsage(keyId: string, from: string, to: string): Promise<{ day: string; count: number }[]> {
    return this.db.prepare('SELECT day, count FROM usage_daily WHERE key_id = ? AND day BETWEEN ? AND ? ORDER BY day').all(keyId, from, to) as { day: string; count: number }[];
  }

  async createAccount(account: Account): Promise<Account> {
    try {
      this.db.prepare('INSERT INTO accounts (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)')
        .run(account.id, account.email, account.passwordHash, account.createdAt);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new StoreError('email taken', 'conflict');
      throw error;
    }
    return account;
  }

  private account(where: string, value: string): Account | undefined {
    const row = this.db.prepare(`SELECT id, email, password_hash, created_at FROM accounts WHERE ${where} = ?`).get(value) as
      { id: string; email: string; password_hash: string; created_at: string } | undefined;
    return row && { id: row.id, email: row.email, passwordHash: row.password_hash, createdAt: row.created_at };
  }

  async findAccountByEmail(email: string): Promise<Account | undefined> {
    return this.account('email', email);
  }

  async getAccount(id: string): Promise<Account | undefined> {
    return this.account('id', id);
  }

  async createSession(tokenHash: string, session: Session & { createdAt: string }): Promise<void> {
    this.db.prepare('INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(tokenHash, session.accountId, session.createdAt, session.expiresAt);
  }

  async findSession(tokenHash: string, now: string): Promise<Session | undefined> {
    const row = this.db.prepare('SELECT account_id, expires_at FROM sessions WHERE token_hash = ? AND expires_at > ?').get(tokenHash, now) as
      { account_id: string; expires_at: string } | undefined;
    return row && { accountId: row.account_id, expiresAt: row.expires_at };
  }

  async deleteSession(tokenHash: string): Promise<void> {
    this.db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash);
  }
}
