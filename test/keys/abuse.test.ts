/** Many invalid keys from one client must not reach the store: the checksum refuses made-up keys, and unknown keys are cached. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { AccessControl } from '../../src/keys/access-control.js';
import { generateKey } from '../../src/keys/key-format.js';
import type { KeyStore } from '../../src/keys/store.js';
import { UsageMeter } from '../../src/keys/usage-meter.js';
import { appOptions } from '../helper.js';
import { freshStore } from './stores.js';

describe('invalid keys in bulk', () => {
  let app: FastifyInstance;
  let lookups = 0;
  let close: () => Promise<void>;
  before(async () => {
    const fresh = await freshStore('sqlite');
    close = fresh.close;
    // The real store, with its key lookups counted.
    const counted: KeyStore = Object.create(fresh.store, {
      findKeyByHash: { value: (hash: string) => { lookups++; return fresh.store.findKeyByHash(hash); } },
    });
    const access = new AccessControl(counted, new UsageMeter(counted, { flushIntervalMs: 60_000 }), { keyCacheTtlMs: 60_000 });
    app = await buildApp({ ...appOptions(), access });
  });
  after(async () => {
    await app.close();
    await close();
  });

  it('refuses 2,000 made-up and 2,000 unknown-but-well-formed keys with 10 store lookups', async () => {
    const unknown = Array.from({ length: 10 }, generateKey);
    const statuses = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const madeUp = `khk_${String(i).padStart(30, 'x')}`;
      statuses.add((await app.inject({ url: '/provinces', headers: { 'x-api-key': madeUp } })).statusCode);
      statuses.add((await app.inject({ url: '/provinces', headers: { 'x-api-key': unknown[i % 10]! } })).statusCode);
    }
    assert.deepEqual([...statuses], [401]);
    assert.equal(lookups, 10, 'one lookup per distinct well-formed key, then the negative cache answers');
  });
});
