/**
 * SIGTERM while the network to PostgreSQL is stalled (connections open, no answers; a TCP relay that stops
 * relaying): the server's last usage write is bounded by STORE_TIMEOUT_MS, so shutdown ends before
 * SHUTDOWN_TIMEOUT_MS, and it logs how many counted requests it could not write. Nothing is silently lost: stored
 * plus reported lost equals admitted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createKey } from '../../src/keys/issue-keys.js';
import { openStore } from '../../src/keys/open-store.js';
import { monthOf } from '../../src/keys/periods.js';
import { startServer, type ServerProcess } from '../server-process.js';
import { throwawayPostgres, type ThrowawayDatabase } from './stores.js';
import { postgresTarget, TcpRelay } from './tcp-relay.js';

describe('SIGTERM during a PostgreSQL network stall', { timeout: 180_000 }, () => {
  let database: ThrowawayDatabase;
  let relay: TcpRelay;
  let server: ServerProcess | undefined;
  before(async () => {
    database = await throwawayPostgres();
    relay = await new TcpRelay(postgresTarget(database.url)).start();
  });
  after(async () => {
    await server?.kill9().catch(() => undefined);
    await relay.close();
    await database.drop();
  });

  it('exits within the shutdown timeout and logs the count it could not write', async () => {
    const direct = await openStore(database.url);
    await direct.createPlan({ name: 'roomy', monthlyQuota: 1_000_000, perSecond: 10_000 });
    const { key, record } = await createKey(direct, { plan: 'roomy' });
    server = await startServer({
      DATABASE_URL: relay.urlFor(database.url), USAGE_FLUSH_MS: '200', STORE_TIMEOUT_MS: '3000', SHUTDOWN_TIMEOUT_MS: '60000',
    });
    const call = async () => (await fetch(`${server!.url}/v1/provinces`, { headers: { 'x-api-key': key } })).status;
    for (let i = 0; i < 10; i++) assert.equal(await call(), 200);
    await new Promise((resolve) => setTimeout(resolve, 600)); // written
    relay.stall();
    for (let i = 0; i < 7; i++) assert.equal(await call(), 200, 'a cached key works during the stall');
    const code = await server.stop();
    const output = server.output();
    server = undefined;
    assert.equal(code, 1, 'usage could not be written: not a clean exit');
    assert.doesNotMatch(output, /shutdown took too long/, 'the store calls are bounded: shutdown did not need its own timeout');
    const lost = Number(/(\d+) counted requests not written to the key store \(lost\)/.exec(output)?.[1]);
    assert.ok(lost > 0, `the log says how many requests were lost:\n${output.slice(-2000)}`);
    relay.restore();
    const stored = (await direct.monthlyUsage([record.id], monthOf(new Date()))).get(record.id) ?? 0;
    await direct.close();
    assert.equal(stored + lost, 17, `stored ${stored} + lost ${lost} = the 17 admitted`);
  });
});
