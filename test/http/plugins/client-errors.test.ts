/** What Node's HTTP parser rejects still gets a JSON error, over a real socket. */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/http/app.js';
import { appOptions } from '../../helper.js';

/** Sends raw bytes and returns the whole raw response. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let response = '';
    socket.on('data', (chunk) => (response += chunk.toString()));
    socket.on('end', () => resolve(response));
    socket.on('error', reject);
  });
}

interface ErrorEnvelope {
  statusCode: number;
  error: { code: string; message: string };
  metadata: { correlationId: string };
}

function parse(response: string) {
  const [head, body] = response.split('\r\n\r\n');
  return { statusLine: head!.split('\r\n')[0], head: head!, body: JSON.parse(body!) as ErrorEnvelope };
}

describe('client errors', () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await buildApp(appOptions());
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  after(() => app.close());

  it('answers a URL over the header limit with 431 in the JSON envelope', async () => {
    const response = parse(await raw(port, `GET /provinces?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    assert.equal(response.statusLine, 'HTTP/1.1 431 Request Header Fields Too Large');
    assert.equal(response.body.statusCode, 431);
    assert.equal(response.body.error.code, 'request_header_too_large');
    assert.match(response.head, new RegExp(`x-correlation-id: ${response.body.metadata.correlationId}`));
  });

  it('answers malformed HTTP with 400 in the JSON envelope', async () => {
    const response = parse(await raw(port, 'GARBAGE\r\n\r\n'));
    assert.equal(response.statusLine, 'HTTP/1.1 400 Bad Request');
    assert.equal(response.body.error.code, 'invalid_request');
  });

  it('still serves normal requests afterwards', async () => {
    assert.equal((await fetch(`http://127.0.0.1:${port}/v1/provinces/12`)).status, 200);
  });
});
