/** Typed configuration from the environment. Every variable is listed in the README. */
import { DEFAULT_DATABASE_URL } from './keys/open-store.js';
import { parseOrigins } from './keys/origins.js';

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
  /**
   * While the key store is unreachable, how long after the store last confirmed it a cached key keeps working.
   * `KEY_STALE_MS`, default 600000 (10 minutes); 0: not at all beyond KEY_CACHE_TTL_MS.
   */
  keyStaleMs: number;
  /** The longest any one store query may take before it is abandoned (503). `STORE_TIMEOUT_MS`, default 5000. */
  storeTimeoutMs: number;
  /** Live (not revoked) keys one dashboard account may have. `MAX_KEYS_PER_ACCOUNT`, default 10. */
  maxKeysPerAccount: number;
  /** Print a development key at first start when the store has none. `DEV_KEY` on|off, default on. */
  devKey: boolean;
  /** Where developers ask for a higher plan (shown on the dashboard). `OPERATOR_CONTACT`, default none. */
  operatorContact: string;
  /**
   * Which X-Forwarded-* hops to believe (client address, HTTPS). `TRUST_PROXY`: off (default), on (= 1: the one proxy
   * in front), a hop count, or proxy addresses/CIDRs separated by commas. Passed to Fastify's `trustProxy`.
   */
  trustProxy: TrustProxy;
  /** Bearer token for GET /metrics; empty: no /metrics. `METRICS_TOKEN`, default empty. */
  metricsToken: string;
  /** Shed load (503) while the event loop lags more than this; 0: never. `MAX_EVENT_LOOP_DELAY_MS`, default 1000. */
  maxEventLoopDelayMs: number;
  /** How long a SIGTERM/SIGINT shutdown may take before the process exits anyway. `SHUTDOWN_TIMEOUT_MS`, default 10000. */
  shutdownTimeoutMs: number;
  /** Log every request and response. `LOG_REQUESTS` on|off, default off. */
  logRequests: boolean;
  /** Make the widget demo's browser key at start. `DEMO_KEY` on|off, default on. */
  demoKey: boolean;
  /** Origins this service is reached at besides http://127.0.0.1:PORT and http://localhost:PORT (the demo key's). `PUBLIC_ORIGIN`, comma-separated. */
  publicOrigins: string[];
  /** Reverse geocoding: the polygons' precision, a point this close to another commune names it. `GEO_BOUNDARY_TOLERANCE_M`, default 100. */
  geoBoundaryToleranceM: number;
  /** Reverse geocoding: in a hole of the outline (Tonle Sap), the nearest commune up to this far. `GEO_INLAND_MAX_M`, default 30000. */
  geoInlandMaxM: number;
  /** Reverse geocoding: outside the outline (coast, border), the nearest commune up to this far. `GEO_OUTSIDE_MAX_M`, default 3000. */
  geoOutsideMaxM: number;
}

/** false: ignore X-Forwarded-*; a number: trust that many hops nearest the server; a list: trust those proxies. */
export type TrustProxy = false | number | string[];

/** One IPv4 or IPv6 address, optionally with a /prefix; Fastify (proxy-addr) validates it properly at start. */
const PROXY_ADDRESS = /^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-f.]{0,40}:[0-9a-f:.]{1,44})(?:\/[0-9]{1,3})?$/i;
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim().toLowerCase();
  if (raw === '' || ['off', 'false', '0', 'no'].includes(raw)) return false;
  // "on" used to trust every hop, which lets any client choose its address by sending X-Forwarded-For: one hop (the
  // proxy in front) is what "on" means now.
  if (['on', 'true', 'yes'].includes(raw)) return 1;
  if (/^[0-9]{1,2}$/.test(raw)) return Number(raw);
  const list = raw.length <= 2000 ? raw.split(',').map((a) => a.trim()).filter(Boolean) : [];
  if (list.length > 0 && list.every((a) => PROXY_NAMES.has(a) || PROXY_ADDRESS.test(a))) return list;
  throw new ConfigError('TRUST_PROXY must be off, on (one proxy in front), a hop count (1 to 99) or proxy addresses/CIDRs '
    + `separated by commas (e.g. 10.0.0.0/8,127.0.0.1, or loopback), got ${JSON.stringify(env.TRUST_PROXY)}`);
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

function publicOrigins(env: NodeJS.ProcessEnv): string[] {
  const raw = (env.PUBLIC_ORIGIN ?? '').trim();
  if (raw === '') return [];
  const parsed = parseOrigins(raw.split(','));
  if ('problem' in parsed) throw new ConfigError(`PUBLIC_ORIGIN must be comma-separated origins like https://api.example.com: ${parsed.problem}`);
  return parsed.origins;
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
    keyStaleMs: integer(env, 'KEY_STALE_MS', 600_000, 0, 86_400_000),
    storeTimeoutMs: integer(env, 'STORE_TIMEOUT_MS', 5000, 100, 60_000),
    maxKeysPerAccount: integer(env, 'MAX_KEYS_PER_ACCOUNT', 10, 1, 10_000),
    devKey: onOff(env, 'DEV_KEY', true),
    operatorContact: (env.OPERATOR_CONTACT ?? '').trim(),
    trustProxy: trustProxy(env),
    metricsToken: metricsToken(env),
    maxEventLoopDelayMs: integer(env, 'MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    logRequests: onOff(env, 'LOG_REQUESTS', false),
    demoKey: onOff(env, 'DEMO_KEY', true),
    publicOrigins: publicOrigins(env),
    geoBoundaryToleranceM: integer(env, 'GEO_BOUNDARY_TOLERANCE_M', 100, 0, 5_000),
    geoInlandMaxM: integer(env, 'GEO_INLAND_MAX_M', 30_000, 0, 100_000),
    geoOutsideMaxM: integer(env, 'GEO_OUTSIDE_MAX_M', 3_000, 0, 100_000),
  };
}
