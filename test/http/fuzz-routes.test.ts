/**
 * Every route the full server serves (issue 14, item 15): the data API with a working key, /usage, /metrics with its
 * token, the documentation, and the dashboard's pages and forms with a signed-in session and a valid CSRF token (so
 * that hostile fields reach the handlers, not only the CSRF check). The routes are read from the app itself
 * (`printRoutes`), so a route added later is fuzzed without editing this file. Hostile strings (NUL, control
 * characters, bad escapes, Khmer, NFKD-expanding characters, 5,000 characters) and numbers (Infinity, 1e309, 0x10,
 * -0, 20 digits...) go in path parameters, query parameters, form fields, JSON bodies, cookies and headers.
 * Whatever the request, the answer is never a 5xx, and a JSON error is in the documented shape.
 * (test/http/fuzz.test.ts checks the data API's contract in detail on an app without keys.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { ERROR_CODES } from '../../src/http/schemas/common.js';
import { createKey } from '../../src/keys/issue-keys.js';
import { Client, dashboardApp, type DashboardApp, signedUp } from '../dashboard/helper.js';
import { unit } from '../helper.js';

const METRICS_TOKEN = 'fuzz-metrics-token-0123456789';

interface Route { path: string; methods: string[] }

/**
 * The app's routes, from Fastify's route tree: each line is a node (`├── segment (METHODS)`), four characters of
 * indentation per level; a route's path is its segments joined.
 */
export function routesOf(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[└├]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    if (match[3]) routes.push({ path: stack.join(''), methods: match[3].split(', ').filter((m) => m !== 'HEAD') });
  }
  return routes;
}

/** Percent-encodes every character that is not URL-safe; a lone surrogate becomes an invalid escape. */
function encode(s: string): string {
  let out = '';
  for (const ch of s) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      out += '%ED%A0%80';
    }
  }
  return out;
}

const HOSTILE_NUMBERS = ['Infinity', '-Infinity', '1e309', '-1e309', 'NaN', '-0', '0', '-1', '0x10', '1e3', '+1', ' 1', '1.0', '1,000',
  '99999999999999999999', '9007199254740993', '１', '១', '1\u0000', ''];
const HOSTILE_STRINGS = ['\u0000', 'a\u0000b', '\u0001\u001f\u007f', '\r\nx-injected: 1', '<script>alert(1)</script>', '"\'`', '../../etc/passwd',
  'ភ្នំពេញ', '\u17d2\u17d2\u17d2', 'ﬃ'.repeat(200), 'ⅷ㎉℡℻'.repeat(50), 'a'.repeat(201), 'x'.repeat(5000), '\ud800', '😀'.repeat(100), ' ', '%',
  '__proto__', 'constructor', 'a@b.c', `${'a'.repeat(64)}@${'b'.repeat(250)}.com`, 'a@' + '.'.repeat(3000) + '@', 'khk_' + 'A'.repeat(40)];
const hostileText = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_NUMBERS), weight: 2 },
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 3 },
  { arbitrary: fc.string({ maxLength: 60 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
);
const BAD_ESCAPES = ['%FF', '%', '%E0%A4%A', '%C0%AF', '%00', '%ED%A0%80', '%zz'];
/** URL-safe text: an encoded hostile string, or a bad escape as is. */
const urlText = fc.oneof({ arbitrary: hostileText.map(encode), weight: 5 }, { arbitrary: fc.constantFrom(...BAD_ESCAPES), weight: 1 });

const QUERY_KEYS = ['q', 'page', 'pageSize', 'lang', 'x', '__proto__', 'page[]', ''];

interface Context {
  apiKey: string;
  /** The cookies of a signed-in browser, name and value. */
  cookies: [string, string][];
  csrfToken: string;
  ownKeyId: string;
  realIds: string[];
}

/** One hostile request for a route: its own method (mostly), hostile parameters, query, body, cookies and headers. */
function requestFor(route: Route, ctx: Context): fc.Arbitrary<InjectOptions> {
  const param = fc.oneof(
    { arbitrary: urlText, weight: 4 },
    { arbitrary: fc.constantFrom(ctx.ownKeyId, ...ctx.realIds, '12', '1201', '120101', '12010101', 'phnom-penh'), weight: 3 },
  );
  const method = fc.oneof({ arbitrary: fc.constantFrom(...route.methods), weight: 6 }, { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), weight: 1 });
  // Mostly hostile values of the parameters the routes take (q alone reaches the search), sometimes none at all.
  const query = fc.oneof(
    { arbitrary: fc.constant(''), weight: 1 },
    { arbitrary: urlText.map((v) => `?q=${v}`), weight: 2 },
    { arbitrary: fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), urlText), { minLength: 1, maxLength: 3 })
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`), weight: 3 },
  );
  const fields = fc.dictionary(fc.constantFrom('email', 'password', 'name', 'lang', 'q', 'id', '__proto__'), hostileText, { maxKeys: 4 });
  const body = fc.oneof(
    { arbitrary: fields.map((f) => ({ type: 'application/x-www-form-urlencoded', payload: new URLSearchParams({ ...f, _csrf: ctx.csrfToken }).toString() })), weight: 6 },
    fields.map((f) => ({ type: 'application/x-www-form-urlencoded', payload: new URLSearchParams(f).toString() })),
    fields.map((f) => ({ type: 'application/json', payload: JSON.stringify({ ...f, _csrf: ctx.csrfToken }) })),
    fc.constantFrom(
      { type: 'application/json', payload: '{"email":' },
      { type: 'application/json', payload: `{"a":${'['.repeat(5000)}` },
      { type: 'application/x-www-form-urlencoded', payload: `email=${'a'.repeat(20_000)}` },
      { type: 'text/plain', payload: 'hello' },
      { type: 'multipart/form-data; boundary=x', payload: '--x\r\n' },
      { type: 'application/x-www-form-urlencoded', payload: '%FF=%FF&_csrf=%' },
    ),
  );
  // The signed-in browser's cookies (session, CSRF secret...), each kept, dropped or made hostile, plus a language.
  const cookie = fc.record({
    jar: fc.array(fc.oneof({ arbitrary: fc.constant('keep'), weight: 6 }, fc.constant('drop'), hostileText.map(encode)),
      { minLength: ctx.cookies.length, maxLength: ctx.cookies.length }),
    lang: fc.constantFrom(undefined, 'km', 'en', 'xx', '%FF'),
  }).map(({ jar, lang }) => [
    ...ctx.cookies.flatMap(([name, value], i) => (jar[i] === 'drop' ? [] : [`${name}=${jar[i] === 'keep' ? value : jar[i]}`])),
    ...(lang ? [`kh_lang=${lang}`] : []),
  ].join('; '));
  const apiKey = fc.oneof({ arbitrary: fc.constant(ctx.apiKey), weight: 6 }, fc.constant(undefined), fc.constantFrom('khk_', 'khk_' + 'A'.repeat(43), ' ', 'x'.repeat(3000)));
  const authorization = fc.oneof({ arbitrary: fc.constant(`Bearer ${METRICS_TOKEN}`), weight: 3 }, fc.constant(undefined), fc.constantFrom('Bearer', 'Bearer ' + 'x'.repeat(5000), 'Basic Zm9vOmJhcg=='));
  const remoteAddress = fc.ipV4();
  return fc.record({ method, params: fc.array(param, { minLength: 3, maxLength: 3 }), query, body, cookie, apiKey, authorization, remoteAddress })
    .map(({ method, params, query, body, cookie, apiKey, authorization, remoteAddress }) => {
      let i = 0;
      const path = route.path.replace(/:[A-Za-z_]+|\*/g, () => params[i++ % params.length]!);
      const headers: Record<string, string> = { cookie };
      if (apiKey !== undefined) headers['x-api-key'] = apiKey;
      if (authorization !== undefined) headers.authorization = authorization;
      const options: InjectOptions = { method: method as InjectOptions['method'], url: path + query, headers, remoteAddress };
      if (method !== 'GET') {
        headers['content-type'] = body.type;
        options.payload = body.payload;
      }
      return options;
    });
}

function checkAnswer(request: InjectOptions, response: { statusCode: number; headers: Record<string, unknown>; body: string }): void {
  const where = `${request.method} ${String(request.url).slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 200)} `
    + `${String(request.payload ?? '').slice(0, 120)} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  assert.ok(response.statusCode < 500, `server error: ${where}`);
  const type = String(response.headers['content-type'] ?? '');
  if (response.statusCode >= 400 && type.startsWith('application/json')) {
    const body = JSON.parse(response.body) as { error?: { code?: string; message?: string } };
    assert.ok(ERROR_CODES.includes(body.error?.code as never), `undocumented error: ${where}`);
    assert.ok(typeof body.error?.message === 'string' && body.error.message.length > 0, where);
  }
}

// On both stores: PostgreSQL refuses a NUL in text (a 500 before the dashboard checked its inputs).
for (const [storeKind, runsPerRoute] of [['sqlite', 40], ['postgres', 15]] as const) describe(`fuzzing every route of the full server (keys, dashboard, metrics) on ${storeKind}`, () => {
  let dash: DashboardApp;
  let routes: Route[];
  let ctx: Context;

  before(async () => {
    dash = await dashboardApp({ metricsToken: METRICS_TOKEN, geo: true, store: storeKind });
    const { app, store } = dash;
    await store.createPlan({ name: 'fuzz', monthlyQuota: 10_000_000, perSecond: 1_000_000 });
    const { key: apiKey } = await createKey(store, { plan: 'fuzz' });
    const client: Client = await signedUp(app, 'fuzz@example.org');
    await client.get('/dashboard');
    await client.post('/dashboard/keys', { name: 'fuzz' });
    const [own] = await store.listKeys({ ownerId: (await store.findAccountByEmail('fuzz@example.org'))!.id });
    await client.get('/dashboard');
    ctx = {
      apiKey, cookies: client.cookieHeader().split('; ').map((c): [string, string] => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)]), csrfToken: client.csrf(), ownKeyId: own!.id,
      realIds: [unit('12').id, unit('1201').id, unit('120101').id, unit('12010101').id],
    };
    assert.ok(ctx.cookies.length >= 2 && ctx.csrfToken, `signed in, with a CSRF token: ${ctx.cookies.map(([n]) => n).join(', ')}`);
    await app.ready();
    routes = routesOf(app);
  });
  after(() => dash.close());

  it('reads the routes from the app: the data API, /usage, /metrics, the docs and every dashboard form', () => {
    const listed = routes.map((r) => `${r.methods.join(',')} ${r.path}`);
    for (const expected of ['GET /search', 'GET /v1/search', 'GET /usage', 'GET /v1/usage', 'GET /metrics', 'GET /docs', 'GET /lookup/:postcode',
      'GET,POST /signup', 'GET,POST /signin', 'POST /signout', 'POST /dashboard/keys', 'POST /dashboard/keys/:id/rename',
      'GET,POST /dashboard/keys/:id/rotate', 'GET,POST /dashboard/keys/:id/revoke', 'GET /dashboard', 'GET /']) {
      assert.ok(listed.includes(expected), `${expected} in ${listed.join(' | ')}`);
    }
  });

  it('answers hostile requests on every route without a 5xx', async () => {
    for (const route of routes) {
      // The forms that hash a password (scrypt, ~0.1-0.3 s each) get fewer runs.
      const runs = /^\/sign(up|in)$/.test(route.path) ? Math.min(15, runsPerRoute) : runsPerRoute;
      await fc.assert(fc.asyncProperty(requestFor(route, ctx), async (request) => {
        checkAnswer(request, await dash.app.inject(request));
      }), { numRuns: runs, includeErrorInReport: true });
    }
  });

  it('answers hostile numbers in every integer-looking parameter of the data routes without a 5xx', async () => {
    for (const path of ['/search?q=phum', '/v1/search?q=phum']) {
      for (const name of ['page', 'pageSize']) {
        for (const value of HOSTILE_NUMBERS) {
          const request: InjectOptions = { method: 'GET', url: `${path}&${name}=${encode(value)}`, headers: { 'x-api-key': ctx.apiKey } };
          const response = await dash.app.inject(request);
          checkAnswer(request, response);
          if (!/^[0-9]+$/.test(value) || Number(value) === 0) assert.equal(response.statusCode, 400, `${request.url}: ${response.body}`);
        }
      }
    }
  });
});
