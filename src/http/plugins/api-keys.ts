/**
 * The API-key gate in front of every data route: 401 without a valid key, 429 over the quota or the per-second
 * limit, and the IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) on every keyed response.
 * Register it inside the data routes' scope only: /health, /openapi.json and /docs stay open.
 * A callback-style hook: admission is synchronous for a known key, and a promise per request would cost throughput.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AccessControl, Admission, KeyMemo, LimitState } from '../../keys/access-control.js';
import { isBrowserKeyText } from '../../keys/key-format.js';
import { flat } from '../../lib/flat.js';
import { requestOrigin } from '../../keys/origins.js';
import type { KeyWithPlan } from '../../keys/store.js';
import { sendError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The admitted key and its limits after this request (set by the API-key gate). */
    apiKey?: { key: KeyWithPlan; limits: LimitState };
  }
}

export const API_KEY_HEADER = 'x-api-key';

/** Where a connection (its socket) keeps its KeyMemo. */
const KEY_MEMO = Symbol('kh-address key memo');

/**
 * `RateLimit-Policy` depends only on the key's plan and the length of the month: made once per key (object) and
 * month, not formatted on every request.
 */
const policies = new WeakMap<KeyWithPlan, { windowSeconds: number; header: string }>();
function policyHeader(key: KeyWithPlan, { monthly, perSecond }: LimitState): string {
  const known = policies.get(key);
  if (known?.windowSeconds === monthly.windowSeconds) return known.header;
  const header = `"monthly";q=${monthly.quota};w=${monthly.windowSeconds}, "per-second";q=${perSecond.quota};w=1`;
  policies.set(key, { windowSeconds: monthly.windowSeconds, header });
  return header;
}

/** `RateLimit-Policy` and `RateLimit`, both policies: the monthly quota and the per-second limit. */
export function setRateLimitHeaders(reply: FastifyReply, key: KeyWithPlan, limits: LimitState): void {
  const { monthly, perSecond } = limits;
  reply.header('ratelimit-policy', policyHeader(key, limits));
  // Flat (see lib/flat.ts): Node checks every header value with a regular expression.
  const value = flat`"monthly";r=${monthly.remaining};t=${monthly.resetSeconds}, "per-second";r=${perSecond.remaining};t=${perSecond.resetSeconds}`;
  reply.header('ratelimit', value);
}

function apply(admission: Admission, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, onRefused: (reason: string) => void): void {
  if (admission.outcome !== 'admitted') onRefused(admission.outcome === 'missing' ? 'missing_api_key' : admission.outcome === 'invalid' ? 'invalid_api_key' : admission.outcome);
  switch (admission.outcome) {
    case 'origin_not_allowed':
      sendError(request, reply, { statusCode: 403, code: 'origin_not_allowed',
        message: admission.origin === undefined
          ? 'This is a browser key: it is served only to requests whose Origin (or Referer) is one of its allowed origins, and this request names none.'
          : `This browser key is not allowed from the origin ${admission.origin}. Add the origin to the key in the dashboard, or use another key.` });
      return;
    case 'missing':
      sendError(request, reply, { statusCode: 401, code: 'missing_api_key',
        message: 'This request needs an API key in the x-api-key header. Get one from the developer dashboard.' });
      return;
    case 'invalid':
      sendError(request, reply, { statusCode: 401, code: 'invalid_api_key', message: 'The API key in x-api-key is malformed, unknown or revoked.' });
      return;
    case 'quota_exceeded':
      setRateLimitHeaders(reply, admission.key, admission.limits);
      reply.header('retry-after', String(admission.retryAfter));
      sendError(request, reply, { statusCode: 429, code: 'quota_exceeded',
        message: `The monthly quota of ${admission.limits.monthly.quota} requests is used up; it resets on `
          + `${admission.limits.monthly.resetsAt.toISOString()}. Contact the operator for a higher plan.` });
      return;
    case 'rate_limited':
      setRateLimitHeaders(reply, admission.key, admission.limits);
      reply.header('retry-after', String(admission.retryAfter));
      sendError(request, reply, { statusCode: 429, code: 'rate_limited',
        message: `More than ${admission.limits.perSecond.quota} requests in one second; slow down and retry after the Retry-After seconds.` });
      return;
    case 'admitted':
      setRateLimitHeaders(reply, admission.key, admission.limits);
      request.apiKey = { key: admission.key, limits: admission.limits };
      // A browser key's response is for its origin only: CORS names that origin (not *), and caches must tell
      // origins apart.
      if (admission.key.allowedOrigins !== null) {
        const origin = requestOrigin(request.headers.origin, request.headers.referer);
        if (origin !== undefined) reply.header('access-control-allow-origin', origin);
      }
      done();
  }
}

/** `onRefused` hears every refusal's reason (for metrics). */
export function registerApiKeys(scope: FastifyInstance, access: AccessControl, onRefused: (reason: string) => void = () => undefined): void {
  scope.decorateRequest('apiKey', undefined);
  scope.addHook('onRequest', (request, reply, done) => {
    const header = request.headers[API_KEY_HEADER];
    let originOf: (() => string | undefined) | undefined;
    if (typeof header === 'string' && isBrowserKeyText(header)) {
      // Whatever the outcome, a browser key's response depends on the Origin.
      reply.header('vary', 'Origin');
      originOf = () => requestOrigin(request.headers.origin, request.headers.referer);
    }
    // The connection's memo of the last key it presented (see KeyMemo), made with its first keyed request.
    const socket = request.raw.socket as { [KEY_MEMO]?: Partial<KeyMemo> } | null;
    const memo = socket ? (socket[KEY_MEMO] ??= {}) : undefined;
    const admission = access.admit(header, originOf, memo);
    // A store that cannot answer (a key not cached yet) is the error handler's: 503 with Retry-After.
    if (admission instanceof Promise) admission.then((a) => apply(a, request, reply, done, onRefused), (error: Error) => done(error));
    else apply(admission, request, reply, done, onRefused);
  });
}
