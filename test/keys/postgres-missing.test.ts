/** Without a PostgreSQL server, the PostgreSQL tests fail saying how to start one or what to set (issue 14, item 16). */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { throwawayPostgres } from './stores.js';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('no PostgreSQL server', () => {
  it('fails with a message that says how to start one and which variable to set, password hidden', async () => {
    const port = await closedPort();
    await assert.rejects(throwawayPostgres(`postgres://me:hunter2@127.0.0.1:${port}/postgres`), (error: Error) => {
      assert.match(error.message, new RegExp(`found none at postgres://me:\\*\\*\\*@127\\.0\\.0\\.1:${port}/postgres`));
      assert.match(error.message, /ECONNREFUSED/);
      assert.match(error.message, /docker run .*postgres/);
      assert.match(error.message, /TEST_POSTGRES_URL/);
      assert.doesNotMatch(error.message, /hunter2/);
      return true;
    });
  });
});
