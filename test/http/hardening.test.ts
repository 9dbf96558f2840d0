/**
 * Issue 14, item 25: keys in URLs are not logged in clear, a malformed URL is not echoed whole, /docs cannot be
 * framed, and requests without Host or with CONNECT are answered in the JSON error envelope.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { redactKeys } from '../../src/http/request-logger.js';
import { generateKey } from '../../src/keys/key-format.js';
import { appOptions } from '../helper.js';

/** Sends raw bytes and returns the raw response (the server closes, or 2 s pass). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let response = '';
    const timer = setTimeout(() => socket.destroy(), 2000);
    socket.on('data', (chunk) => {
      response += chunk.toString();
      // One whole response with a Content-Length: done.
      const [head, body] = response.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head ?? '')?.[1];
      if (length !== undefined && body !== undefined && Buffer.byteLength(body) >= Number(length)) socket.destroy();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(response);
    });
    socket.on('error', reject);
  });
}

const bodyOf = (response: string) => JSON.parse(response.split('\r\n\r\n')[1]!) as { statusCode: number; error: { code: string; message: string } };

describe('keys in URLs are redacted from the request log (LOG_REQUESTS=on)', () => {
  it('cuts anything shaped like a key to its 10-character label', () => {
    const key = generateKey();
    assert.equal(redactKeys(`/provinces?x-api-key=${key}`), `/provinces?x-api-key=${key.slice(0, 10)}[redacted]`);
    assert.equal(redactKeys(`/x?k=${key.replace('_', '%5F')}&k2=khp_abcdefghijklmnopqrstuvwxyz`), `/x?k=${key.slice(0, 3)}%5F${key.slice(4, 10)}[redacted]&k2=khp_abcdef[redacted]`);
    assert.equal(redactKeys('/search?q=khum'), '/search?q=khum');
  });

  it('logs the request line without the key', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(chunk.toString()); done(); } });
    const app = await buildApp({ ...appOptions(), logRequests: true, logger: { level: 'info', stream } });
    try {
      const key = generateKey();
      for (const url of [`/provinces?x-api-key=${key}`, `/provinces/${key}`, `/v1/provinces?key=${encodeURIComponent(key).replace('_', '%5F')}`]) {
        await app.inject(url);
      }
      const log = lines.join('');
      assert.ok(log.includes('incoming request'), 'requests are logged');
      assert.ok(log.includes(`${key.slice(0, 10)}[redacted]`), log.slice(0, 500));
      assert.ok(!log.includes(key.slice(10)), `the secret part of the key is in the log: ${log.slice(0, 800)}`);
    } finally {
      await app.close();
    }
  });
});

describe('answers outside the routes', () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await buildApp(appOptions());
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  after(() => app.close());

  it('does not echo a long malformed URL back (it is shortened as in the 404)', async () => {
    const response = await app.inject(`/provinces/%FF${'a'.repeat(8000)}`);
    assert.equal(response.statusCode, 400);
    const { error } = response.json<{ error: { code: string; message: string } }>();
    assert.equal(error.code, 'invalid_request');
    assert.ok(error.message.length < 300, `${error.message.length} characters`);
    assert.match(error.message, /^Malformed request: the URL \/provinces\/%FFa+\.\.\. is not valid/);
  });

  it('forbids framing /docs (the page where people paste their key)', async () => {
    for (const url of ['/docs', '/docs/', '/docs/static/index.html']) {
      const response = await app.inject(url);
      assert.equal(response.headers['x-frame-options'], 'DENY', url);
      assert.match(String(response.headers['content-security-policy']), /frame-ancestors 'none'/, url);
    }
  });

  it('answers an HTTP/1.1 request without Host with 400 in the JSON envelope (HTTP/1.0 needs none)', async () => {
    const response = await raw(port, 'GET /provinces HTTP/1.1\r\nConnection: close\r\n\r\n');
    assert.match(response, /^HTTP\/1\.1 400 /);
    const body = bodyOf(response);
    assert.equal(body.statusCode, 400);
    assert.equal(body.error.code, 'invalid_request');
    assert.match(body.error.message, /Host/);
    assert.match(await raw(port, 'GET /v1/provinces/12 HTTP/1.0\r\n\r\n'), /^HTTP\/1\.1 200 /);
  });

  it('answers CONNECT with 405 in the JSON envelope', async () => {
    const response = await raw(port, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');
    assert.match(response, /^HTTP\/1\.1 405 /);
    assert.match(response, /\r\nAllow: GET, HEAD\r\n/);
    const body = bodyOf(response);
    assert.equal(body.error.code, 'method_not_allowed');
    assert.equal(body.statusCode, 405);
  });

  it('still serves normal requests afterwards', async () => {
    assert.equal((await fetch(`http://127.0.0.1:${port}/v1/provinces/12`)).status, 200);
  });
});
