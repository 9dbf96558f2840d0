/**
 * Error handler, not-found handler and 405 detection for the whole app. Every failure leaves as JSON in the
 * envelope of its shape (see ../errors.ts); a 5xx is logged with its stack, which never reaches the body.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { quotePath, RETRY_AFTER_SECONDS, sendError, toApiError } from '../errors.js';

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * Installs the handlers and returns the step the app's onRequest hook runs on every request: it answers (returning
 * true) a write to a path with no route for it.
 */
export function registerErrorHandling(app: FastifyInstance): { refuseUnroutedWrite: (request: FastifyRequest, reply: FastifyReply) => boolean } {
  // Every route by method, so that another method on a known path is a 405 rather than a 404, and a method no
  // route serves is refused before Fastify parses a body for it.
  const routes = FindMyWay();
  app.addHook('onRoute', (route) => {
    for (const method of (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethod[]) {
      if (method !== 'HEAD' && !routes.find(method, route.url)) routes.on(method, route.url, () => undefined);
    }
  });

  /** 405 for another method on a path that answers GET, else 404. */
  const noRoute = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0]!;
    if (!READ_METHODS.has(request.method) && routes.find('GET', path)) {
      reply.header('allow', 'GET, HEAD');
      return sendError(request, reply, { statusCode: 405, code: 'method_not_allowed',
        message: `${request.method} is not allowed on ${quotePath(path)}: the API is read-only, use GET.` });
    }
    return sendError(request, reply, { statusCode: 404, code: 'not_found', message: `No route ${request.method} ${quotePath(path)}. See /docs for the API.` });
  };

  // A write to a path with no route for it is answered at once, before Fastify would parse its body and refuse it
  // with a 400 or 415 that hides the real problem. (The API is read-only; only the dashboard's forms take POST.)
  const refuseUnroutedWrite = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (READ_METHODS.has(request.method) || request.method === 'OPTIONS' || routes.find(request.method as HTTPMethod, request.url.split('?', 1)[0]!)) return false;
    void noRoute(request, reply);
    return true;
  };

  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error as Error);
    if (apiError.statusCode === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, apiError);
  });

  app.setNotFoundHandler(noRoute);
  return { refuseUnroutedWrite };
}
