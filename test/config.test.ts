import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('has safe defaults', () => {
    assert.deepEqual(loadConfig({}), {
      port: 3000, host: '127.0.0.1', logLevel: 'info', databaseUrl: 'sqlite:./var/kh-address.db', usageFlushMs: 1000,
      keyCacheTtlMs: 10_000, keyStaleMs: 600_000, storeTimeoutMs: 5000, maxKeysPerAccount: 10, devKey: true, operatorContact: '', trustProxy: false, metricsToken: '', maxEventLoopDelayMs: 1000,
      shutdownTimeoutMs: 10_000, logRequests: false, geoBoundaryToleranceM: 100, geoInlandMaxM: 30_000, geoOutsideMaxM: 3000, demoKey: true, publicOrigins: [],
    });
  });

  it('reads every variable', () => {
    assert.deepEqual(loadConfig({
      PORT: '8080', HOST: '0.0.0.0', LOG_LEVEL: 'warn', DATABASE_URL: 'postgres://u@db:5432/kh', USAGE_FLUSH_MS: '250',
      KEY_CACHE_TTL_MS: '0', KEY_STALE_MS: '60000', STORE_TIMEOUT_MS: '2000', MAX_KEYS_PER_ACCOUNT: '3', DEV_KEY: 'off', OPERATOR_CONTACT: ' api@example.org ', TRUST_PROXY: 'on',
      METRICS_TOKEN: 'a-long-enough-token', MAX_EVENT_LOOP_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '5000', LOG_REQUESTS: 'on',
      GEO_BOUNDARY_TOLERANCE_M: '50', GEO_INLAND_MAX_M: '0', GEO_OUTSIDE_MAX_M: '500',
      DEMO_KEY: 'off', PUBLIC_ORIGIN: 'https://API.example.org/, https://kh.example.org:8443',
    }), {
      port: 8080, host: '0.0.0.0', logLevel: 'warn', databaseUrl: 'postgres://u@db:5432/kh', usageFlushMs: 250, keyCacheTtlMs: 0,
      keyStaleMs: 60_000, storeTimeoutMs: 2000, maxKeysPerAccount: 3, devKey: false, operatorContact: 'api@example.org', trustProxy: 1, metricsToken: 'a-long-enough-token', maxEventLoopDelayMs: 0,
      shutdownTimeoutMs: 5000, logRequests: true, geoBoundaryToleranceM: 50, geoInlandMaxM: 0, geoOutsideMaxM: 500,
      demoKey: false, publicOrigins: ['https://api.example.org', 'https://kh.example.org:8443'],
    });
  });

  it('rejects bad values naming the variable', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty' }), (e: unknown) => e instanceof ConfigError && /PORT/.test(e.message));
    assert.throws(() => loadConfig({ PORT: '70000' }), /PORT must be an integer from 0 to 65535/);
    assert.throws(() => loadConfig({ PORT: '1e3' }), /PORT must be an integer/);
    assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), /LOG_LEVEL must be one of/);
    assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL must be sqlite:<path> or postgres:/);
    assert.throws(() => loadConfig({ USAGE_FLUSH_MS: '10' }), /USAGE_FLUSH_MS must be an integer from 50 to 60000/);
    assert.throws(() => loadConfig({ DEV_KEY: 'maybe' }), /DEV_KEY must be on or off/);
    assert.throws(() => loadConfig({ TRUST_PROXY: 'sometimes' }), /TRUST_PROXY must be off, on \(one proxy in front\), a hop count/);
    assert.throws(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8, *' }), /TRUST_PROXY must be/);
    assert.throws(() => loadConfig({ TRUST_PROXY: '1.5' }), /TRUST_PROXY must be/);
    assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN must be 16 to 200/);
    assert.throws(() => loadConfig({ DEMO_KEY: 'sure' }), /DEMO_KEY must be on or off/);
    assert.throws(() => loadConfig({ PUBLIC_ORIGIN: 'api.example.org' }), /PUBLIC_ORIGIN must be comma-separated origins/);
    assert.throws(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '10' }), /SHUTDOWN_TIMEOUT_MS must be an integer from 100/);
    assert.throws(() => loadConfig({ GEO_BOUNDARY_TOLERANCE_M: '-1' }), /GEO_BOUNDARY_TOLERANCE_M must be an integer from 0 to 5000/);
    assert.throws(() => loadConfig({ GEO_OUTSIDE_MAX_M: '1e9' }), /GEO_OUTSIDE_MAX_M must be an integer/);
  });

  it('reads TRUST_PROXY as off, one hop (on), a hop count or proxy addresses, never "every hop"', () => {
    const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
    assert.equal(trust('off'), false);
    assert.equal(trust(''), false);
    assert.equal(trust('on'), 1);
    assert.equal(trust('2'), 2);
    assert.deepEqual(trust('10.0.0.0/8, 127.0.0.1,::1,loopback'), ['10.0.0.0/8', '127.0.0.1', '::1', 'loopback']);
  });
});
