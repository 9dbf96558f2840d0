/** The dashboard's flows and its security, through inject(): CSRF, cookies, sign-in limit, isolation between users. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, type DashboardApp, dashboardApp, issueKey, signedUp } from './helper.js';

describe('developer dashboard', () => {
  let d: DashboardApp;
  before(async () => {
    d = await dashboardApp();
  });
  after(() => d.close());

  it('shows the landing page with a live search that needs no key', async () => {
    const client = new Client(d.app);
    const page = await client.get('/?q=Battambang');
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<li><strong>Battambang<\/strong>/);
    assert.match(page.body, /href="\/signup"/);
    assert.match((await client.get('/?q=%E1%9E%97%E1%9F%92%E1%9E%93%E1%9F%86%E1%9E%96%E1%9F%81%E1%9E%89&lang=km')).body, /<html lang="km">[\s\S]*ភ្នំពេញ/);
  });

  it('escapes what users type', async () => {
    const page = await new Client(d.app).get(`/?q=${encodeURIComponent('<script>alert(1)</script>')}`);
    assert.doesNotMatch(page.body, /<script>alert/);
    assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  it('signs up with a hashed password, sets a safe session cookie and shows the dashboard', async () => {
    const client = new Client(d.app);
    await client.get('/signup');
    const response = await client.post('/signup', { email: 'Sokha@Example.com', password: 'a long enough password' });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, '/dashboard');
    const session = response.cookies.find((c) => c.name === 'kh_session')!;
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Lax');
    assert.equal(session.secure, undefined, 'not Secure over plain HTTP');
    const account = await d.store.findAccountByEmail('sokha@example.com');
    assert.match(account!.passwordHash, /^scrypt\$16384\$8\$5\$/);
    assert.ok(!account!.passwordHash.includes('a long enough password'));
    assert.match((await client.get('/dashboard')).body, /Your API keys/);
  });

  it('marks the session cookie Secure over HTTPS (behind a proxy that says so)', async () => {
    const proxied = await dashboardApp({ trustProxy: true });
    try {
      const client = new Client(proxied.app, { 'x-forwarded-proto': 'https' });
      await client.get('/signup');
      const response = await client.post('/signup', { email: 'secure@example.com', password: 'a long enough password' });
      assert.equal(response.cookies.find((c) => c.name === 'kh_session')!.secure, true);
    } finally {
      await proxied.close();
    }
  });

  it('refuses forms without a valid CSRF token', async () => {
    const client = new Client(d.app);
    await client.get('/signup');
    const without = await client.post('/signup', { email: 'x@example.com', password: 'a long enough password' }, { csrf: false });
    assert.equal(without.statusCode, 403);
    const forged = await client.post('/signup', { email: 'x@example.com', password: 'a long enough password', _csrf: 'forged' }, { csrf: false });
    assert.equal(forged.statusCode, 403);
    assert.equal(await d.store.findAccountByEmail('x@example.com'), undefined);
    const signedIn = await signedUp(d.app, 'csrf@example.com');
    await signedIn.get('/dashboard');
    assert.equal((await signedIn.post('/dashboard/keys', { name: 'no token' }, { csrf: false })).statusCode, 403);
    assert.equal((await d.store.listKeys()).filter((k) => k.name === 'no token').length, 0);
  });

  it('says the same for an unknown email and a wrong password, and limits sign-in attempts', async () => {
    await signedUp(d.app, 'limit@example.com');
    const client = new Client(d.app);
    await client.get('/signin');
    const unknown = await client.post('/signin', { email: 'nobody@example.com', password: 'whatever password' });
    await client.get('/signin');
    const wrong = await client.post('/signin', { email: 'limit@example.com', password: 'wrong password!' });
    assert.equal(unknown.statusCode, 401);
    assert.equal(wrong.statusCode, 401);
    const message = (body: string) => /role="alert">([^<]+)</.exec(body)?.[1];
    assert.equal(message(unknown.body), message(wrong.body));
    for (let i = 0; i < 4; i++) {
      await client.get('/signin');
      assert.equal((await client.post('/signin', { email: 'limit@example.com', password: 'wrong password!' })).statusCode, 401);
    }
    await client.get('/signin');
    const blocked = await client.post('/signin', { email: 'limit@example.com', password: 'correct horse battery' });
    assert.equal(blocked.statusCode, 429, 'even the right password waits once the limit is reached (from this address)');
    assert.match(blocked.body, /Too many attempts/);
  });

  it('creates, renames, rotates and revokes keys; the key works, then is refused', async () => {
    const client = await signedUp(d.app, 'keys@example.com');
    await client.get('/dashboard');
    const { key, post: created, shown } = await issueKey(client, '/dashboard/keys', { name: 'my shop' });
    assert.equal(created.statusCode, 303, 'POST/redirect/GET');
    assert.match(shown.body, /curl -H "x-api-key: \$KH_ADDRESS_KEY" "http:\/\/localhost(:80)?\/search\?q=Battambang"/);
    assert.equal((await d.app.inject({ url: '/v1/provinces', headers: { 'x-api-key': key } })).statusCode, 200);
    const dashboard = (await client.get('/dashboard')).body;
    assert.match(dashboard, /1 of 1000 requests used/);
    assert.ok(!dashboard.includes(key), 'the secret is never shown again');
    const id = /data-key-id="(key_\w+)"/.exec(dashboard)![1]!;

    assert.equal((await client.post(`/dashboard/keys/${id}/rename`, { name: 'renamed shop' })).statusCode, 303);
    assert.match((await client.get('/dashboard')).body, /value="renamed shop"/);

    await client.get(`/dashboard/keys/${id}/rotate`);
    const { key: rotated } = await issueKey(client, `/dashboard/keys/${id}/rotate`);
    assert.notEqual(rotated, key);
    assert.equal((await d.app.inject({ url: '/v1/provinces', headers: { 'x-api-key': key } })).statusCode, 401);
    assert.equal((await d.app.inject({ url: '/v1/provinces', headers: { 'x-api-key': rotated } })).statusCode, 200);

    const confirm = await client.get(`/dashboard/keys/${id}/revoke`);
    assert.match(confirm.body, /cannot be undone/);
    assert.equal((await client.post(`/dashboard/keys/${id}/revoke`, {})).statusCode, 303);
    assert.equal((await d.app.inject({ url: '/v1/provinces', headers: { 'x-api-key': rotated } })).json().error.code, 'invalid_api_key');
    assert.match((await client.get('/dashboard')).body, /<strong>revoked<\/strong>/);
  });

  it('explains secret and browser keys, creates a browser key for its origins, and edits them', async () => {
    const client = await signedUp(d.app, 'web@example.com');
    const page = (await client.get('/dashboard')).body;
    assert.match(page, /Secret key<\/strong> \(<code>khk_…<\/code>\): For your server/);
    assert.match(page, /Browser key<\/strong> \(<code>khp_…<\/code>\): For a web page/);
    assert.match((await client.get('/dashboard?lang=km')).body, /សោកម្មវិធីរុករក<\/strong> \(<code>khp_…<\/code>\)/);
    await client.get('/dashboard?lang=en');
    const refused = await client.post('/dashboard/browser-keys', { name: 'web', origins: 'shop.example.com/checkout' });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /role="alert">not an origin: &quot;shop.example.com\/checkout&quot;/);
    await client.get('/dashboard');
    const { key, shown } = await issueKey(client, '/dashboard/browser-keys', { name: 'web', origins: 'https://shop.example.com\r\nhttp://localhost:5173' });
    assert.match(key, /^khp_/);
    assert.match(shown.body, /&lt;kh-address-picker api-base="http:\/\/localhost(:80)?" api-key="khp_\w+"/);
    const from = (origin: string) => d.app.inject({ url: '/v1/provinces', headers: { 'x-api-key': key, origin } });
    assert.equal((await from('https://shop.example.com')).statusCode, 200);
    assert.equal((await from('https://evil.example')).statusCode, 403);
    const dashboard = (await client.get('/dashboard')).body;
    assert.match(dashboard, />browser\s/);
    const id = /data-key-id="(key_\w+)"/.exec(dashboard)![1]!;
    assert.match(dashboard, /https:\/\/shop.example.com\nhttp:\/\/localhost:5173<\/textarea>/);
    assert.equal((await client.post(`/dashboard/keys/${id}/origins`, { origins: 'https://new.example' })).statusCode, 303);
    assert.equal((await from('https://shop.example.com')).statusCode, 403, 'applied at once on this server');
    assert.equal((await from('https://new.example')).statusCode, 200);
  });

  it('never lets one developer see, rotate or revoke another\'s keys', async () => {
    const alice = await signedUp(d.app, 'alice@example.com');
    await alice.get('/dashboard');
    const { key: aliceKey } = await issueKey(alice, '/dashboard/keys', { name: 'alice key' });
    const aliceId = /data-key-id="(key_\w+)"/.exec((await alice.get('/dashboard')).body)![1]!;
    const bob = await signedUp(d.app, 'bob@example.com');
    assert.doesNotMatch((await bob.get('/dashboard')).body, /alice key/);
    assert.equal((await bob.get(`/dashboard/keys/${aliceId}/revoke`)).statusCode, 404);
    await bob.get('/dashboard');
    assert.equal((await bob.post(`/dashboard/keys/${aliceId}/revoke`, {})).statusCode, 404);
    await bob.get('/dashboard');
    assert.equal((await bob.post(`/dashboard/keys/${aliceId}/rotate`, {})).statusCode, 404);
    assert.equal((await d.app.inject({ url: '/v1/provinces', headers: { 'x-api-key': aliceKey } })).statusCode, 200);
  });

  it('sends signed-out visitors to sign in, and signs out', async () => {
    const visitor = new Client(d.app);
    const redirect = await visitor.get('/dashboard');
    assert.equal(redirect.statusCode, 303);
    assert.equal(redirect.headers.location, '/signin');
    const client = await signedUp(d.app, 'out@example.com');
    await client.get('/dashboard');
    assert.equal((await client.post('/signout', {})).statusCode, 303);
    assert.equal((await client.get('/dashboard')).statusCode, 303);
  });

  it('refuses a weak sign-up clearly', async () => {
    const client = new Client(d.app);
    await client.get('/signup');
    const short = await client.post('/signup', { email: 'weak@example.com', password: 'short' });
    assert.equal(short.statusCode, 400);
    assert.match(short.body, /at least 10 characters/);
    await client.get('/signup');
    assert.match((await client.post('/signup', { email: 'not-an-email', password: 'a long enough password' })).body, /valid email/);
  });
});
