/**
 * The README's Quick start works on a first try (issue 14, item 17): its example requests, made one after the other
 * with the development key the server prints at first start, all answer 200 (on the free plan's 5 a second the
 * sixth was a 429), and they use $BASE rather than a fixed port.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/http/app.js';
import { AccessControl } from '../src/keys/access-control.js';
import { createDevelopmentKey, DEVELOPMENT_PLAN } from '../src/keys/keys.js';
import type { KeyStore } from '../src/keys/store.js';
import { UsageMeter } from '../src/keys/usage-meter.js';
import { appOptions } from './helper.js';
import { freshStore } from './keys/stores.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 3));
const curls = [...quickStart.matchAll(/^curl .*$/gm)].map((m) => m[0]);

describe('README Quick start', () => {
  let app: FastifyInstance;
  let store: KeyStore;
  let meter: UsageMeter;
  let close: () => Promise<void>;
  before(async () => {
    ({ store, close } = await freshStore('sqlite'));
    meter = new UsageMeter(store, { flushIntervalMs: 60_000 });
    app = await buildApp({ ...appOptions(), access: new AccessControl(store, meter, { keyCacheTtlMs: 10_000 }), store });
  });
  after(async () => {
    await app.close();
    await meter.stop();
    await close();
  });

  it('has its examples on $BASE, which it defines from $PORT', () => {
    assert.ok(curls.length >= 6, `${curls.length} curl lines`);
    assert.match(quickStart, /export BASE=http:\/\/127\.0\.0\.1:\$\{PORT:-3000\}/);
    for (const line of curls) {
      assert.match(line, /"\$BASE\/[^"]*"/, line);
      assert.doesNotMatch(line, /127\.0\.0\.1|localhost|:3000/, line);
    }
  });

  it('runs every example at once with the development key, all 200', async () => {
    const key = await createDevelopmentKey(store);
    assert.ok(key);
    const [record] = await store.listKeys();
    assert.equal(record!.plan, DEVELOPMENT_PLAN.name);
    assert.ok(DEVELOPMENT_PLAN.perSecond >= 2 * curls.length, 'room for the examples twice in one second');
    // Twice, back to back: well within one second on any machine that runs the suite at all.
    for (let round = 0; round < 2; round++) {
      for (const line of curls) {
        const path = /"\$BASE(\/[^"]*)"/.exec(line)![1]!;
        const response: LightMyRequestResponse = await app.inject({ url: path, headers: { 'x-api-key': key } });
        assert.equal(response.statusCode, 200, `${path}: ${response.body.slice(0, 200)}`);
      }
    }
  });

  it('says what npm test needs: PostgreSQL (or TEST_POSTGRES_URL) and Chromium with a Khmer font', () => {
    assert.match(quickStart, /npm test/);
    assert.match(quickStart, /PostgreSQL/);
    assert.match(quickStart, /TEST_POSTGRES_URL/);
    assert.match(quickStart, /Chromium/);
    assert.match(quickStart, /fonts-khmeros/);
  });
});
