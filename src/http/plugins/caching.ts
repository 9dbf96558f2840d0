/**
 * HTTP caching of data responses. The data changes only with the dataset version (and the format only with the
 * API version), so one weak ETag per pair of versions serves every URL; the body differs per request only in
 * metadata.correlationId, hence weak. A matching If-None-Match gets 304 with no body.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** `Cache-Control` of data responses: private, because every request will need an API key and counts against it. */
export const CACHE_CONTROL = 'private, max-age=3600';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on data routes: their 200 responses get ETag and Cache-Control and answer If-None-Match. */
    cacheable?: boolean;
  }
}

function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.slice(2); // weak comparison: W/"x" matches "x" and W/"x"
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === etag || t === opaque;
  });
}

/** The ETag of every data response: a short hash of the API and dataset versions (fewer bytes on every response). */
export function etagFor(apiVersion: string, datasetVersion: string): string {
  return `W/"${createHash('sha256').update(`${apiVersion}+${datasetVersion}`).digest('base64url').slice(0, 16)}"`;
}

export function registerCaching(app: FastifyInstance, { datasetVersion, apiVersion }: { datasetVersion: string; apiVersion: string }): void {
  const etag = etagFor(apiVersion, datasetVersion);
  app.addHook('onSend', (request: FastifyRequest, reply, payload, done) => {
    if (reply.statusCode !== 200 || !request.routeOptions.config.cacheable) {
      done(null, payload);
      return;
    }
    reply.header('etag', etag).header('cache-control', CACHE_CONTROL);
    const ifNoneMatch = request.headers['if-none-match'];
    if (typeof ifNoneMatch === 'string' && matches(ifNoneMatch, etag)) {
      reply.code(304);
      done(null, '');
      return;
    }
    done(null, payload);
  });
}
