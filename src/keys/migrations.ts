/**
 * Versioned schema migrations, one entry per change, in both SQL dialects. Applied in order by each store's
 * migrate(); never edit an applied migration, add the next one.
 */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'plans, api keys, daily usage',
    sqlite: `
      CREATE TABLE plans (
        name TEXT PRIMARY KEY,
        monthly_quota INTEGER NOT NULL CHECK (monthly_quota >= 0),
        per_second INTEGER NOT NULL CHECK (per_second > 0),
        created_at TEXT NOT NULL
      );
      INSERT INTO plans (name, monthly_quota, per_second, created_at) VALUES ('free', 1000, 5, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        name TEXT,
        plan TEXT NOT NULL REFERENCES plans (name),
        owner_id TEXT,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        last_used_at TEXT
      );
      CREATE INDEX api_keys_owner ON api_keys (owner_id);
      CREATE TABLE usage_daily (
        key_id TEXT NOT NULL REFERENCES api_keys (id),
        day TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (key_id, day)
      );`,
    postgres: `
      CREATE TABLE plans (
        name TEXT PRIMARY KEY,
        monthly_quota BIGINT NOT NULL CHECK (monthly_quota >= 0),
        per_second INTEGER NOT NULL CHECK (per_second > 0),
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      INSERT INTO plans (name, monthly_quota, per_second) VALUES ('free', 1000, 5);
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        name TEXT,
        plan TEXT NOT NULL REFERENCES plans (name),
        owner_id TEXT,
        created_at TIMESTAMPTZ NOT NULL,
        revoked_at TIMESTAMPTZ,
        last_used_at TIMESTAMPTZ
      );
      CREATE INDEX api_keys_owner ON api_keys (owner_id);
      CREATE TABLE usage_daily (
        key_id TEXT NOT NULL REFERENCES api_keys (id),
        day TEXT NOT NULL CHECK (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
        count BIGINT NOT NULL,
        PRIMARY KEY (key_id, day)
      );`,
  },
  {
    version: 2,
    name: 'dashboard accounts and sessions',
    sqlite: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX sessions_account ON sessions (account_id);`,
    postgres: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL
      );
      CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        created_at TIMESTAMPTZ NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
      CREATE INDEX sessions_account ON sessions (account_id);`,
  },
  {
    version: 3,
    name: 'an account\'s plan: its keys share one quota',
    // SQLite cannot add a column with a foreign key and a non-null default: the store checks the plan exists.
    sqlite: `
      ALTER TABLE accounts ADD COLUMN plan TEXT NOT NULL DEFAULT 'free';`,
    postgres: `
      ALTER TABLE accounts ADD COLUMN plan TEXT NOT NULL DEFAULT 'free' REFERENCES plans (name);`,
  },
  {
    version: 4,
    name: 'browser keys: allowed origins',
    // A JSON array of origins; NULL for a secret key.
    sqlite: 'ALTER TABLE api_keys ADD COLUMN allowed_origins TEXT;',
    postgres: 'ALTER TABLE api_keys ADD COLUMN allowed_origins TEXT;',
  },
];
