/**
 * Error handler, not-found handler and 405 detection for the whole app. Every failure leaves as JSON in the
 * envelope of its shape (see ../errors.ts); a 5xx is logged with its stack, which never reaches the body.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { quotePath, sendError, toApiError } from '../errors.js';

const READ_METHODS = new Set(['GET', 'HEAD']);

export function registerErrorHandling(app: FastifyInstance): void {
  // Every GET route, so that another method on a known path is a 405 rather than a 404.
  const getRoutes = FindMyWay();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) getRoutes.on('GET', route.url, () => undefined);
  });

  /** 405 for another method on a path that answers GET, else 404. */
  const noRoute = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0]!;
    if (!READ_METHODS.has(request.method) && getRoutes.find('GET', path)) {
      reply.header('allow', 'GET, HEAD');
      return sendError(request, reply, { statusCode: 405, code: 'method_not_allowed',
        message: `${request.method} is not allowed on ${quotePath(path)}: the API is read-only, use GET.` });
    }
    return sendError(request, reply, { statusCode: 404, code: 'not_found', message: `No route ${request.method} ${quotePath(path)}. See /docs for the API.` });
  };

  // Every route is a GET, so any other method (but CORS preflights) has no route: answer it here, before Fastify
  // would parse a body and refuse it with a 400 or 415 that hides the real problem.
  app.addHook('onRequest', (request, reply, done) => {
    if (READ_METHODS.has(request.method) || request.method === 'OPTIONS') done();
    else noRoute(request, reply);
  });

  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error as Error);
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, apiError);
  });

  app.setNotFoundHandler(noRoute);
}
