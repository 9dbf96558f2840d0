/**
 * Khmer pages show no English UI string and one digit style: every page of the dashboard, in every state a visitor
 * can reach (results, errors, keys, usage, confirmations), rendered in Khmer, is searched for Latin words and ASCII
 * digits outside code (keys, commands), the language switch (which names English in English) and a short list of
 * names that are not translated (the product, API, JSON, OpenAPI, pumi).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, type DashboardApp, dashboardApp, issueKey, signedUp } from './helper.js';

const NOT_TRANSLATED = new Set(['kh', 'address', 'API', 'JSON', 'OpenAPI', 'pumi']);

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** What a reader sees or hears of the page: text, titles, labels, placeholders; not code, style, script or input values. */
export function visibleText(page: string): string[] {
  const body = page
    // Code, and what the user typed (textarea contents; input values are attributes, not read here).
    .replace(/<(style|script|code|pre|textarea)\b[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<a\b[^>]*\blang="en"[^>]*>[\s\S]*?<\/a>/g, ' ');
  const texts: string[] = [];
  for (const [, name, value] of body.matchAll(/\s(aria-label|placeholder|title|alt|data-label|data-copied)="([^"]*)"/g)) texts.push(`${name}=${value}`);
  texts.push(...body.replace(/<[^>]*>/g, '\n').split('\n').map((t) => t.trim()).filter(Boolean));
  return texts.map((t) => t.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!));
}

/** Latin words and ASCII digits a Khmer page should not show. */
export function englishIn(page: string): string[] {
  const found: string[] = [];
  for (const text of visibleText(page)) {
    // Email addresses are data (the operator's contact), not words of the interface.
    const value = text.replace(/^(aria-label|placeholder|title|alt|data-label|data-copied)=/, '').replace(/[^\s@]+@[^\s@]+/g, ' ');
    for (const [word] of value.matchAll(/[A-Za-z]+|[0-9]+/g)) {
      if (!NOT_TRANSLATED.has(word)) found.push(`${word} (in "${value.slice(0, 80)}")`);
    }
  }
  return found;
}

describe('Khmer pages', () => {
  let d: DashboardApp;
  // The landing page's search limit counts in one-second windows: its clock stands still here, so that the page it
  // answers over the limit is reached on a busy machine too.
  let clock = Date.now();
  before(async () => {
    d = await dashboardApp({ now: () => clock });
  });
  after(() => d.close());

  const khmer = async (client: Client) => {
    await client.get('/?lang=km');
    return client;
  };

  it('finds English in an English page (the check can fail)', async () => {
    assert.ok(englishIn((await new Client(d.app).get('/?lang=en')).body).length > 10);
  });

  it('shows no English UI string and no ASCII digit on any page, signed out', async () => {
    const visitor = await khmer(new Client(d.app));
    const pages: Record<string, string> = {
      landing: (await visitor.get('/')).body,
      results: (await visitor.get('/?q=Battambang')).body,
      postcode: (await visitor.get('/?q=120101')).body,
      none: (await visitor.get('/?q=zzzzqqqq')).body,
      signup: (await visitor.get('/signup')).body,
      signin: (await visitor.get('/signin')).body,
    };
    pages.badEmail = (await visitor.post('/signup', { email: 'nope', password: 'a long enough password' })).body;
    await visitor.get('/signup');
    pages.shortPassword = (await visitor.post('/signup', { email: 'km@example.com', password: 'short' })).body;
    await visitor.get('/signup');
    pages.longPassword = (await visitor.post('/signup', { email: 'km@example.com', password: 'x'.repeat(300) })).body;
    await visitor.get('/signin');
    pages.badCredentials = (await visitor.post('/signin', { email: 'km@example.com', password: 'whatever password' })).body;
    pages.forbidden = (await visitor.post('/signin', { email: 'km@example.com', password: 'whatever password' }, { csrf: false })).body;
    pages.unsupported = (await d.app.inject({ method: 'POST', url: '/signin', headers: { cookie: 'kh_lang=km', 'content-type': 'application/json' }, payload: '{}' })).body;
    clock += 1000;
    for (let i = 0; i < 5; i++) assert.equal((await visitor.get('/?q=Kampot')).statusCode, 200);
    pages.limited = (await visitor.get('/?q=Kampot')).body;
    assert.match(pages.results!, /បាត់ដំបង/);
    assert.match(pages.limited!, /ព្យាយាមច្រើនដងពេក/);
    for (const [name, page] of Object.entries(pages)) {
      assert.match(page, /<html lang="km">/, name);
      assert.deepEqual(englishIn(page), [], name);
    }
  });

  it('shows no English UI string and no ASCII digit on any page, signed in', async () => {
    const client = await khmer(await signedUp(d.app, 'km-keys@example.com'));
    const pages: Record<string, string> = { empty: (await client.get('/dashboard')).body };
    const { key, shown } = await issueKey(client, '/dashboard/keys', { name: 'ហាងរបស់ខ្ញុំ' });
    pages.shown = shown.body;
    await d.app.inject({ url: '/v1/provinces', headers: { 'x-api-key': key } });
    pages.usedJustNow = (await client.get('/dashboard')).body;
    await d.access.meter.flush();
    pages.used = (await client.get('/dashboard')).body;
    const id = /data-key-id="(key_\w+)"/.exec(pages.used!)![1]!;
    pages.rotate = (await client.get(`/dashboard/keys/${id}/rotate`)).body;
    pages.revoke = (await client.get(`/dashboard/keys/${id}/revoke`)).body;
    pages.badName = (await client.post('/dashboard/keys', { name: 'x\u0000' })).body;
    pages.badOrigins = (await client.post('/dashboard/browser-keys', { name: 'web', origins: 'shop.example.com/checkout' })).body;
    await client.get('/dashboard');
    pages.browserKeyShown = (await issueKey(client, '/dashboard/browser-keys', { name: 'ទំព័រ', origins: 'https://shop.example.com' })).shown.body;
    pages.withBrowserKey = (await client.get('/dashboard')).body;
    pages.noSuchKey = (await client.get('/dashboard/keys/key_000000000000/revoke')).body;
    pages.alreadyShown = (await client.get(String((await client.post('/dashboard/keys', {})).headers.location)).then(() => client.get('/dashboard/keys/new/AAAAAAAAAAAAAAAAAAAAAA'))).body;
    await client.get(`/dashboard/keys/${id}/revoke`);
    await client.post(`/dashboard/keys/${id}/revoke`, {});
    pages.revoked = (await client.get('/dashboard')).body;
    assert.match(pages.badOrigins!, /role="alert">ប្រភពទាំងនេះមិនអាចប្រើបានទេ/);
    assert.match(pages.revoke!, /ដកហូត/);
    assert.doesNotMatch(pages.revoke!, /<button[^>]*>បោះបង់/, 'Revoke is not a word for Cancel');
    assert.match(pages.used!, /class="y-max"[^>]*>១</);
    assert.match(pages.used!, /បានប្រើ ១ ក្នុងចំណោម ១\.០០០ សំណើ/, 'counts grouped as in the other Khmer texts (១.០០០)');
    assert.match(pages.usedJustNow!, /ក្នុងរយៈពេលប៉ុន្មានវិនាទីចុងក្រោយនេះ/);
    for (const [name, page] of Object.entries(pages)) {
      assert.match(page, /<html lang="km">/, name);
      assert.deepEqual(englishIn(page), [], name);
    }
  });
});
