/** Correlation ids, dataset version, ETag/304, Cache-Control and CORS around every response. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../../src/http/app.js';
import { CACHE_CONTROL, dataVersion, etagFor } from '../../../src/http/caching.js';
import { API_VERSION } from '../../../src/version.js';
import { appOptions, gazetteer, geography } from '../../helper.js';

describe('headers around every response', async () => {
  const app = await buildApp(appOptions());
  after(() => app.close());

  it('takes a sane x-correlation-id or x-request-id, else generates a UUID', async () => {
    const given = await app.inject({ url: '/provinces', headers: { 'x-correlation-id': 'trace-123:abc' } });
    assert.equal(given.headers['x-correlation-id'], 'trace-123:abc');
    assert.equal(given.json().metadata.correlationId, 'trace-123:abc');
    const requestId = await app.inject({ url: '/v1/provinces', headers: { 'x-request-id': 'req.42' } });
    assert.equal(requestId.headers['x-correlation-id'], 'req.42');
    for (const insane of ['has space', 'x'.repeat(129), 'new\u2028line', '<script>']) {
      const response = await app.inject({ url: '/provinces', headers: { 'x-correlation-id': insane } });
      assert.match(String(response.headers['x-correlation-id']), /^[0-9a-f-]{36}$/, insane);
    }
    const a = await app.inject('/provinces');
    const b = await app.inject('/provinces');
    assert.notEqual(a.headers['x-correlation-id'], b.headers['x-correlation-id']);
  });

  it('names the dataset version on data and error responses', async () => {
    for (const url of ['/provinces', '/v1/provinces/99', '/nowhere', '/health']) {
      assert.equal((await app.inject(url)).headers['x-dataset-version'], gazetteer().version, url);
    }
  });

  it('sends a weak ETag and Cache-Control on data responses, and 304 for a matching If-None-Match', async () => {
    const first = await app.inject('/v1/provinces');
    const etag = String(first.headers.etag);
    assert.equal(etag, etagFor(API_VERSION, dataVersion(gazetteer().version, geography().version)));
    assert.match(etag, /^W\/"[A-Za-z0-9_-]{16}"$/);
    assert.equal(first.headers['cache-control'], CACHE_CONTROL);
    for (const ifNoneMatch of [etag, etag.slice(2), `"other", ${etag}`, '*']) {
      const again = await app.inject({ url: '/v1/provinces', headers: { 'if-none-match': ifNoneMatch } });
      assert.equal(again.statusCode, 304, ifNoneMatch);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
    }
    const stale = await app.inject({ url: '/v1/provinces', headers: { 'if-none-match': 'W/"0.0.0+old"' } });
    assert.equal(stale.statusCode, 200);
    assert.ok(stale.body.length > 0);
  });

  it('never turns an error into a 304 and puts no ETag on errors', async () => {
    const etag = String((await app.inject('/provinces')).headers.etag);
    const missing = await app.inject({ url: '/v1/provinces/99', headers: { 'if-none-match': etag } });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers.etag, undefined);
  });

  it('allows any origin to GET and read the custom headers', async () => {
    const response = await app.inject({ url: '/provinces', headers: { origin: 'https://example.org' } });
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.match(String(response.headers['access-control-expose-headers']), /x-correlation-id/);
    const preflight = await app.inject({ method: 'OPTIONS', url: '/provinces',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } });
    assert.equal(preflight.statusCode, 204);
    assert.match(String(preflight.headers['access-control-allow-methods']), /GET/);
  });

  it('lets a browser page POST a batch cross-origin (preflight allows POST on the bulk paths only)', async () => {
    for (const url of ['/v1/resolve', '/v1/reverse']) {
      const preflight = await app.inject({ method: 'OPTIONS', url,
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' } });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers['access-control-allow-methods'], 'GET, HEAD, POST', url);
      assert.equal(preflight.headers['access-control-allow-headers'], 'content-type, x-api-key', url);
    }
    const other = await app.inject({ method: 'OPTIONS', url: '/provinces', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
    assert.equal(other.headers['access-control-allow-methods'], 'GET, HEAD');
    const signin = await app.inject({ method: 'OPTIONS', url: '/signin', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
    assert.equal(signin.headers['access-control-allow-methods'], 'GET, HEAD');
    const batch = await app.inject({ method: 'POST', url: '/v1/resolve', headers: { origin: 'https://shop.example' }, payload: ['Sangkat Tonle Basak, Khan Chamkar Mon'] });
    assert.equal(batch.statusCode, 200);
    assert.equal(batch.headers['access-control-allow-origin'], '*');
  });

  it('puts the CORS headers on refusals too, so that a browser script can read the error', async () => {
    const refused = await app.inject({ method: 'POST', url: '/provinces', headers: { origin: 'https://example.org' } });
    assert.equal(refused.statusCode, 405);
    assert.equal(refused.headers['access-control-allow-origin'], '*');
    assert.equal(refused.json().error.code, 'method_not_allowed');
    const missing = await app.inject({ url: '/nowhere', headers: { origin: 'https://example.org' } });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['access-control-allow-origin'], '*');
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/provinces' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, '');
  });
});
