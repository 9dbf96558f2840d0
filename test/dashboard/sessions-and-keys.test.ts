/**
 * The dashboard as a person uses it: CSRF tokens bound to the session and their cookie, new secrets shown once
 * (POST/redirect/GET: reloading neither makes nor rotates a key again), last-used and time zones, the usage chart,
 * and the operator contact line.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, type DashboardApp, dashboardApp, issueKey, signedUp } from './helper.js';

describe('CSRF tokens and their cookie', () => {
  let d: DashboardApp;
  before(async () => {
    d = await dashboardApp({ trustProxy: true });
  });
  after(() => d.close());

  it('refuses a token made for another session, even with the same secret cookie', async () => {
    const mallory = await signedUp(d.app, 'mallory@example.com');
    await mallory.get('/dashboard');
    const malloryToken = mallory.csrf();
    const victim = await signedUp(d.app, 'victim@example.com');
    // Cookie tossing: the attacker planted their own CSRF secret in the victim's browser and uses their own token.
    victim.setCookie('kh_csrf', mallory.cookie('kh_csrf')!);
    const forged = await victim.post('/dashboard/keys', { _csrf: malloryToken, name: 'forged' }, { csrf: false });
    assert.equal(forged.statusCode, 403);
    assert.equal((await d.store.listKeys()).filter((k) => k.name === 'forged').length, 0);
    // A token of the signed-out pages does not work once signed in, either.
    const visitor = new Client(d.app);
    await visitor.get('/signin');
    victim.setCookie('kh_csrf', visitor.cookie('kh_csrf')!);
    assert.equal((await victim.post('/dashboard/keys', { _csrf: visitor.csrf(), name: 'forged' }, { csrf: false })).statusCode, 403);
    // The victim's own page token works.
    await victim.get('/dashboard');
    assert.equal((await victim.post('/dashboard/keys', { name: 'mine' })).statusCode, 303);
  });

  it('keeps the secret in a __Host- cookie, Secure, over HTTPS; a plain-named cookie is ignored there', async () => {
    const client = new Client(d.app, { 'x-forwarded-proto': 'https' });
    const page = await client.get('/signup');
    const cookie = page.cookies.find((c) => c.name === '__Host-kh_csrf');
    assert.ok(cookie, 'the __Host- cookie is set');
    assert.equal(cookie.secure, true);
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.path, '/');
    assert.equal(cookie.domain, undefined);
    assert.equal(page.cookies.find((c) => c.name === 'kh_csrf'), undefined);
    assert.equal((await client.post('/signup', { email: 'https@example.com', password: 'a long enough password' })).statusCode, 303);

    // Over HTTPS, a secret in the plain-named cookie (which a subdomain could have set) does not count.
    const tossed = new Client(d.app, { 'x-forwarded-proto': 'https' });
    const plain = new Client(d.app);
    await plain.get('/signup');
    tossed.setCookie('kh_csrf', plain.cookie('kh_csrf')!);
    assert.equal((await tossed.post('/signup', { _csrf: plain.csrf(), email: 'tossed@example.com', password: 'a long enough password' }, { csrf: false })).statusCode, 403);

    const http = (await new Client(d.app).get('/signup')).cookies.find((c) => c.name === 'kh_csrf');
    assert.ok(http);
    assert.equal(http.secure, undefined, 'not Secure over plain HTTP (local development)');
  });
});

describe('new keys shown once', () => {
  let d: DashboardApp;
  before(async () => {
    d = await dashboardApp();
  });
  after(() => d.close());

  it('makes one key per submitted form: reloading the shown page neither makes another nor shows the secret again', async () => {
    const client = await signedUp(d.app, 'prg@example.com');
    await client.get('/dashboard');
    const { key, post, shown } = await issueKey(client, '/dashboard/keys', { name: 'once' });
    const location = String(post.headers.location);
    assert.match(location, /^\/dashboard\/keys\/new\/[\w-]{22}$/);
    assert.ok(!location.includes(key) && !String(post.body).includes(key), 'the secret is not in the redirect');
    assert.equal(shown.statusCode, 200);
    assert.equal(shown.headers['cache-control'], 'no-store');
    const reload = await client.get(location);
    assert.equal(reload.statusCode, 410);
    assert.ok(!reload.body.includes(key));
    assert.match(reload.body, /shown only once/);
    assert.equal((await d.store.listKeys({ ownerId: (await d.store.findAccountByEmail('prg@example.com'))!.id })).length, 1);
  });

  it('rotates once per submitted form, and never shows a secret to another account', async () => {
    const client = await signedUp(d.app, 'rotate-once@example.com');
    await client.get('/dashboard');
    const { key } = await issueKey(client, '/dashboard/keys', { name: 'r' });
    const id = /data-key-id="(key_\w+)"/.exec((await client.get('/dashboard')).body)![1]!;
    await client.get(`/dashboard/keys/${id}/rotate`);
    const rotate = await client.post(`/dashboard/keys/${id}/rotate`, {});
    assert.equal(rotate.statusCode, 303);
    const location = String(rotate.headers.location);
    // Another account opening the link finds nothing, and does not use it up.
    const other = await signedUp(d.app, 'nosy@example.com');
    const nosy = await other.get(location);
    assert.equal(nosy.statusCode, 410);
    assert.doesNotMatch(nosy.body, /khk_/);
    const shown = await client.get(location);
    const rotated = /id="new-key">(khk_\w+)</.exec(shown.body)![1]!;
    assert.notEqual(rotated, key);
    assert.equal((await client.get(location)).statusCode, 410, 'reloading does not rotate again');
    assert.equal((await d.app.inject({ url: '/v1/provinces', headers: { 'x-api-key': rotated } })).statusCode, 200, 'the key just copied still works');
    // A signed-out visitor is sent to sign in.
    assert.equal((await new Client(d.app).get(location)).statusCode, 303);
  });
});

describe('dashboard details', () => {
  let d: DashboardApp;
  before(async () => {
    d = await dashboardApp();
  });
  after(() => d.close());

  it('says a key was used in the last few seconds before the usage is written, then the time with its zone', async () => {
    const client = await signedUp(d.app, 'lastused@example.com');
    await client.get('/dashboard');
    const { key } = await issueKey(client, '/dashboard/keys', { name: 'lu' });
    const before = (await client.get('/dashboard')).body;
    assert.match(before, /data-label="Last used">never</);
    assert.match(before, /No usage yet/, 'an empty chart says so');
    assert.doesNotMatch(before, /<svg/);
    assert.match(before, /data-label="Created"><time datetime="[^"]+">\d{4}-\d\d-\d\d UTC<\/time>/);

    assert.equal((await d.app.inject({ url: '/v1/provinces', headers: { 'x-api-key': key } })).statusCode, 200);
    const counted = (await client.get('/dashboard')).body;
    assert.match(counted, /1 of 1000 requests used/);
    assert.match(counted, /data-label="Last used">in the last few seconds</);

    await d.access.meter.flush();
    const written = (await client.get('/dashboard')).body;
    assert.match(written, /data-label="Last used"><time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time></);
    // The chart: axes labelled with counts and dates, a summary in words.
    const today = new Date().toISOString().slice(0, 10);
    assert.match(written, /<text class="y-max"[^>]*>1<\/text>/);
    assert.match(written, /<text class="y-zero"[^>]*>0<\/text>/);
    assert.match(written, new RegExp(`<text class="x-last"[^>]*>${today.slice(5)}</text>`));
    assert.match(written, /Requests in 30 days: 1; busiest day: 1\./);
    assert.match(written, new RegExp(`<title>${today}: 1</title>`));
  });

  it('shows the operator contact only when there is one', async () => {
    const client = await signedUp(d.app, 'contact@example.com');
    const withContact = (await client.get('/dashboard')).body;
    assert.match(withContact, /Contact the operator for a higher plan: <a href="mailto:api@example.org">api@example.org<\/a>/);
    const bare = await dashboardApp({ operatorContact: '' });
    try {
      const c = await signedUp(bare.app, 'nocontact@example.com');
      const page = (await c.get('/dashboard')).body;
      assert.doesNotMatch(page, /Contact the operator|operator of this service/);
      assert.doesNotMatch((await c.get('/')).body, /Higher plans from the operator/);
    } finally {
      await bare.close();
    }
  });
});
