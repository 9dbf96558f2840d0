/**
 * Fastify's clientErrorHandler: requests Node's HTTP parser rejects before any route runs (a request line or headers
 * over the 16 KiB limit, malformed HTTP). They still get JSON in the identifier-based envelope; the URL was not
 * parsed, so the shape cannot be chosen by path.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const correlationId = randomUUID();
  const body = JSON.stringify({
    statusCode: status,
    error: tooLarge
      ? { code: 'request_header_too_large', message: 'The request line and headers must fit in 16 KiB: shorten the URL or the headers.' }
      : { code: 'invalid_request', message: 'Malformed HTTP request.' },
    metadata: { correlationId },
  });
  this.log.debug({ err: error, correlationId }, 'client error');
  // A response to HEAD has no body; the bytes received tell the method, the request was never parsed.
  const isHead = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end([
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `x-correlation-id: ${correlationId}`,
    'Connection: close',
    '',
    isHead ? '' : body,
  ].join('\r\n'));
}
