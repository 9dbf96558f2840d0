/** Every error code, in both shapes, with the documented envelope and the correlation id. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/http/app.js';
import { appOptions, unit } from '../helper.js';

describe('one error model', async () => {
  const app = await buildApp(appOptions());
  // Routes that fail the way a bug would, one per shape, to see what a 500 looks like.
  app.get('/boom', async () => {
    throw new Error('secret internals: /etc/passwd at line 3');
  });
  app.get('/v1/boom', async () => {
    throw new TypeError('cannot read properties of undefined');
  });
  after(() => app.close());

  const request = async (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string) => {
    const response = await app.inject({ method, url });
    assert.match(String(response.headers['content-type']), /^application\/json/, url);
    return { status: response.statusCode, body: response.json() as Record<string, unknown>, headers: response.headers };
  };

  const identifierCases = [
    { method: 'GET', url: '/provinces?lang=fr', status: 400, code: 'invalid_request', message: /lang: must be one of: en, km/ },
    { method: 'GET', url: '/provinces?page=2', status: 400, code: 'invalid_request', message: /page: unknown query parameter/ },
    { method: 'GET', url: '/districts/not-a-uuid', status: 400, code: 'invalid_request', message: /id: must be a UUID/ },
    { method: 'GET', url: '/provinces/%E0%A4%A', status: 400, code: 'invalid_request', message: /Malformed request/ },
    { method: 'GET', url: `/communes/${unit('1201').id}`, status: 404, code: 'not_found', message: /No commune has id/ },
    { method: 'GET', url: '/nowhere', status: 404, code: 'not_found', message: /No route GET \/nowhere/ },
    { method: 'POST', url: '/provinces', status: 405, code: 'method_not_allowed', message: /read-only/ },
    { method: 'DELETE', url: `/villages/${unit('12010101').id}`, status: 405, code: 'method_not_allowed', message: /use GET/ },
    { method: 'GET', url: '/boom', status: 500, code: 'internal_error', message: /correlation id/ },
  ] as const;
  for (const c of identifierCases) {
    it(`identifier shape: ${c.method} ${c.url} -> ${c.status} ${c.code}`, async () => {
      const { status, body, headers } = await request(c.method, c.url);
      assert.equal(status, c.status);
      assert.deepEqual(Object.keys(body), ['statusCode', 'error', 'metadata']);
      assert.equal(body.statusCode, c.status);
      const error = body.error as { code: string; message: string; details?: unknown[] };
      assert.equal(error.code, c.code);
      assert.match(error.message, c.message);
      assert.equal((body.metadata as { correlationId: string }).correlationId, headers['x-correlation-id']);
      if (c.status === 400 && !c.url.includes('%')) assert.ok(Array.isArray(error.details) && error.details.length > 0);
      if (c.status === 405) assert.equal(headers.allow, 'GET, HEAD');
      if (c.status === 500) assert.doesNotMatch(JSON.stringify(body), /passwd|line 3|stack|at /);
    });
  }

  const v1Cases = [
    { method: 'GET', url: '/v1/provinces/1', status: 400, code: 'invalid_request', message: /province_code: must be 2 digits/ },
    { method: 'GET', url: '/v1/villages/120101?format=csv', status: 400, code: 'invalid_request', message: /format: unknown query parameter/ },
    { method: 'GET', url: '/v1/communes/%FF', status: 400, code: 'invalid_request', message: /./ },
    { method: 'GET', url: '/v1/provinces/99', status: 404, code: 'not_found', message: /No province has code 99/ },
    { method: 'GET', url: '/v1/nowhere', status: 404, code: 'not_found', message: /No route/ },
    { method: 'PUT', url: '/v1/provinces', status: 405, code: 'method_not_allowed', message: /read-only/ },
    { method: 'GET', url: '/v1/boom', status: 500, code: 'internal_error', message: /correlation id/ },
  ] as const;
  for (const c of v1Cases) {
    it(`code-based shape: ${c.method} ${c.url} -> ${c.status} ${c.code}`, async () => {
      const { status, body } = await request(c.method, c.url);
      assert.equal(status, c.status);
      assert.deepEqual(Object.keys(body), ['status', 'error']);
      assert.equal(body.status, 'error');
      const error = body.error as { code: string; message: string };
      assert.equal(error.code, c.code);
      assert.match(error.message, c.message);
      if (c.status === 500) assert.doesNotMatch(JSON.stringify(body), /undefined|TypeError/);
    });
  }

  it('reports every bad parameter with where it is and why', async () => {
    const { body } = await request('GET', `/districts/${unit('1201').id}?lang=xx&sort=name`);
    const details = (body.error as { details: { in: string; parameter: string; message: string }[] }).details;
    assert.deepEqual(details.toSorted((a, b) => a.parameter.localeCompare(b.parameter)), [
      { in: 'query', parameter: 'lang', message: 'must be one of: en, km' },
      { in: 'query', parameter: 'sort', message: 'unknown query parameter' },
    ]);
  });

  it('rejects a repeated parameter', async () => {
    const { status, body } = await request('GET', '/provinces?lang=en&lang=km');
    assert.equal(status, 400);
    assert.equal((body.error as { code: string }).code, 'invalid_request');
  });
});
