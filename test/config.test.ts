import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('has safe defaults', () => {
    assert.deepEqual(loadConfig({}), { port: 3000, host: '127.0.0.1', logLevel: 'info' });
  });

  it('reads PORT, HOST and LOG_LEVEL', () => {
    assert.deepEqual(loadConfig({ PORT: '8080', HOST: '0.0.0.0', LOG_LEVEL: 'warn' }), { port: 8080, host: '0.0.0.0', logLevel: 'warn' });
  });

  it('rejects bad values naming the variable', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty' }), (e: unknown) => e instanceof ConfigError && /PORT/.test(e.message));
    assert.throws(() => loadConfig({ PORT: '70000' }), /PORT must be an integer from 0 to 65535/);
    assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), /LOG_LEVEL must be one of/);
  });
});
