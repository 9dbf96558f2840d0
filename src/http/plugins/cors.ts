/**
 * CORS for a public read-only API: any origin may GET and read our headers. The headers go only on requests that
 * carry an Origin (browsers send it on every cross-origin request): two fewer headers on every other response was
 * a measured 5-10% of throughput (Node validates each header it writes). Preflights answer 204.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface CorsOptions {
  /** Response headers a browser script may read. */
  exposedHeaders: string[];
  /**
   * Paths of the API's read-only POST operations (bulk resolve and reverse), which a preflight allows POST on;
   * filled as routes are added. Every other path allows GET and HEAD only (the dashboard's forms are same-origin).
   */
  postPaths: ReadonlySet<string>;
}

/**
 * Returns the step the app's onRequest hook runs first on every request: it adds the CORS headers, and answers
 * (returning true) any OPTIONS request, on every path, before Fastify would look for a route or parse a body: a
 * preflight asks whether a method and headers may be used, and GET and HEAD with any header may (and POST on the
 * paths of the read-only POST operations).
 */
export function corsStep({ exposedHeaders, postPaths }: CorsOptions): (request: FastifyRequest, reply: FastifyReply) => boolean {
  const exposed = exposedHeaders.join(', ');
  return (request, reply) => {
    if (request.method === 'OPTIONS') {
      const path = request.url.split('?', 1)[0]!;
      reply.header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', postPaths.has(path) ? 'GET, HEAD, POST' : 'GET, HEAD')
        .header('access-control-max-age', '86400');
      const requested = request.headers['access-control-request-headers'];
      if (typeof requested === 'string') reply.header('access-control-allow-headers', requested);
      reply.code(204).send();
      return true;
    }
    if (request.headers.origin !== undefined) {
      reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', exposed);
    }
    return false;
  };
}
