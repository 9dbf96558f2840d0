/** `kh-address keys ...` and `plans ...` on a real store, as the operator runs them. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { run } from '../../src/cli/cli.js';
import { isWellFormedKey } from '../../src/keys/key-format.js';
import { openStore } from '../../src/keys/open-store.js';
import { throwawaySqlite, type ThrowawayDatabase } from '../keys/stores.js';

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('kh-address keys and plans', () => {
  let database: ThrowawayDatabase;
  before(async () => {
    database = await throwawaySqlite();
  });
  after(() => database.drop());

  const cli = async (...argv: string[]) => {
    const out = new Sink();
    const err = new Sink();
    const code = await run(argv, out, err, { DATABASE_URL: database.url });
    return { code, out: out.text, err: err.text };
  };

  it('creates a browser key with --origin (repeatable), lists its origins, and changes them', async () => {
    const created = JSON.parse((await cli('keys', 'create', '--name', 'shop web', '--origin', 'https://Shop.example.com/', '--origin', 'http://localhost:5173', '--json')).out) as
      { id: string; key: string; type: string; allowedOrigins: string[] };
    assert.match(created.key, /^khp_/);
    assert.ok(isWellFormedKey(created.key));
    assert.equal(created.type, 'browser');
    assert.deepEqual(created.allowedOrigins, ['https://shop.example.com', 'http://localhost:5173']);
    assert.match((await cli('keys', 'list')).out, new RegExp(`${created.id}.*https://shop.example.com http://localhost:5173`));
    assert.equal((await cli('keys', 'origins', created.id, '--origin', 'https://new.example')).code, 0);
    assert.match((await cli('keys', 'list')).out, new RegExp(`${created.id}.*https://new.example$`, 'm'));
    const bad = await cli('keys', 'create', '--origin', 'shop.example.com');
    assert.equal(bad.code, 2);
    assert.match(bad.err, /--origin: not an origin: "shop.example.com"/);
    const secret = JSON.parse((await cli('keys', 'create', '--json')).out) as { id: string };
    const notBrowser = await cli('keys', 'origins', secret.id, '--origin', 'https://new.example');
    assert.equal(notBrowser.code, 1);
    assert.match(notBrowser.err, /no browser key/);
  });

  it('manages plans', async () => {
    assert.deepEqual(JSON.parse((await cli('plans', 'list', '--json')).out), [{ name: 'free', monthlyQuota: 1000, perSecond: 5 }]);
    assert.equal((await cli('plans', 'create', 'pro', '--monthly-quota', '100000', '--per-second', '50')).code, 0);
    assert.match((await cli('plans', 'update', 'pro', '--per-second', '60')).out, /pro: 100000 requests a month, 60 a second/);
    assert.match((await cli('plans', 'list')).out, /pro\s+100000\s+60/);
  });

  it('creates a key shown once, lists it without the secret, and moves it between plans', async () => {
    const created = JSON.parse((await cli('keys', 'create', '--plan', 'pro', '--name', 'shop', '--json')).out) as { id: string; key: string; plan: string };
    assert.ok(isWellFormedKey(created.key));
    assert.equal(created.plan, 'pro');
    const listed = (await cli('keys', 'list', '--json')).out;
    assert.ok(!listed.includes(created.key), 'the secret is never listed');
    assert.match((await cli('keys', 'list')).out, new RegExp(`${created.id}\\s+khk_\\w{6}\\s+shop\\s+pro`));
    assert.equal((await cli('keys', 'set-plan', created.id, 'free')).code, 0);
    const usage = JSON.parse((await cli('keys', 'usage', created.id, '--json')).out) as { plan: string; used: number; monthlyQuota: number };
    assert.deepEqual([usage.plan, usage.used, usage.monthlyQuota], ['free', 0, 1000]);
  });

  it('rotates (same id, new secret) and revokes', async () => {
    const { id, key } = JSON.parse((await cli('keys', 'create', '--json')).out) as { id: string; key: string };
    const rotated = await cli('keys', 'rotate', id);
    const newKey = /khk_\w{30}/.exec(rotated.out)?.[0];
    assert.ok(newKey && newKey !== key);
    const store = await openStore(database.url);
    try {
      assert.equal((await store.getKey(id))?.prefix, newKey.slice(0, 10));
    } finally {
      await store.close();
    }
    assert.equal((await cli('keys', 'revoke', id)).code, 0);
    const again = await cli('keys', 'revoke', id);
    assert.equal(again.code, 1);
    assert.match(again.err, /no active key/);
  });

  it('says clearly what is wrong, with a non-zero exit', async () => {
    const cases: [string[], number, RegExp][] = [
      [['keys'], 2, /keys needs a subcommand/],
      [['keys', 'create', '--plan', 'gold'], 2, /no plan named gold/],
      [['keys', 'revoke'], 2, /expected 1 argument/],
      [['keys', 'usage', 'key_nope'], 1, /no key key_nope/],
      [['keys', 'set-plan', 'key_nope', 'nope'], 1, /no plan named nope/],
      [['plans', 'create', 'Big Plan', '--monthly-quota', '1', '--per-second', '1'], 2, /a plan name is/],
      [['plans', 'create', 'x', '--monthly-quota=-5', '--per-second', '1'], 2, /--monthly-quota must be a whole number/],
      [['plans', 'create', 'x', '--monthly-quota', '1.5', '--per-second', '1'], 2, /--monthly-quota must be a whole number/],
      [['plans', 'create', 'x', '--per-second', '1'], 2, /needs --monthly-quota and --per-second/],
      [['plans', 'create', 'pro', '--monthly-quota', '1', '--per-second', '1'], 1, /plan pro exists/],
      [['plans', 'update', 'nope', '--per-second', '1'], 1, /no plan named nope/],
      [['plans', 'fly'], 2, /unknown plans subcommand/],
    ];
    for (const [argv, code, message] of cases) {
      const result = await cli(...argv);
      assert.equal(result.code, code, argv.join(' '));
      assert.match(result.err, message, argv.join(' '));
    }
    const bad = new Sink();
    assert.equal(await run(['plans', 'list'], new Sink(), bad, { DATABASE_URL: 'mysql://x' }), 1);
    assert.match(bad.text, /DATABASE_URL must be/);
  });
});
