import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import underPressure from '@fastify/under-pressure';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { Type } from './schemas/type.js';
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import type { Geography } from '../geo/geography.js';
import { unitLocator } from '../geo/locations.js';
import { dashboardRoutes } from '../dashboard/routes.js';
import type { AccessControl } from '../keys/access-control.js';
import type { KeyStore } from '../keys/store.js';
import type { SearchIndex } from '../search/search-index.js';
import { API_VERSION } from '../version.js';
import { invalidRequest, quotePath, RETRY_AFTER_SECONDS, sendError, STORE_UNAVAILABLE } from './errors.js';
import { dataVersion, etagFor } from './caching.js';
import { PayloadCache } from './payload-cache.js';
import { fasterFormats, schemaController } from './schema-compilers.js';
import { deferredChildLogger, serializeRequest } from './request-logger.js';
import { registerApiKeys } from './plugins/api-keys.js';
import { clientErrorHandler, refuseConnect } from './plugins/client-errors.js';
import { correlationId } from './plugins/correlation.js';
import { corsStep } from './plugins/cors.js';
import { registerErrorHandling } from './plugins/error-handling.js';
import { registerIntegerParams } from './plugins/integer-params.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerOpenApi, TAGS } from './plugins/openapi.js';
import { datasetRoutes } from './features/dataset/routes.js';
import { widgetRoutes } from './features/widget/routes.js';
import { geoRoutes } from './features/geo/routes.js';
import { identifierHierarchyRoutes } from './routes/identifier/hierarchy.js';
import { identifierSearchRoutes } from './routes/identifier/search.js';
import { v1HierarchyRoutes } from './routes/v1/hierarchy.js';
import { usageRoutes } from './routes/usage.js';
import { v1SearchRoutes } from './routes/v1/search.js';
import { resolveRoutes } from './features/resolve/routes.js';
import { type AddressResolver, resolverFor } from '../address/resolve.js';
import { IdentifierError } from './schemas/common.js';
import { historyRoutes } from './features/history/routes.js';

export interface AppOptions {
  gazetteer: Gazetteer;
  /** The search index over the gazetteer (built once at start; tests share one). */
  search: SearchIndex;
  /** The boundaries (reverse geocoding, GET /v1/boundaries); without them those routes are absent. */
  geo?: Geography;
  /** The address resolver over the same gazetteer and index (made here when not given; tests share one). */
  resolver?: AddressResolver;
  /**
   * The API-key gate. The server always passes one; without it the data routes are open and /usage is absent
   * (route tests, and the benchmark's measure of what the gate costs).
   */
  access?: AccessControl;
  /** The key store: /ready checks it, the dashboard keeps accounts in it. */
  store?: KeyStore;
  /** The developer dashboard (pages at /, /signup, /dashboard...); needs `access` and `store`. */
  dashboard?: { operatorContact: string; maxKeysPerAccount?: number; now?: () => number };
  /**
   * Trust X-Forwarded-* headers from a proxy in front (for the client address and HTTPS): a hop count or the proxies'
   * addresses/CIDRs, as Fastify's `trustProxy` (`true` trusts every hop: any client can then pick its address).
   */
  trustProxy?: boolean | number | string[];
  /** Serve Prometheus metrics at /metrics to this bearer token; empty or absent: no /metrics. */
  metricsToken?: string;
  /** Shed load (503) while the event loop lags more than this; 0 turns it off. Default 1000 ms. */
  maxEventLoopDelayMs?: number;
  /** Log every request and response (pino, with the correlation id). Off by default: it costs throughput. */
  logRequests?: boolean;
  /** The picker's demo page: the browser key it shows (made at start for the service's own origins), if any. */
  widget?: { demoKey: () => string | undefined };
  /** Passed to Fastify; tests leave it off, the server sets a pino logger. */
  logger?: FastifyServerOptions['logger'];
}

/**
 * Fastify's `trustProxy`, except that a hop count is honoured: Fastify 5 turns a number into "trust nothing" (a hop
 * count cannot tell the proxy from a client that reached the server directly), which would make `TRUST_PROXY=on`
 * useless. Hop 0 is the socket's peer: trusting `hops` hops believes the address the last of them saw.
 */
function trustProxyOption(trust: AppOptions['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust ?? false;
  return trust > 0 ? (_address, hop) => hop < trust : false;
}

/** Headers a browser client may read across origins. */
const EXPOSED_HEADERS = ['x-correlation-id', 'x-dataset-version', 'etag', 'ratelimit', 'ratelimit-policy', 'retry-after', 'x-attribution'];

/**
 * Builds the HTTP app without listening, so tests can `inject()` requests.
 * Order matters: error handling, the app-wide hook and the OpenAPI collector come before the routes.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { gazetteer, search, access, store } = options;
  // Built before the load shedder starts measuring the event loop (about 0.2 s, once per gazetteer and index).
  const resolver = options.resolver ?? resolverFor(gazetteer, search);
  const stampHeaders = (request: FastifyRequest, reply: FastifyReply) =>
    reply.header('x-correlation-id', request.id).header('x-dataset-version', gazetteer.version);
  const logger = options.logger;
  const app = Fastify({
    // Requests are logged with their URL redacted of anything shaped like a key (request-logger.ts).
    logger: logger && typeof logger === 'object' ? { ...logger, serializers: { req: serializeRequest, ...logger.serializers } } : logger ?? false,
    // A request without Host is answered by the onRequest hook below in the JSON envelope, not by Node with an
    // empty 400.
    http: { requireHostHeader: false },
    trustProxy: trustProxyOption(options.trustProxy),
    // A request that has not completed in 30 s is dropped (slow clients cannot hold sockets forever).
    requestTimeout: 30_000,
    // Logging every request costs throughput (measured: see the README's Performance section): by default failures
    // are logged by the error handler, with the correlation id, and an access log is left to the proxy in front.
    logController: new LogController({ disableRequestLogging: !options.logRequests }),
    // Each request's logger is made when it first logs (most never do); without a logger there is nothing to defer.
    ...(options.logger ? { childLoggerFactory: deferredChildLogger } : {}),
    genReqId: correlationId,
    // Unknown query parameters are rejected (documented), not silently dropped; every bad parameter is reported.
    // The uuid format is checked as ajv-formats does, with the ids of the units tried first (see fasterFormats).
    ajv: { customOptions: { removeAdditional: false, allErrors: true }, onCreate: fasterFormats((id) => gazetteer.hasId(id)) },
    // A URL the router cannot decode (e.g. a bad percent-escape) is the client's mistake, in our envelope.
    // (These requests never reach the onRequest hook, hence the explicit stamp.)
    // The message names the URL shortened, as the 404 does (Fastify's own echoes up to 16 KiB of it).
    frameworkErrors: (error, request, reply) =>
      sendError(request, stampHeaders(request, reply), invalidRequest(error.code === 'FST_ERR_BAD_URL'
        ? `Malformed request: the URL ${quotePath(request.url.split('?', 1)[0]!)} is not valid (a bad percent-escape or invalid UTF-8).`
        : 'Malformed request.')),
    clientErrorHandler,
    // Identical response schemas (the error envelope on every route and status) compiled once, not once each.
    schemaController: schemaController(),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const { refuseUnroutedWrite } = registerErrorHandling(app);
  registerIntegerParams(app);
  // The public API's POST operations (they have an operationId; the dashboard's forms do not): a preflight allows
  // POST there, so that a browser page can send a batch cross-origin.
  const postPaths = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('POST') && (route.schema as { operationId?: string } | undefined)?.operationId) postPaths.add(route.url);
  });
  const cors = corsStep({ exposedHeaders: EXPOSED_HEADERS, postPaths });
  // What every request needs, in one hook rather than one per concern (each hook costs throughput): the correlation
  // id and dataset version, CORS (so that even a refusal is readable by a browser), then writes without a route.
  // Load shedding: when the event loop lags (its mean delay over under-pressure's last sample, refreshed every
  // second, is over MAX_EVENT_LOOP_DELAY_MS), refuse quickly with 503 rather than answer everyone late. under-pressure
  // samples; the check is made here, in the one hook every request runs (its own hook built Fastify's routeOptions
  // object on every request to look for a per-route handler, which no route has).
  const maxEventLoopDelay = options.maxEventLoopDelayMs ?? 1000;
  let overloaded = (_request: FastifyRequest, _reply: FastifyReply): boolean => false;
  app.addHook('onRequest', (request, reply, done) => {
    stampHeaders(request, reply);
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      sendError(request, reply, invalidRequest('The Host header is required in HTTP/1.1.', [{ in: 'header', parameter: 'host', message: 'is required' }]));
      return;
    }
    if (!cors(request, reply) && !refuseUnroutedWrite(request, reply) && !overloaded(request, reply)) done();
  });
  app.server.on('connect', refuseConnect);
  const metrics = await registerMetrics(app, { token: options.metricsToken ?? '', meter: access?.meter });
  if (maxEventLoopDelay > 0) {
    // No thresholds given to the plugin: it samples (and decorates memoryUsage()) without a hook of its own.
    await app.register(underPressure, {});
    overloaded = (request, reply) => {
      if (app.memoryUsage().eventLoopDelay <= maxEventLoopDelay) return false;
      metrics.refused('overloaded');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      sendError(request, reply, { statusCode: 503, code: 'service_unavailable', message: 'The server is overloaded; retry after Retry-After seconds.' });
      return true;
    };
  }
  await registerOpenApi(app, { apiVersion: API_VERSION, datasetVersion: gazetteer.version });

  app.get('/health', {
    schema: {
      operationId: 'health',
      tags: [TAGS.service],
      security: [],
      summary: 'Liveness: the process is up and the dataset loaded',
      response: { 200: Type.Object({ status: Type.Literal('ok'), datasetVersion: Type.String() }, { additionalProperties: false }) },
    },
  }, async () => ({ status: 'ok' as const, datasetVersion: gazetteer.version }));

  app.get('/ready', {
    schema: {
      operationId: 'ready',
      tags: [TAGS.service],
      security: [],
      summary: 'Readiness: the dataset and search index are loaded and the key store answers',
      response: {
        200: Type.Object({ status: Type.Literal('ready'), datasetVersion: Type.String(), store: Type.String() }, { additionalProperties: false }),
        503: { ...IdentifierError, description: 'service_unavailable: the key store does not answer.' },
      },
    },
  }, async (request, reply) => {
    try {
      await store?.ping();
    } catch (error) {
      request.log.warn({ err: error }, 'not ready: the key store does not answer');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return sendError(request, reply, STORE_UNAVAILABLE);
    }
    return { status: 'ready' as const, datasetVersion: gazetteer.version, store: store?.kind ?? 'none' };
  });

  // The data routes of both shapes, in one scope with the API-key gate in front of all of them.
  // Where each province, district and commune is (`location` on their records), from the boundaries.
  const locate = options.geo ? unitLocator(options.geo, gazetteer) : undefined;
  // The ETag names the data versions: the dataset's and, when records carry locations, the geometry's.
  const payloads = new PayloadCache(etagFor(API_VERSION, dataVersion(gazetteer.version, options.geo?.version)));
  // Kept identifier bodies let go of the responses they were last sent to once those are written (payload-cache.ts).
  const releasing = setInterval(() => payloads.release(), 1000).unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(releasing);
    done();
  });

  await app.register(async (data) => {
    if (access) {
      registerApiKeys(data, access, (reason) => metrics.refused(reason));
      await data.register(usageRoutes, { access });
    }
    await data.register(identifierHierarchyRoutes, { gazetteer, payloads, locate });
    await data.register(identifierSearchRoutes, { gazetteer, search, resolver, payloads });
    await data.register(v1HierarchyRoutes, { gazetteer, payloads, locate });
    await data.register(v1SearchRoutes, { search, resolver, payloads });
    await data.register(datasetRoutes, { gazetteer, geo: options.geo, locate });
    await data.register(historyRoutes, { gazetteer, payloads });
    if (options.geo) await data.register(geoRoutes, { gazetteer, geo: options.geo, access, payloads });
    await data.register(resolveRoutes, { gazetteer, resolver, payloads, access });
  });
  await app.register(widgetRoutes, { demoKey: options.widget?.demoKey ?? (() => undefined) });
  if (options.dashboard && access && store) {
    await app.register(dashboardRoutes, { store, access, gazetteer, search, geo: options.geo, ...options.dashboard });
  }
  return app;
}
