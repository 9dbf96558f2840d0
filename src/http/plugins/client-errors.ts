/**
 * Requests answered outside Fastify's routing, still in the identifier-based JSON envelope (the URL was not parsed,
 * or is not a path, so the shape cannot be chosen by path):
 * - Fastify's clientErrorHandler: what Node's HTTP parser rejects before any route runs (a request line or headers
 *   over the 16 KiB limit, malformed HTTP);
 * - CONNECT, which Node hands to the server's 'connect' event rather than to the app (unanswered, it just closed
 *   the connection): a 405, the API is read-only.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Writes a whole error response on a socket and closes it. */
function endWithError(socket: Duplex, status: number, error: { code: string; message: string }, { head = false, headers = [] as string[] } = {}): string {
  const correlationId = randomUUID();
  const body = JSON.stringify({ statusCode: status, error, metadata: { correlationId } });
  socket.end([
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `x-correlation-id: ${correlationId}`,
    ...headers,
    'Connection: close',
    '',
    head ? '' : body,
  ].join('\r\n'));
  return correlationId;
}

export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  // A response to HEAD has no body; the bytes received tell the method, the request was never parsed.
  const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  const correlationId = endWithError(socket, tooLarge ? 431 : 400, tooLarge
    ? { code: 'request_header_too_large', message: 'The request line and headers must fit in 16 KiB: shorten the URL or the headers.' }
    : { code: 'invalid_request', message: 'Malformed HTTP request.' }, { head });
  this.log.debug({ err: error, correlationId }, 'client error');
}

/** The server's 'connect' listener: CONNECT is refused with 405 in the envelope. */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => undefined);
  if (!socket.writable) return;
  endWithError(socket, 405, { code: 'method_not_allowed', message: 'CONNECT is not allowed: this is a read-only API, not a proxy; use GET.' },
    { headers: ['Allow: GET, HEAD'] });
}
