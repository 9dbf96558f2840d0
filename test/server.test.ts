import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { throwawaySqlite } from './keys/stores.js';
import { startServer } from './server-process.js';

describe('server', () => {
  it('starts on PORT, answers /health without a key, and exits cleanly on SIGTERM', async () => {
    const database = await throwawaySqlite();
    try {
      const server = await startServer({ DATABASE_URL: database.url });
      const response = await fetch(`${server.url}/health`);
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { status: string }).status, 'ok');
      assert.equal((await fetch(`${server.url}/provinces`)).status, 401);
      assert.match(server.output(), /"units":16465.*"gazetteer loaded"/);
      assert.match(server.output(), /"store":"sqlite".*"key store ready"/);
      // Run from src/, there is no build snapshot beside the code: the index is built, and the log says why.
      assert.match(server.output(), /"snapshot":"no snapshot \(npm run build writes it\)".*"search index built at start: no usable snapshot"/);
      assert.equal(await server.stop(), 0);
    } finally {
      await database.drop();
    }
  });

  it('refuses bad configuration with a clear message', async () => {
    for (const [env, message] of [[{ PORT: 'eighty' }, /configuration: PORT must be an integer/],
      [{ DATABASE_URL: 'mysql://x' }, /configuration: DATABASE_URL must be/], [{ USAGE_FLUSH_MS: '5' }, /USAGE_FLUSH_MS must be an integer from 50/]] as const) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = await once(child, 'exit');
      assert.equal(code, 1, JSON.stringify(env));
      assert.match(stderr, message);
    }
  });
});
