/**
 * Sign-in guesses and sign-ups under attack, through real HTTP requests (inject) with real concurrency: the limits
 * hold when every guess arrives at once, a stranger cannot lock the owner out, sign-ups are throttled per address.
 * Client addresses come from X-Forwarded-For (the app trusts the proxy here).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addressKey, SIGN_IN_LIMITS, SIGN_UPS_PER_ADDRESS, SignInLimiter, SignUpLimiter, SlidingWindow } from '../../src/dashboard/attempts.js';
import { Client, type DashboardApp, dashboardApp, signedUp } from './helper.js';

/** A client at its own address, on the sign-in page. */
async function from(d: DashboardApp, address: string): Promise<Client> {
  const client = new Client(d.app, { 'x-forwarded-for': address });
  await client.get('/signin');
  return client;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('sign-in and sign-up limits', () => {
  let d: DashboardApp;
  before(async () => {
    d = await dashboardApp({ trustProxy: true });
  });
  after(() => d.close());

  it('verifies at most the allowed number of guesses when 150 arrive at once', async () => {
    await signedUp(d.app, 'race@example.com');
    const attacker = await from(d, '198.51.100.1');
    const csrf = attacker.csrf();
    const statuses = (await Promise.all(Array.from({ length: 150 }, () =>
      attacker.post('/signin', { _csrf: csrf, email: 'race@example.com', password: 'wrong password!' }, { csrf: false })))).map((r) => r.statusCode);
    assert.equal(count(statuses, 401), SIGN_IN_LIMITS.perPair, 'only the reserved guesses were verified');
    assert.equal(count(statuses, 429), 150 - SIGN_IN_LIMITS.perPair);
  });

  it('limits one address over many emails', async () => {
    const sprayer = await from(d, '198.51.100.2');
    const csrf = sprayer.csrf();
    const statuses = (await Promise.all(Array.from({ length: 40 }, (_, i) =>
      sprayer.post('/signin', { _csrf: csrf, email: `spray${i}@example.com`, password: 'wrong password!' }, { csrf: false })))).map((r) => r.statusCode);
    assert.equal(count(statuses, 401), SIGN_IN_LIMITS.perAddress);
    assert.equal(count(statuses, 429), 40 - SIGN_IN_LIMITS.perAddress);
  });

  it('does not let a stranger lock the owner out from where the owner signs in', async () => {
    const owner = await signedUp(d.app, 'owner@example.com');
    // The owner signs in once from home: that address becomes known for the account.
    const home = await from(d, '203.0.113.7');
    assert.equal((await home.post('/signin', { email: 'owner@example.com', password: 'correct horse battery' })).statusCode, 303);
    void owner;

    // One attacker address: refused after its 5 guesses; the owner at home is not.
    const attacker = await from(d, '198.51.100.3');
    for (let i = 0; i < SIGN_IN_LIMITS.perPair; i++) {
      assert.equal((await attacker.post('/signin', { email: 'owner@example.com', password: `guess ${i} wrong` })).statusCode, 401);
      await attacker.get('/signin');
    }
    assert.equal((await attacker.post('/signin', { email: 'owner@example.com', password: 'correct horse battery' })).statusCode, 429);
    let owners = await from(d, '203.0.113.7');
    assert.equal((await owners.post('/signin', { email: 'owner@example.com', password: 'correct horse battery' })).statusCode, 303);

    // Many attacker addresses at once (IPv6 /64s): at most perEmail guesses verified for the email in all.
    const botnet = await Promise.all(Array.from({ length: 30 }, (_, i) => from(d, `2001:db8:${i + 1}::1`)));
    const statuses = (await Promise.all(botnet.map((bot) => bot.post('/signin', { email: 'owner@example.com', password: 'a wrong guess' })))).map((r) => r.statusCode);
    assert.ok(count(statuses, 401) <= SIGN_IN_LIMITS.perEmail - SIGN_IN_LIMITS.perPair, `${count(statuses, 401)} verified`);
    assert.equal(count(statuses, 401) + count(statuses, 429), 30);
    // The owner still gets in from home; a new address waits until the window passes (documented trade-off).
    owners = await from(d, '203.0.113.7');
    assert.equal((await owners.post('/signin', { email: 'owner@example.com', password: 'correct horse battery' })).statusCode, 303);
    const elsewhere = await from(d, '192.0.2.99');
    assert.equal((await elsewhere.post('/signin', { email: 'owner@example.com', password: 'correct horse battery' })).statusCode, 429);
  });

  it('counts IPv6 addresses of one /64 together', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMITS.perPair + 1; i++) {
      const client = await from(d, `2001:db8:ffff:1::${i + 1}`);
      statuses.push((await client.post('/signin', { email: 'v6@example.com', password: 'a wrong guess' })).statusCode);
    }
    assert.deepEqual(statuses, [...Array<number>(SIGN_IN_LIMITS.perPair).fill(401), 429]);
  });

  it('throttles sign-ups per address, even when they arrive at once', async () => {
    const client = new Client(d.app, { 'x-forwarded-for': '198.51.100.50' });
    await client.get('/signup');
    const csrf = client.csrf();
    const statuses = (await Promise.all(Array.from({ length: SIGN_UPS_PER_ADDRESS + 5 }, (_, i) =>
      client.post('/signup', { _csrf: csrf, email: `many${i}@example.com`, password: 'a long enough password' }, { csrf: false })))).map((r) => r.statusCode);
    assert.equal(count(statuses, 303), SIGN_UPS_PER_ADDRESS);
    assert.equal(count(statuses, 429), 5);
    const other = new Client(d.app, { 'x-forwarded-for': '198.51.100.51' });
    await other.get('/signup');
    assert.equal((await other.post('/signup', { email: 'another@example.com', password: 'a long enough password' })).statusCode, 303);
  });
});

describe('attempt limiter (pure)', () => {
  it('reserves before the verify and gives a success back', () => {
    const limiter = new SignInLimiter();
    const now = 1_000_000;
    const reservations = Array.from({ length: SIGN_IN_LIMITS.perPair }, () => limiter.reserve('a@example.com', '192.0.2.1', now));
    assert.ok(reservations.every((r) => r !== 'blocked'));
    assert.equal(limiter.reserve('a@example.com', '192.0.2.1', now), 'blocked');
    limiter.succeeded(reservations[0] as Exclude<(typeof reservations)[0], 'blocked'>, now);
    assert.notEqual(limiter.reserve('a@example.com', '192.0.2.1', now), 'blocked', 'a success clears the pair');
    assert.notEqual(limiter.reserve('a@example.com', '192.0.2.1', now + 15 * 60_000 + 1), 'blocked', 'the window passes');
  });

  it('throttles sign-ups per address in a window', () => {
    const limiter = new SignUpLimiter();
    for (let i = 0; i < SIGN_UPS_PER_ADDRESS; i++) assert.ok(limiter.reserve('192.0.2.1', 0));
    assert.ok(!limiter.reserve('192.0.2.1', 1));
    assert.ok(limiter.reserve('192.0.2.2', 1));
    assert.ok(limiter.reserve('192.0.2.1', 60 * 60_000 + 1));
  });

  it('keeps its tables bounded', () => {
    const window = new SlidingWindow(60_000, 1000);
    for (let i = 0; i < 5000; i++) window.add(`k${i}`, 0);
    assert.ok(window.size <= 1000, String(window.size));
  });

  it('reduces IPv6 addresses to their /64 and keeps IPv4 as is', () => {
    assert.equal(addressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(addressKey('2001:0db8:0001:0002::9'), '2001:db8:1:2::/64');
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
    assert.equal(addressKey('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(addressKey('192.0.2.1'), '192.0.2.1');
  });
});
