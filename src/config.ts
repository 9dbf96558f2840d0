/** Typed configuration from the environment. Every variable is listed in the README. */
import { DEFAULT_DATABASE_URL } from './keys/open-store.js';

export interface Config {
  /** TCP port to listen on. `PORT`, default 3000. */
  port: number;
  /** Interface to bind. `HOST`, default 127.0.0.1 (set 0.0.0.0 in a container). */
  host: string;
  /** pino log level. `LOG_LEVEL`, default info. */
  logLevel: string;
  /** Where keys, plans and usage live. `DATABASE_URL`, default `sqlite:./var/kh-address.db`. */
  databaseUrl: string;
  /** How often counted usage is written to the store. `USAGE_FLUSH_MS`, default 1000. */
  usageFlushMs: number;
  /** How long a key lookup is trusted before asking the store again. `KEY_CACHE_TTL_MS`, default 10000. */
  keyCacheTtlMs: number;
  /** Print a development key at first start when the store has none. `DEV_KEY` on|off, default on. */
  devKey: boolean;
  /** Where developers ask for a higher plan (shown on the dashboard). `OPERATOR_CONTACT`, default none. */
  operatorContact: string;
  /** Trust X-Forwarded-* from a proxy in front (TLS, client address). `TRUST_PROXY` on|off, default off. */
  trustProxy: boolean;
  /** Bearer token for GET /metrics; empty: no /metrics. `METRICS_TOKEN`, default empty. */
  metricsToken: string;
  /** Shed load (503) while the event loop lags more than this; 0: never. `MAX_EVENT_LOOP_DELAY_MS`, default 1000. */
  maxEventLoopDelayMs: number;
  /** How long a SIGTERM/SIGINT shutdown may take before the process exits anyway. `SHUTDOWN_TIMEOUT_MS`, default 10000. */
  shutdownTimeoutMs: number;
  /** Log every request and response. `LOG_REQUESTS` on|off, default off. */
  logRequests: boolean;
  /** Reverse geocoding: the polygons' precision, a point this close to another commune names it. `GEO_BOUNDARY_TOLERANCE_M`, default 100. */
  geoBoundaryToleranceM: number;
  /** Reverse geocoding: in a hole of the outline (Tonle Sap), the nearest commune up to this far. `GEO_INLAND_MAX_M`, default 30000. */
  geoInlandMaxM: number;
  /** Reverse geocoding: outside the outline (coast, border), the nearest commune up to this far. `GEO_OUTSIDE_MAX_M`, default 3000. */
  geoOutsideMaxM: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A bad configuration value: the message names the variable and what it accepts. */
export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got ${JSON.stringify(env[name])}`);
}

function metricsToken(env: NodeJS.ProcessEnv): string {
  const token = env.METRICS_TOKEN ?? '';
  if (token !== '' && !/^[\x21-\x7e]{16,200}$/.test(token)) {
    throw new ConfigError('METRICS_TOKEN must be 16 to 200 visible ASCII characters (or empty to turn /metrics off)');
  }
  return token;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
  }
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must be sqlite:<path> or postgres://user@host:port/db, got ${JSON.stringify(databaseUrl)}`);
  }
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    logLevel,
    databaseUrl,
    usageFlushMs: integer(env, 'USAGE_FLUSH_MS', 1000, 50, 60_000),
    keyCacheTtlMs: integer(env, 'KEY_CACHE_TTL_MS', 10_000, 0, 3_600_000),
    devKey: onOff(env, 'DEV_KEY', true),
    operatorContact: (env.OPERATOR_CONTACT ?? '').trim(),
    trustProxy: onOff(env, 'TRUST_PROXY', false),
    metricsToken: metricsToken(env),
    maxEventLoopDelayMs: integer(env, 'MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    logRequests: onOff(env, 'LOG_REQUESTS', false),
    geoBoundaryToleranceM: integer(env, 'GEO_BOUNDARY_TOLERANCE_M', 100, 0, 5_000),
    geoInlandMaxM: integer(env, 'GEO_INLAND_MAX_M', 30_000, 0, 100_000),
    geoOutsideMaxM: integer(env, 'GEO_OUTSIDE_MAX_M', 3_000, 0, 100_000),
  };
}
