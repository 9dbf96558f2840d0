/**
 * Property-based tests: random and hostile requests (paths from the real route templates with random, Khmer, huge,
 * NUL, badly escaped, traversal, UUID and digit segments; random query strings, methods and headers) must only ever
 * get a documented status, in the documented envelope of their shape, with the documented headers.
 * fast-check prints the seed and the shrunk counterexample when a property fails; no seed is fixed.
 * Most requests go through inject(); one property sends them over a real socket, where `..` and `//` reach the
 * router verbatim (inject() normalises the URL first).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { ERROR_CODES } from '../../src/http/schemas/common.js';
import type { Level, Unit } from '../../src/gazetteer/types.js';
import { dataVersion, etagFor } from '../../src/http/caching.js';
import { API_VERSION } from '../../src/version.js';
import { appOptions, gazetteer, geography, unit } from '../helper.js';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';
interface Req {
  method: Method;
  /** Path and query, already made of URL-safe ASCII (hostile escapes included verbatim). */
  url: string;
  headers: Record<string, string>;
}
interface Res {
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: string;
  /** The request target as the server received it (inject() normalises `..`, `//` at the start, ...). */
  target: string;
}

const DATASET_VERSION = gazetteer().version;
// The data responses' ETag names the dataset and the geometry (appOptions loads both).
const ETAG = etagFor(API_VERSION, dataVersion(DATASET_VERSION, geography().version));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SANE_ID = /^[A-Za-z0-9._~:/+=-]{1,128}$/;
const READ_METHODS = new Set<Method>(['GET', 'HEAD']);
const STATUS_CODE: Record<number, string> = { 400: 'invalid_request', 404: 'not_found', 405: 'method_not_allowed', 431: 'request_header_too_large' };
const PLURAL: Record<Level, string> = { province: 'provinces', district: 'districts', commune: 'communes', village: 'villages' };

// ---------------------------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------------------------

/** UTF-8 percent-encoding of any string; a lone surrogate becomes its (invalid) 3-byte escape, e.g. %ED%A0%80. */
function encode(s: string): string {
  let out = '';
  for (const ch of s) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      const cp = ch.codePointAt(0)!;
      out += [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
  }
  return out;
}

/**
 * Percent-encodes one character of the first segment of `s` (chosen by `at`): `/v1/x` -> `/%761/x` or `/v%31/x`.
 * A valid escape of an unreserved character: the router decodes it, so the request is the same route.
 */
function escapeOneChar(s: string, at: number): string {
  const firstSegmentEnd = s.indexOf('/', 1) === -1 ? s.length : s.indexOf('/', 1);
  const candidates = [...s.slice(0, firstSegmentEnd)].map((c, i) => [c, i] as const).filter(([c]) => /[A-Za-z0-9.-]/.test(c));
  if (candidates.length === 0) return s;
  const [c, i] = candidates[at % candidates.length]!;
  return `${s.slice(0, i)}%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}${s.slice(i + 1)}`;
}

const sample = <T>(items: readonly T[], n: number): T[] => items.filter((_, i) => i % Math.max(1, Math.floor(items.length / n)) === 0);
const units = gazetteer().units;
const realUnits = [...sample(units.filter((u) => u.level === 'province'), 6), ...sample(units.filter((u) => u.level === 'district'), 6),
  ...sample(units.filter((u) => u.level === 'commune'), 6), ...sample(units.filter((u) => u.level === 'village'), 6)];

const khmer = fc.string({ unit: fc.integer({ min: 0x1780, max: 0x17ff }).map((cp) => String.fromCodePoint(cp)), minLength: 1, maxLength: 30 });
const BAD_ESCAPES = ['%E0%A4%A', '%FF', '%', '%G0', '%E0%A4', '%C0%AF', '%ED%A0%80', '%F4%90%80%80', 'abc%', '%%', '%0', '%u0041', '%zz', '%C3'];
const badEscape = fc.constantFrom(...BAD_ESCAPES);
const TRAVERSALS = ['..', '.', '%2e%2e', '%2E%2E', '.%2e', '..%2F..', '..%5C..', '%2e', '...', '..%00', '%2e%2e%2f'];
const traversal = fc.constantFrom(...TRAVERSALS);
const invalidUuid = fc.tuple(fc.uuid(), fc.nat(35), fc.constantFrom('drop', 'g', 'nodash', 'braces', 'extra', 'Z')).map(([u, i, how]) => {
  switch (how) {
    case 'drop': return u.slice(0, i) + u.slice(i + 1);
    case 'g': return `${u.slice(0, i)}g${u.slice(i + 1)}`;
    case 'nodash': return u.replaceAll('-', '');
    case 'braces': return encode(`{${u}}`);
    case 'extra': return `${u}0`;
    default: return u.toUpperCase().replace(/[A-F]/, 'Z');
  }
});
const digits = fc.oneof(fc.stringMatching(/^[0-9]{0,12}$/), fc.nat().map(String), fc.constantFrom('12', '1201', '120101', '12010101', '99', '00', '0', '-1', '1e2', '١٢'));
const longString = fc.tuple(fc.constantFrom('a', '0', '7', 'ក', 'phnom-penh-', '%00', '%FF', '-'), fc.integer({ min: 50, max: 3000 }))
  .map(([u, n]) => (u.startsWith('%') ? u : encode(u)).repeat(Math.ceil(n / u.length)));
const nul = fc.tuple(fc.stringMatching(/^[a-z0-9-]{0,8}$/), fc.stringMatching(/^[a-z0-9-]{0,8}$/)).map(([a, b]) => `${a}%00${b}`);

/** One path segment, URL-safe: hostile literals verbatim, anything else percent-encoded. */
const segment: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }).map(encode), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }).map(encode), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encode), weight: 1 },
  { arbitrary: khmer.map(encode), weight: 2 },
  { arbitrary: longString, weight: 1 },
  { arbitrary: nul, weight: 1 },
  { arbitrary: badEscape, weight: 2 },
  { arbitrary: traversal, weight: 2 },
  { arbitrary: fc.uuid(), weight: 2 },
  { arbitrary: fc.constantFrom(...realUnits.map((u) => u.id)), weight: 3 },
  { arbitrary: fc.constantFrom(...realUnits.map((u) => u.id.toUpperCase())), weight: 1 },
  { arbitrary: invalidUuid, weight: 2 },
  { arbitrary: digits.map(encode), weight: 3 },
  { arbitrary: fc.constantFrom(...realUnits.map((u) => u.code)), weight: 3 },
  { arbitrary: fc.constantFrom(...realUnits.map((u) => u.slug)), weight: 2 },
);

const TEMPLATES = [
  '/provinces', '/provinces/:id', '/provinces/:id/districts', '/districts/:id', '/districts/:id/communes', '/communes/:id',
  '/communes/:id/villages', '/villages/:id', '/locations/*', '/v1/provinces', '/v1/provinces/:code', '/v1/districts/:code',
  '/v1/communes/:code', '/v1/villages/:code', '/health', '/v1', '/', '/:junk', '/v1/:junk', '/:junk/:junk',
];

/** The wildcard of /locations/*: real slug paths, or 0-5 random segments. */
const wildcard = fc.oneof(
  fc.constantFrom(...realUnits.map((u) => u.href.slice('/locations/'.length))),
  fc.array(segment, { maxLength: 5 }).map((s) => s.join('/')),
);

const MUTATIONS = ['none', 'trailingSlash', 'doubleSlash', 'traversal', 'escapeChar', 'upperCase', 'extraSegment'] as const;

/** A path from a real template with random segments, sometimes mutated. */
const path = fc.record({
  template: fc.constantFrom(...TEMPLATES),
  params: fc.array(segment, { minLength: 2, maxLength: 2 }),
  rest: wildcard,
  mutation: fc.oneof({ arbitrary: fc.constant('none' as const), weight: 4 }, { arbitrary: fc.constantFrom(...MUTATIONS), weight: 7 }),
  at: fc.nat(40),
  extra: fc.oneof(segment, traversal),
}).map(({ template, params, rest, mutation, at, extra }) => {
  let i = 0;
  let p = template.replace(/:[a-z]+/g, () => params[i++ % params.length]!).replace('*', rest);
  const parts = p.split('/');
  switch (mutation) {
    case 'trailingSlash': p += '/'; break;
    case 'doubleSlash': p = p.replace('/', '//'); break;
    case 'traversal': p = [...parts.slice(0, 1 + (at % parts.length)), extra, ...parts.slice(1 + (at % parts.length))].join('/'); break;
    case 'escapeChar': p = escapeOneChar(p, at); break;
    case 'upperCase': p = p.replace(/^\/[a-z0-9]+/, (s) => s.toUpperCase()); break;
    case 'extraSegment': p = `${p}/${extra}`; break;
  }
  return p;
});

const queryKey = fc.oneof(
  { arbitrary: fc.constantFrom('lang', 'lang[]', 'lang[0]', 'LANG', 'x', 'q', 'format', '__proto__', 'constructor', '__proto__[x]', 'lang.en', ''), weight: 4 },
  { arbitrary: fc.constant('lang'), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(encode), weight: 1 },
  { arbitrary: badEscape, weight: 1 },
);
const queryValue = fc.oneof(
  { arbitrary: fc.constantFrom('en', 'km', '', 'EN', 'fr', 'km,en', 'en%00', 'en%20', '%65n'), weight: 5 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map(encode), weight: 2 },
  { arbitrary: khmer.map(encode), weight: 1 },
  { arbitrary: badEscape, weight: 2 },
  { arbitrary: fc.integer({ min: 1000, max: 6000 }).map((n) => 'x'.repeat(n)), weight: 1 },
);
const query = fc.oneof(
  { arbitrary: fc.constant(''), weight: 4 },
  { arbitrary: fc.constantFrom('?', '?&', '?&&=&'), weight: 1 },
  {
    arbitrary: fc.array(fc.tuple(queryKey, fc.option(queryValue, { nil: undefined })), { minLength: 1, maxLength: 4 })
      .map((pairs) => `?${pairs.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&')}`),
    weight: 5,
  },
);

const method = fc.constantFrom<Method>('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');

const headerText = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._~:/+=-]{1,128}$/),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  khmer,
  fc.constantFrom('', ' ', 'x'.repeat(129), 'has space', '<script>', 'a\tb', 'id;drop'),
);
const ifNoneMatch = fc.oneof(
  fc.constantFrom('*', ' * ', ETAG, ETAG.slice(2), `"other", ${ETAG}`, 'W/"x"', '"', '', ',', 'x, *', 'W/', `W/"${API_VERSION}"`),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
const headers = fc.record({
  'x-correlation-id': headerText,
  'x-request-id': headerText,
  'content-type': fc.constant('application/json'),
  'if-none-match': ifNoneMatch,
  origin: fc.constantFrom('https://example.org', 'null', 'http://localhost:3000'),
  'access-control-request-method': fc.constantFrom('GET', 'POST', 'DELETE', 'FOO'),
  accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml'),
}, { requiredKeys: [] }).map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);

const request: fc.Arbitrary<Req> = fc.record({ method, path, query, headers }).map(({ method, path, query, headers }) => ({ method, url: path + query, headers }));

// ---------------------------------------------------------------------------------------------------------------
// What every response must look like
// ---------------------------------------------------------------------------------------------------------------

type Shape = 'identifier' | 'v1';
/** The path of a request target: without the query, and without scheme and host in the absolute form. */
const pathOf = (target: string) => target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, '').split('?', 1)[0]!;
const isV1Path = (p: string) => p === '/v1' || p.startsWith('/v1/');
function tryDecode(p: string): string | undefined {
  try {
    return decodeURI(p);
  } catch {
    return undefined;
  }
}

/**
 * The envelope(s) a request target may get. By the documented rule, paths starting with /v1/ (or /v1) are
 * code-based. When the raw target and its decoding disagree (`/%761/provinces` is routed as /v1/provinces), either
 * envelope is accepted, but it must be a complete, correct one.
 */
function shapesFor(target: string): Set<Shape> {
  const p = pathOf(target);
  const raw = isV1Path(p);
  const decoded = isV1Path(tryDecode(p) ?? p);
  return new Set<Shape>(raw === decoded ? [raw ? 'v1' : 'identifier'] : ['v1', 'identifier']);
}

function inmMatches(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value.trim() === '*') return true;
  return value.split(',').some((t) => t.trim() === ETAG || t.trim() === ETAG.slice(2));
}

function expectedCorrelationId(h: Record<string, string>): string | undefined {
  return [h['x-correlation-id'], h['x-request-id']].find((v) => v !== undefined && SANE_ID.test(v));
}

const show = (req: Req, res: Res) =>
  `${req.method} ${req.url.length > 300 ? `${req.url.slice(0, 300)}...(${req.url.length} chars)` : req.url} ${JSON.stringify(req.headers).slice(0, 300)}`
  + ` -> ${res.status} ${res.body.slice(0, 300)}`;

function checkErrorBody(req: Req, res: Res, shapes: Set<Shape>): void {
  const where = show(req, res);
  assert.match(String(res.headers['content-type']), /^application\/json/, where);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  const keys = Object.keys(body).sort().join(',');
  const shape: Shape = keys === 'error,status' ? 'v1' : 'identifier';
  assert.ok(shapes.has(shape), `wrong envelope (expected ${[...shapes].join(' or ')}): ${where}`);
  if (shape === 'v1') {
    assert.equal(body.status, 'error', where);
  } else {
    assert.equal(keys, 'error,metadata,statusCode', where);
    assert.equal(body.statusCode, res.status, where);
    assert.deepEqual(body.metadata, { correlationId: res.headers['x-correlation-id'] }, where);
  }
  const error = body.error as { code: string; message: string; details?: Array<Record<string, unknown>> };
  assert.ok(Object.keys(error).every((k) => ['code', 'message', 'details'].includes(k)), where);
  assert.ok((ERROR_CODES as readonly string[]).includes(error.code), where);
  assert.equal(error.code, STATUS_CODE[res.status], where);
  assert.ok(typeof error.message === 'string' && error.message.length > 0, where);
  if (error.details !== undefined) {
    assert.ok(Array.isArray(error.details) && error.details.length > 0, where);
    for (const d of error.details) {
      assert.deepEqual(Object.keys(d).sort(), ['in', 'message', 'parameter'], where);
      assert.ok(['path', 'query', 'header', 'body'].includes(d.in as string), where);
    }
  }
}

function checkSuccessBody(req: Req, res: Res, shapes: Set<Shape>, decodedPath: string): void {
  const where = show(req, res);
  assert.match(String(res.headers['content-type']), /^application\/json/, where);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  if (decodedPath === '/health') {
    assert.deepEqual(body, { status: 'ok', datasetVersion: DATASET_VERSION }, where);
    return;
  }
  assert.equal(res.headers.etag, ETAG, where);
  if ('status' in body) {
    assert.ok(shapes.has('v1'), `code-based body on an identifier path: ${where}`);
    assert.deepEqual(Object.keys(body).sort(), ['data', 'status'], where);
    assert.equal(body.status, 'success', where);
    assert.ok(Array.isArray(body.data), where);
  } else {
    assert.ok(shapes.has('identifier'), `identifier body on a /v1 path: ${where}`);
    assert.deepEqual(Object.keys(body).sort(), ['data', 'metadata', 'statusCode'], where);
    assert.equal(body.statusCode, 200, where);
    assert.deepEqual(body.metadata, { correlationId: res.headers['x-correlation-id'] }, where);
  }
}

/** The documented contract, for any request and its response. */
function checkResponse(req: Req, res: Res): void {
  const where = show(req, res);
  const target = pathOf(res.target);
  const decodedPath = tryDecode(target);
  const shapes = shapesFor(res.target);

  assert.ok(res.status < 500, `server error: ${where}`);
  if (res.status === 431) {
    // Node's parser refused the request line and headers (over 16 KiB): only over a real socket, and the envelope
    // is always the identifier-based one (the URL was never parsed; see src/http/plugins/client-errors.ts).
    const headBytes = req.url.length + Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
    assert.ok(headBytes > 15_000, `431 for a small request: ${where}`);
    if (req.method !== 'HEAD') {
      checkErrorBody(req, res, new Set(['identifier']));
    }
    return;
  }
  // The documentation routes (HTML, scripts, redirects) are not part of the data API's contract.
  if (decodedPath !== undefined && (decodedPath === '/openapi.json' || decodedPath === '/docs' || decodedPath.startsWith('/docs/'))) return;
  assert.equal(res.headers['x-dataset-version'], DATASET_VERSION, where);
  const correlationId = res.headers['x-correlation-id'];
  assert.equal(typeof correlationId, 'string', where);
  const sent = expectedCorrelationId(req.headers);
  if (sent) assert.equal(correlationId, sent, where);
  else assert.match(String(correlationId), UUID, where);

  if (req.method === 'OPTIONS') {
    // The CORS plugin (plugins/cors.ts) answers every OPTIONS request in its onRequest hook with 204, with or
    // without Origin and Access-Control-Request-Method; only a URL the router cannot decode fails before that.
    if (decodedPath === undefined) {
      assert.equal(res.status, 400, where);
      checkErrorBody(req, res, shapes);
    } else {
      assert.equal(res.status, 204, where);
      assert.equal(res.body, '', where);
      assert.equal(res.headers['access-control-allow-origin'], '*', where);
      // POST is allowed on the paths of the API's read-only POST operations (bulk resolve and reverse) only.
      const post = decodedPath === '/v1/resolve' || decodedPath === '/v1/reverse';
      assert.equal(res.headers['access-control-allow-methods'], post ? 'GET, HEAD, POST' : 'GET, HEAD', where);
    }
    return;
  }

  assert.ok([200, 304, 400, 404, 405].includes(res.status), `undocumented status: ${where}`);
  if (!READ_METHODS.has(req.method)) assert.ok([400, 404, 405].includes(res.status), where);
  // The router refuses a path it cannot decode before anything else, whatever the method.
  if (decodedPath === undefined) assert.equal(res.status, 400, where);
  if (req.method === 'HEAD' || res.status === 304) assert.equal(res.body, '', where);
  if (res.status === 405) assert.equal(res.headers.allow, 'GET, HEAD', where);
  if (res.status === 304) {
    assert.ok(inmMatches(req.headers['if-none-match']), `304 without a matching If-None-Match: ${where}`);
    assert.equal(res.headers.etag, ETAG, where);
  }
  if (res.status === 200 && decodedPath !== '/health') {
    assert.ok(!inmMatches(req.headers['if-none-match']), `200 despite a matching If-None-Match: ${where}`);
  }
  if (res.status >= 400 && req.method !== 'HEAD') checkErrorBody(req, res, shapes);
  if (res.status === 200 && req.method === 'GET') checkSuccessBody(req, res, shapes, decodedPath ?? target);
}

// ---------------------------------------------------------------------------------------------------------------
// Transports
// ---------------------------------------------------------------------------------------------------------------

async function viaInject(app: FastifyInstance, req: Req): Promise<Res> {
  const response = await app.inject({ method: req.method, url: req.url, headers: req.headers });
  return { status: response.statusCode, headers: response.headers, body: response.body, target: response.raw.req.url ?? req.url };
}

/**
 * The headers as they arrive over the wire: values Node's client cannot send (control characters, beyond Latin-1)
 * are dropped, and the spaces and tabs around a value are removed, as the server's parser does.
 */
const wireSafe = (h: Record<string, string>) => Object.fromEntries(Object.entries(h)
  .filter(([, v]) => /^[\t\x20-\x7e\x80-\xff]*$/.test(v)).map(([k, v]) => [k, v.replace(/^[ \t]+|[ \t]+$/g, '')]));

function viaSocket(port: number, agent: http.Agent, req: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    const headers = wireSafe(req.headers);
    const outgoing = http.request({ host: '127.0.0.1', port, agent, method: req.method, path: req.url, headers }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body, target: req.url }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------------------------

describe('fuzzing the HTTP API', () => {
  let app: FastifyInstance;
  let port: number;
  let agent: http.Agent;
  before(async () => {
    app = await buildApp(appOptions());
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  });
  after(async () => {
    agent.destroy();
    await app.close();
  });

  it('answers random and hostile requests only with documented statuses, envelopes and headers', async () => {
    await fc.assert(fc.asyncProperty(request, async (req) => {
      checkResponse(req, await viaInject(app, req));
    }), { numRuns: 1200, includeErrorInReport: true });
  });

  it('does the same when the request target reaches the router verbatim (real socket)', async () => {
    await fc.assert(fc.asyncProperty(request, async (req) => {
      const res = await viaSocket(port, agent, req);
      checkResponse({ ...req, headers: wireSafe(req.headers) }, res);
    }), { numRuns: 400, includeErrorInReport: true });
  });

  it('answers any method but GET, HEAD and OPTIONS with 405 on a path where GET succeeds (README, Errors)', async () => {
    const goodUrls = realUnits.flatMap((u) => [
      `/${PLURAL[u.level]}/${u.id}`, u.href, u.level === 'village' ? `/v1/villages/${u.code.slice(0, 6)}` : `/v1/provinces/${u.code.slice(0, 2)}`,
    ]);
    const goodUrl = fc.tuple(fc.constantFrom('/provinces', '/v1/provinces', '/health', ...goodUrls), fc.constantFrom('', '?lang=km', '?lang=en'))
      .map(([url, q]) => (url.startsWith('/v1/') || url === '/health' ? url : url + q));
    const nonRead = fc.constantFrom<Method>('POST', 'PUT', 'DELETE', 'PATCH');
    await fc.assert(fc.asyncProperty(goodUrl, nonRead, headers, async (url, m, h) => {
      const get = await viaInject(app, { method: 'GET', url, headers: {} });
      assert.equal(get.status, 200, url);
      const req: Req = { method: m, url, headers: h };
      const res = await viaInject(app, req);
      checkResponse(req, res);
      assert.equal(res.status, 405, show(req, res));
    }), { numRuns: 300, includeErrorInReport: true });
  });

  it('answers well-formed ids, codes and slug paths exactly: 200 for the right level, else 404 or 400', async () => {
    const levels: Level[] = ['province', 'district', 'commune', 'village'];
    const anyUnit = fc.integer({ min: 0, max: units.length - 1 }).map((i) => units[i]!);
    const kind = fc.constantFrom('detail', 'children', 'v1', 'location', 'unknown-id', 'unknown-code');
    const lang = fc.constantFrom(undefined, 'en', 'km');
    const randomDigits = fc.stringMatching(/^[0-9]{6}$/);
    await fc.assert(fc.asyncProperty(anyUnit, fc.constantFrom(...levels), kind, lang, fc.uuid(), randomDigits, async (u: Unit, level, k, l, randomId, d) => {
      const q = l ? `?lang=${l}` : '';
      const get = async (url: string) => {
        const req: Req = { method: 'GET', url, headers: {} };
        const res = await viaInject(app, req);
        checkResponse(req, res);
        return { res, body: res.body ? (JSON.parse(res.body) as { data: unknown; error?: { code: string } }) : undefined, where: show(req, res) };
      };
      const children = gazetteer().children(u.code);
      switch (k) {
        case 'detail': {
          const { res, body, where } = await get(`/${PLURAL[level]}/${u.id}${q}`);
          assert.equal(res.status, u.level === level ? 200 : 404, where);
          if (res.status === 200) assert.equal((body!.data as { id: string }).id, u.id, where);
          break;
        }
        case 'children': {
          if (level === 'village') return;
          const child = { province: 'district', district: 'commune', commune: 'village' }[level] as Level;
          const { res, body, where } = await get(`/${PLURAL[level]}/${u.id}/${PLURAL[child]}${q}`);
          assert.equal(res.status, u.level === level ? 200 : 404, where);
          if (res.status === 200) assert.equal((body!.data as { items: unknown[] }).items.length, children.length, where);
          break;
        }
        case 'v1': {
          // /v1/provinces/{2 digits} answers the province; /v1/{children}/{parent code} its children.
          const route = { province: '/v1/provinces/', district: '/v1/districts/', commune: '/v1/communes/', village: '/v1/villages/' }[level];
          const parentLength = { province: 2, district: 2, commune: 4, village: 6 }[level];
          const { res, body, where } = await get(`${route}${u.code}`);
          assert.equal(res.status, u.code.length === parentLength ? 200 : 400, where);
          if (res.status === 200) assert.equal((body!.data as unknown[]).length, level === 'province' ? 1 : children.length, where);
          break;
        }
        case 'location': {
          const { res, body, where } = await get(`${u.href}${q}`);
          assert.equal(res.status, 200, where);
          assert.equal((body!.data as { id: string }).id, u.id, where);
          break;
        }
        case 'unknown-id': {
          fc.pre(!gazetteer().byId(randomId));
          const { res, body, where } = await get(`/${PLURAL[level]}/${randomId}${q}`);
          assert.equal(res.status, 404, where);
          assert.equal(body!.error!.code, 'not_found', where);
          break;
        }
        case 'unknown-code': {
          // A well-formed code (right length) that names no unit: 404 on the route that takes it.
          const [route, length] = ({ province: ['/v1/provinces/', 2], district: ['/v1/districts/', 2], commune: ['/v1/communes/', 4],
            village: ['/v1/villages/', 6] } as const)[level];
          const code = d.slice(0, length);
          fc.pre(!gazetteer().byCode(code));
          const { res, body, where } = await get(`${route}${code}`);
          assert.equal(res.status, 404, where);
          assert.equal(body!.error!.code, 'not_found', where);
          break;
        }
      }
    }), { numRuns: 400, includeErrorInReport: true });
  });

  describe('hostile inputs, one by one', () => {
    const phnomPenh = unit('12');
    const chamkarMon = unit('1201');
    interface Case {
      method?: Method;
      url: string;
      headers?: Record<string, string>;
      status: number;
      code?: string;
      shape?: Shape;
    }
    const cases: Case[] = [
      // invalid percent-escapes and NUL bytes
      { url: '/provinces/%E0%A4%A', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces/%FF', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/v1/provinces/%FF', status: 400, code: 'invalid_request', shape: 'v1' },
      { url: '/v1/communes/%C0%AF', status: 400, code: 'invalid_request', shape: 'v1' },
      { url: '/locations/%ED%A0%80', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/nowhere/%', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces/%00', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: `/provinces/${phnomPenh.id}%00`, status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/v1/provinces/1%002', status: 400, code: 'invalid_request', shape: 'v1' },
      { url: '/locations/phnom-penh/%00', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces%00', status: 404, code: 'not_found', shape: 'identifier' },
      // unicode and Khmer
      { url: `/locations/${encode('ភ្នំពេញ')}`, status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: `/provinces/${encode('ភ្នំពេញ')}`, status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: `/v1/provinces/${encode('១២')}`, status: 400, code: 'invalid_request', shape: 'v1' },
      { url: `/${encode('ខេត្ត')}`, status: 404, code: 'not_found', shape: 'identifier' },
      // very long segments (over find-my-way's 100-character parameter limit, and not)
      { url: `/provinces/${'a'.repeat(5000)}`, status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: `/provinces/${'a'.repeat(100)}/districts`, status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: `/v1/villages/${'1'.repeat(3000)}`, status: 400, code: 'invalid_request', shape: 'v1' },
      { url: `/locations/${'a'.repeat(4000)}`, status: 404, code: 'not_found', shape: 'identifier' },
      { url: `/locations/${'phnom-penh/'.repeat(300)}`, status: 400, code: 'invalid_request', shape: 'identifier' },
      // traversal (inject() resolves `..` before the app sees it; see the socket cases below)
      { url: '/provinces/../provinces', status: 200 },
      { url: '/locations/%2e%2e/%2e%2e/package.json', status: 404, code: 'not_found', shape: 'identifier' },
      { url: '/locations/..%2F..%2Fpackage.json', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/v1/provinces/..%2F12', status: 400, code: 'invalid_request', shape: 'v1' },
      // UUIDs: valid but unknown, another level's, upper case, malformed
      { url: '/provinces/00000000-0000-4000-8000-000000000000', status: 404, code: 'not_found', shape: 'identifier' },
      { url: `/provinces/${chamkarMon.id}`, status: 404, code: 'not_found', shape: 'identifier' },
      { url: `/provinces/${phnomPenh.id.toUpperCase()}`, status: 200 },
      { url: `/provinces/${phnomPenh.id.slice(0, -1)}`, status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: `/provinces/${phnomPenh.id.replaceAll('-', '')}`, status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: `/provinces/${encode(`{${phnomPenh.id}}`)}`, status: 400, code: 'invalid_request', shape: 'identifier' },
      // digit strings of every length
      ...Array.from({ length: 10 }, (_, n): Case => ({
        url: `/v1/provinces/${'1'.repeat(n)}`, status: n === 2 ? 200 : 400, ...(n === 2 ? {} : { code: 'invalid_request', shape: 'v1' as const }),
      })),
      { url: '/v1/provinces/99', status: 404, code: 'not_found', shape: 'v1' },
      { url: '/v1/villages/999999', status: 404, code: 'not_found', shape: 'v1' },
      { url: '/v1/provinces/+1', status: 400, code: 'invalid_request', shape: 'v1' },
      { url: '/v1/provinces/-1', status: 400, code: 'invalid_request', shape: 'v1' },
      // query strings
      { url: '/provinces?lang=en&lang=km', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces?lang=en&lang=en', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces?lang[]=en', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces?lang=fr', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces?lang=', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces?lang', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces?lang=%FF', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces?lang=%E0%A4%A', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces?%FF=en', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: `/provinces?lang=${'x'.repeat(10_000)}`, status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces?__proto__[lang]=km', status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces?lang=km', status: 200 },
      { url: '/provinces?lang=%6Bm', status: 200 },
      { url: '/v1/provinces?lang=en', status: 400, code: 'invalid_request', shape: 'v1' },
      { url: '/v1/provinces?x=%E0%A4%A', status: 400, code: 'invalid_request', shape: 'v1' },
      // methods and headers
      { method: 'POST', url: '/provinces', status: 405, code: 'method_not_allowed', shape: 'identifier' },
      { method: 'PATCH', url: '/v1/provinces/12', status: 405, code: 'method_not_allowed', shape: 'v1' },
      { method: 'DELETE', url: '/nowhere', status: 404, code: 'not_found', shape: 'identifier' },
      { method: 'PUT', url: '/provinces/%FF', status: 400, code: 'invalid_request', shape: 'identifier' },
      { method: 'HEAD', url: '/provinces/%FF', status: 400 },
      { method: 'HEAD', url: '/v1/provinces/99', status: 404 },
      { url: '/provinces', headers: { 'content-type': 'application/json' }, status: 200 },
      { url: '/provinces', headers: { 'if-none-match': 'garbage' }, status: 200 },
      { url: '/provinces', headers: { 'if-none-match': '*' }, status: 304 },
      { url: '/provinces', headers: { 'if-none-match': ETAG.slice(2) }, status: 304 },
      { url: '/provinces/nope', headers: { 'if-none-match': '*' }, status: 400, code: 'invalid_request', shape: 'identifier' },
      { url: '/provinces', headers: { 'x-correlation-id': 'ខ្មែរ' }, status: 200 },
      { url: '/provinces/nope', headers: { 'x-correlation-id': 'a\u0000b' }, status: 400, code: 'invalid_request', shape: 'identifier' },
      // CORS preflight: plugins/cors.ts answers every OPTIONS with 204, except a URL the router cannot decode
      { method: 'OPTIONS', url: '/provinces', status: 204 },
      { method: 'OPTIONS', url: '/nowhere', status: 204 },
      { method: 'OPTIONS', url: '/provinces', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' }, status: 204 },
      { method: 'OPTIONS', url: '/provinces', headers: { origin: 'https://example.org' }, status: 204 },
      { method: 'OPTIONS', url: '/provinces/%FF', status: 400, code: 'invalid_request', shape: 'identifier' },
    ];
    for (const c of cases) {
      const m = c.method ?? 'GET';
      it(`${m} ${c.url.length > 80 ? `${c.url.slice(0, 80)}...` : c.url}${c.headers ? ` ${JSON.stringify(c.headers)}` : ''} -> ${c.status}${c.code ? ` ${c.code}` : ''}`, async () => {
        const req: Req = { method: m, url: c.url, headers: c.headers ?? {} };
        const res = await viaInject(app, req);
        checkResponse(req, res);
        assert.equal(res.status, c.status, show(req, res));
        if (c.code) {
          const body = JSON.parse(res.body) as { status?: string; error: { code: string } };
          assert.equal(body.error.code, c.code);
          assert.equal(body.status === 'error' ? 'v1' : 'identifier', c.shape);
        }
      });
    }

    it('answers a write with an empty JSON body on a known path with 405, not a body error (README: any method but GET/HEAD)', async () => {
      for (const [m, url] of [['POST', '/provinces'], ['PUT', '/v1/provinces/12'], ['DELETE', `/villages/${unit('12010101').id}`]] as const) {
        for (const contentType of ['application/json', 'application/xml']) {
          const req: Req = { method: m, url, headers: { 'content-type': contentType } };
          const res = await viaInject(app, req);
          assert.equal(res.status, 405, show(req, res));
          checkResponse(req, res);
        }
      }
    });

    it('answers in the /v1 envelope when a percent-escape spells /v1 (the router decodes it)', async () => {
      for (const [url, status] of [['/%761/provinces/1', 400], ['/v%31/provinces/99', 404], ['/%761/provinces', 200]] as const) {
        const req: Req = { method: 'GET', url, headers: {} };
        const res = await viaInject(app, req);
        assert.equal(res.status, status, show(req, res));
        checkResponse(req, res);
      }
    });

    describe('over a real socket, where the target is not normalised', () => {
      const socketCases: Case[] = [
        { url: '/provinces/..', status: 400, code: 'invalid_request', shape: 'identifier' },
        { url: '/provinces/../provinces', status: 404, code: 'not_found', shape: 'identifier' },
        { url: '/v1/provinces/..', status: 400, code: 'invalid_request', shape: 'v1' },
        { url: '/v1/../provinces', status: 404, code: 'not_found', shape: 'v1' },
        { url: '/locations/../../package.json', status: 400, code: 'invalid_request', shape: 'identifier' },
        { url: '/locations/phnom-penh/../chamkar-mon', status: 400, code: 'invalid_request', shape: 'identifier' },
        { url: '//provinces', status: 404, code: 'not_found', shape: 'identifier' },
        { url: '/provinces/.%2e/.%2e/etc/passwd', status: 404, code: 'not_found', shape: 'identifier' },
        { method: 'OPTIONS', url: '/../..', status: 204 },
        { url: 'http://localhost/v1/provinces/1', status: 400, code: 'invalid_request', shape: 'v1' },
      ];
      it('answers a request line over 16 KiB with 431 in the envelope, and HEAD with no body', async () => {
        for (const m of ['GET', 'HEAD'] as const) {
          const req: Req = { method: m, url: `/v1/provinces?x=${'a'.repeat(20_000)}`, headers: {} };
          const res = await viaSocket(port, agent, req);
          assert.equal(res.status, 431, show(req, res));
          assert.equal(res.body === '', m === 'HEAD', show(req, res));
          checkResponse(req, res);
        }
      });

      for (const c of socketCases) {
        const m = c.method ?? 'GET';
        it(`${m} ${c.url} -> ${c.status}${c.code ? ` ${c.code}` : ''}`, async () => {
          const req: Req = { method: m, url: c.url, headers: {} };
          const res = await viaSocket(port, agent, req);
          assert.equal(res.status, c.status, show(req, res));
          if (c.code) {
            const body = JSON.parse(res.body) as { status?: string; error: { code: string } };
            assert.equal(body.error.code, c.code);
            assert.equal(body.status === 'error' ? 'v1' : 'identifier', c.shape);
          }
          checkResponse(req, res);
        });
      }
    });
  });
});
