/**
 * What the OpenAPI document says about responses beyond their schemas, added to the generated document (the
 * `transformObject` step of @fastify/swagger, see plugins/openapi.ts): for each operation,
 * - an example per error status, in the envelope of the operation's shape, written for that route (a 404 of
 *   /districts/{id} names a district; a 400 names one of the route's own parameters);
 * - the 405 every path answers to a method other than GET, HEAD and OPTIONS, with its Allow header;
 * - the response headers: x-correlation-id and x-dataset-version on every response; RateLimit and RateLimit-Policy
 *   on every response to an admitted key and on 429; Retry-After on 429 and 503; ETag and Cache-Control on cached
 *   data (the operations that answer 304).
 */
import { isV1 } from './errors.js';
import { ERROR_CODES, type ErrorCode } from './schemas/common.js';

interface Parameter { name: string; in: string; required?: boolean; schema?: { pattern?: string; format?: string } }
interface Media { schema?: Record<string, unknown>; example?: unknown; examples?: Record<string, { summary?: string; value: unknown }> }
interface Response { description: string; headers?: Record<string, unknown>; content?: Record<string, Media> }
interface Operation { parameters?: Parameter[]; security?: unknown[]; responses?: Record<string, Response> }
interface Document { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> }

const CORRELATION_ID = 'f1b8a0a4-8d5e-4a4f-9d0f-2b8f0c6f3d11';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const HEADERS = {
  'x-correlation-id': { description: 'Identifies this request (yours, from x-correlation-id or x-request-id, if 1-128 characters of `A-Za-z0-9._~:/+=-`; else a new UUID). Quote it when reporting a problem.', schema: { type: 'string' } },
  'x-dataset-version': { description: 'Version of the gazetteer dataset that answered.', schema: { type: 'string' } },
  RateLimit: { description: 'What is left of each limit of your key (IETF RateLimit header fields): `"monthly";r=<remaining>;t=<seconds to reset>, "per-second";r=<remaining>;t=<seconds>`.', schema: { type: 'string' }, example: '"monthly";r=987;t=604800, "per-second";r=4;t=1' },
  'RateLimit-Policy': { description: 'The limits of your key\'s plan: `"monthly";q=<quota>;w=<window seconds>, "per-second";q=<limit>;w=1`.', schema: { type: 'string' }, example: '"monthly";q=1000;w=2592000, "per-second";q=5;w=1' },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 }, example: 1 },
  ETag: { description: 'Weak validator of the body; it changes only with the API or dataset version. Send it in If-None-Match to get 304.', schema: { type: 'string' } },
  'Cache-Control': { description: '`private, max-age=3600`.', schema: { type: 'string' }, example: 'private, max-age=3600' },
  Allow: { description: 'The methods the path accepts.', schema: { type: 'string' }, example: 'GET, HEAD' },
} as const;
type HeaderName = keyof typeof HEADERS;

const STATUS_CODE: Record<string, ErrorCode> = {
  400: 'invalid_request', 401: 'missing_api_key', 404: 'not_found', 405: 'method_not_allowed', 429: 'rate_limited', 500: 'internal_error',
  503: 'service_unavailable',
};

/** The error body in the envelope of the path's shape. */
function envelope(path: string, status: number, code: ErrorCode, message: string, details?: { in: string; parameter: string; message: string }[]) {
  const error = { code, message, ...(details ? { details } : {}) };
  return isV1(path) ? { status: 'error', error } : { statusCode: status, error, metadata: { correlationId: CORRELATION_ID } };
}

const WHERE: Record<string, string> = { path: 'path parameter', query: 'query parameter' };

/** A 400 about one of the operation's own parameters: the first path parameter, else `q`, else an unknown one. */
function badRequest(parameters: Parameter[]): { in: string; parameter: string; message: string } {
  const path = parameters.find((p) => p.in === 'path');
  if (path) {
    const digits = /^\^\[0-9\]\{(\d+)\}\$$/.exec(path.schema?.pattern ?? '');
    const message = path.schema?.format === 'uuid' ? 'must be a UUID'
      : digits ? `must be ${digits[1]} digits`
        : path.name === 'postcode' ? 'must be 6 digits'
          : path.name === 'path' ? 'must be 1 to 4 lowercase slugs separated by /' : 'is invalid';
    return { in: 'path', parameter: path.name === 'path' ? '*' : path.name, message };
  }
  if (parameters.some((p) => p.name === 'q')) return { in: 'query', parameter: 'q', message: 'must not be blank' };
  return { in: 'query', parameter: 'x', message: 'unknown query parameter' };
}

/** The 404 of a route: what it looked for and did not find. */
function notFoundMessage(path: string): string {
  const level = /^\/(?:v1\/)?(province|district|commune|village)s\//.exec(path)?.[1];
  if (path.startsWith('/v1/') && level) {
    const [, param] = /\{(\w+)_code\}/.exec(path) ?? [];
    const length = { province: 2, district: 4, commune: 6, village: 8 }[param ?? 'province'] ?? 2;
    return `No ${param ?? level} has code ${'9'.repeat(length)}.`;
  }
  if (level && path.includes('{id}')) return `No ${level} has id ${UNKNOWN_ID}.`;
  if (path.startsWith('/lookup/')) return 'No province, district or commune has postal code 999999.';
  if (path.startsWith('/locations/')) return 'Nothing at /locations/phnom-penh/nowhere.';
  return `No route GET ${path.replace(/\{\w+\}/g, 'x')}/x. See /docs for the API.`;
}

/** The example(s) of one error status on one path: [name, value] pairs. */
function errorExamples(path: string, status: number, parameters: Parameter[]): [string, unknown][] {
  switch (status) {
    case 400: {
      const detail = badRequest(parameters);
      return [['invalid_request', envelope(path, 400, 'invalid_request', `Invalid ${WHERE[detail.in]} ${detail.parameter}: ${detail.message}.`, [detail])]];
    }
    case 401:
      return [
        ['missing_api_key', envelope(path, 401, 'missing_api_key', 'This request needs an API key in the x-api-key header. Get one from the developer dashboard.')],
        ['invalid_api_key', envelope(path, 401, 'invalid_api_key', 'The API key in x-api-key is malformed, unknown or revoked.')],
      ];
    case 404:
      return [['not_found', envelope(path, 404, 'not_found', notFoundMessage(path))]];
    case 405:
      return [['method_not_allowed', envelope(path, 405, 'method_not_allowed',
        `PUT is not allowed on ${path.replace(/\{\w+\}/g, 'x')}: the API is read-only, use GET.`)]];
    case 429:
      return [
        ['rate_limited', envelope(path, 429, 'rate_limited', 'More than 5 requests in one second; slow down and retry after the Retry-After seconds.')],
        ['quota_exceeded', envelope(path, 429, 'quota_exceeded',
          'The monthly quota of 1000 requests is used up; it resets on 2026-12-01T00:00:00.000Z. Contact the operator for a higher plan.')],
      ];
    case 500:
      return [['internal_error', envelope(path, 500, 'internal_error', 'The server failed to answer this request. Quote the correlation id when reporting it.')]];
    case 503:
      return [['service_unavailable', envelope(path, 503, 'service_unavailable', path === '/ready'
        ? 'The key store is unavailable for a moment; retry shortly.'
        : 'The key store is unavailable for a moment, or the server is overloaded; retry after Retry-After seconds.')]];
    default:
      return [];
  }
}

/**
 * For a status without an example above (added by a feature, e.g. 410 gone): one per code its description names
 * (`code: what it means; other_code: ...`), the message taken from the description.
 */
function describedExamples(path: string, status: number, description: string): [string, unknown][] {
  return description.split(/;\s*(?=[a-z_]+:)/).flatMap((part): [string, unknown][] => {
    const [, code, text] = /^([a-z_]+):\s*(.*)$/s.exec(part) ?? [];
    if (!code || !text || !(ERROR_CODES as readonly string[]).includes(code)) return [];
    const message = `${text.charAt(0).toUpperCase()}${text.slice(1)}`.replace(/\.?$/, '.');
    return [[code, envelope(path, status, code as ErrorCode, message)]];
  });
}

/** References to the headers, defined once in components.headers (a generated client gets one type for each). */
function headers(names: HeaderName[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** Adds the examples, the 405 and the headers to every operation of the document (in place; returns it). */
export function describeResponses<T>(document: T): T {
  const doc = document as Document;
  doc.components = { ...doc.components, headers: { ...(doc.components?.headers as object | undefined), ...HEADERS } };
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const responses = operation.responses;
      if (!responses) continue;
      const keyed = operation.security === undefined || operation.security.length > 0;
      const cached = '304' in responses;
      const errorSchema = Object.entries(responses).find(([status]) => Number(status) >= 400)?.[1].content?.['application/json']?.schema;
      if (method === 'get' && errorSchema && !('405' in responses)) {
        responses['405'] = {
          description: 'method_not_allowed: a method the path does not serve (the API is read-only: GET, HEAD and OPTIONS, and POST where documented).',
          content: { 'application/json': { schema: { ...errorSchema, description: undefined } } },
        };
      }
      for (const [statusText, response] of Object.entries(responses)) {
        const status = Number(statusText);
        const names: HeaderName[] = ['x-correlation-id', 'x-dataset-version'];
        // An admitted key's responses carry its limits; a refusal before admission (401, 503) does not.
        if (keyed && ![401, 405, 500, 503].includes(status)) names.push('RateLimit', 'RateLimit-Policy');
        if (status === 429 || status === 503) names.push('Retry-After');
        if (cached && (status === 200 || status === 304)) names.push('ETag', 'Cache-Control');
        if (status === 405) names.push('Allow');
        response.headers = { ...headers(names), ...response.headers };
        const media = response.content?.['application/json'];
        if (status < 400 || !media) continue;
        const own = STATUS_CODE[status] ? errorExamples(path, status, operation.parameters ?? []) : [];
        const examples = own.length > 0 ? own : describedExamples(path, status, response.description);
        if (examples.length === 0) continue;
        if (media.schema) delete media.schema.examples;
        delete media.example;
        delete media.examples;
        if (examples.length === 1) media.example = examples[0]![1];
        else media.examples = Object.fromEntries(examples.map(([name, value]) => [name, { summary: name, value }]));
      }
    }
  }
  return document;
}
