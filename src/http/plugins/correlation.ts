import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * What we accept as a caller's correlation id: 1-128 characters that are safe in logs and headers, and never need
 * escaping in JSON (the payload cache writes ids into cached bodies as they are).
 */
const SANE_ID = /^[A-Za-z0-9._~:/+=-]{1,128}$/;

/**
 * Fastify's genReqId: the caller's `x-correlation-id` (or `x-request-id`) when it is sane, else a new UUID.
 * The id is request.id, logged with every line and returned in the x-correlation-id header and metadata.
 */
export function correlationId(request: IncomingMessage): string {
  const { headers } = request;
  const given = headers['x-correlation-id'];
  if (typeof given === 'string' && SANE_ID.test(given)) return given;
  const requestId = headers['x-request-id'];
  if (typeof requestId === 'string' && SANE_ID.test(requestId)) return requestId;
  return randomUUID();
}
