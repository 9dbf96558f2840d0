/**
 * The API-key gate in front of every data route: 401 without a valid key, 429 over the quota or the per-second
 * limit, and the IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) on every keyed response.
 * Register it inside the data routes' scope only: /health, /openapi.json and /docs stay open.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AccessControl, LimitState } from '../../keys/access-control.js';
import type { KeyWithPlan } from '../../keys/store.js';
import { ApiError, sendError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The admitted key and its limits after this request (set by the API-key gate). */
    apiKey?: { key: KeyWithPlan; limits: LimitState };
  }
}

export const API_KEY_HEADER = 'x-api-key';

/** `RateLimit-Policy` and `RateLimit`, both policies: the monthly quota and the per-second limit. */
function setRateLimitHeaders(reply: FastifyReply, limits: LimitState): void {
  const { monthly, perSecond } = limits;
  reply.header('ratelimit-policy', `"monthly";q=${monthly.quota};w=${monthly.windowSeconds}, "per-second";q=${perSecond.quota};w=1`);
  reply.header('ratelimit', `"monthly";r=${monthly.remaining};t=${monthly.resetSeconds}, "per-second";r=${perSecond.remaining};t=${perSecond.resetSeconds}`);
}

export function registerApiKeys(scope: FastifyInstance, access: AccessControl): void {
  scope.decorateRequest('apiKey', undefined);
  scope.addHook('onRequest', async (request, reply) => {
    const admission = await access.admit(request.headers[API_KEY_HEADER]);
    switch (admission.outcome) {
      case 'missing':
        return sendError(request, reply, new ApiError(401, 'missing_api_key',
          'This request needs an API key in the x-api-key header. Get one from the developer dashboard.'));
      case 'invalid':
        return sendError(request, reply, new ApiError(401, 'invalid_api_key', 'The API key in x-api-key is malformed, unknown or revoked.'));
      case 'quota_exceeded':
        setRateLimitHeaders(reply, admission.limits);
        reply.header('retry-after', String(admission.retryAfter));
        return sendError(request, reply, new ApiError(429, 'quota_exceeded',
          `The monthly quota of ${admission.limits.monthly.quota} requests is used up; it resets on `
          + `${admission.limits.monthly.resetsAt.toISOString()}. Contact the operator for a higher plan.`));
      case 'rate_limited':
        setRateLimitHeaders(reply, admission.limits);
        reply.header('retry-after', String(admission.retryAfter));
        return sendError(request, reply, new ApiError(429, 'rate_limited',
          `More than ${admission.limits.perSecond.quota} requests in one second; slow down and retry after the Retry-After seconds.`));
      case 'admitted':
        setRateLimitHeaders(reply, admission.limits);
        request.apiKey = { key: admission.key, limits: admission.limits };
    }
  });
}
