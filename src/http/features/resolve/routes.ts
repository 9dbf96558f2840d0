/**
 * Address resolution in both shapes, from one feature:
 *   GET  /v1/resolve?q=             code-based candidates
 *   POST /v1/resolve                a JSON array of up to 100 addresses, results in order (reads, never writes)
 *   GET  /resolve?q=&lang=          identifier-based candidates (UUIDs, slugs, hrefs, names in lang)
 *   GET  /v1/validate?province=&district=&commune=&village=&postal_code=
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { AddressInputError, type AddressResolver, checkAddressInput, MAX_CANDIDATES } from '../../../address/resolve.js';
import { validateAddress } from '../../../address/validate.js';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import type { AccessControl } from '../../../keys/access-control.js';
import { ApiError, invalidRequest, sendError, toApiError } from '../../errors.js';
import type { PayloadCache } from '../../payload-cache.js';
import { setRateLimitHeaders } from '../../plugins/api-keys.js';
import { TAGS } from '../../plugins/openapi.js';
import { errorResponses, IdentifierError, NotModified, V1Error } from '../../schemas/common.js';
import { Envelope } from '../../schemas/identifier.js';
import { identifierCandidate, v1Candidate } from './presenters.js';
import {
  MAX_BATCH, ResolveData, ResolveQuery, V1BatchItem, V1BatchQuery, V1BatchResponse, V1ResolveBody, V1ResolveQuery, V1ResolveResponse, V1ValidateQuery,
  V1ValidateResponse,
} from './schemas.js';

/**
 * Addresses of a batch resolved between two turns of the event loop. One: a real address takes well under a
 * millisecond, and the resolver bounds a hostile one of 500 characters dense with names to a few times that (about
 * 1 ms of CPU, once 10-50 ms on a busy 2-core machine), but a slice of several could still hold the loop for a
 * noticeable time (a yield costs microseconds).
 */
const BATCH_SLICE = 1;

/** The batch body's bytes around its items (see the POST handler). */
const BATCH_HEAD = Buffer.from('{"status":"success","data":[');
const COMMA = Buffer.from(',');
const BATCH_TAIL = Buffer.from(']}');

export interface ResolveRouteOptions {
  gazetteer: Gazetteer;
  resolver: AddressResolver;
  payloads: PayloadCache;
  /** The API-key gate, to charge a batch's extra addresses to the key's quota. */
  access?: AccessControl;
}

/** Resolves, turning input that is not an address into a 400 naming the parameter. */
function resolveOr400(resolver: AddressResolver, q: string, where: 'query' | 'body', parameter: string, limit: number) {
  try {
    return resolver.resolve(q, { limit });
  } catch (error) {
    if (error instanceof AddressInputError) {
      throw invalidRequest(`Invalid ${where === 'query' ? 'query parameter' : 'body'} ${parameter}: ${error.message}.`, [{ in: where, parameter, message: error.message }]);
    }
    throw error;
  }
}

/** The cheap checks of q (length, blank, no letter or digit), as a 400. */
function checkOr400(q: string): void {
  try {
    checkAddressInput(q);
  } catch (error) {
    if (error instanceof AddressInputError) throw invalidRequest(`Invalid query parameter q: ${error.message}.`, [{ in: 'query', parameter: 'q', message: error.message }]);
    throw error;
  }
}

const RESOLVE_DESCRIPTION = 'Reads an address as people write it (Khmer or Latin script or both, any order, unit words and abbreviations '
  + 'such as ភូមិ ឃុំ សង្កាត់ ស្រុក ខណ្ឌ ក្រុង ខេត្ត, Phum, Khum, Sangkat, Sk., Srok, Khan, Krong, Province; house numbers, streets, '
  + 'groups, boreys, postal codes) and answers the units it names, best first, each with its chain, postal code, confidence, the '
  + 'parts recognised, what matched how, what nothing explained, warnings and the canonical address in both scripts. Nothing '
  + 'recognised: an empty list, not an error. Blank input, input without a letter or digit, or longer than 500 characters: 400.';

export async function resolveRoutes(app: FastifyInstance, { gazetteer, resolver, payloads, access }: ResolveRouteOptions): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  typed.get('/v1/resolve', {
    schema: {
      operationId: 'v1Resolve',
      tags: [TAGS.search],
      summary: 'Resolve an address to units (code-based)',
      description: RESOLVE_DESCRIPTION,
      querystring: V1ResolveQuery,
      response: { 200: { ...V1ResolveResponse, description: 'Candidates, best first.' }, 304: NotModified, ...errorResponses(V1Error) },
    },
  }, (request, reply) => {
    const { q, limit = MAX_CANDIDATES } = request.query;
    // Checked before the cache (a bad q is a 400 even with a matching ETag); resolved only when not cached.
    checkOr400(q);
    payloads.sendWhole(reply, `v1resolve|${limit}|${q}`,
      () => ({ status: 'success' as const, data: resolveOr400(resolver, q, 'query', 'q', limit).candidates.map(v1Candidate) }), 'repeated');
  });

  typed.get('/resolve', {
    schema: {
      operationId: 'resolve',
      tags: [TAGS.search],
      summary: 'Resolve an address to units (identifier-based)',
      description: `${RESOLVE_DESCRIPTION} Names, messages and formatted_address are in \`lang\`.`,
      querystring: ResolveQuery,
      response: { 200: Envelope(ResolveData, 'Candidates, best first.'), 304: NotModified, ...errorResponses(IdentifierError) },
    },
  }, (request, reply) => {
    const { q, lang = 'en', limit = MAX_CANDIDATES } = request.query;
    checkOr400(q);
    const byCode = (code: string) => gazetteer.byCode(code);
    payloads.sendIdentifier(reply, `resolve|${lang}|${limit}|${q}`, () => {
      const items = resolveOr400(resolver, q, 'query', 'q', limit).candidates.map((c) => identifierCandidate(c, lang, byCode));
      return { items, total: items.length };
    }, 'repeated');
  });

  typed.post('/v1/resolve', {
    // 100 addresses of 500 characters, up to 4 bytes each in UTF-8, with quotes and commas.
    bodyLimit: MAX_BATCH * 500 * 4 + 1024,
    schema: {
      operationId: 'v1ResolveBatch',
      tags: [TAGS.search],
      summary: `Resolve up to ${MAX_BATCH} addresses at once (code-based); reads only, never writes`,
      description: `The body is a JSON array of 1 to ${MAX_BATCH} addresses (Content-Type: application/json). The one non-GET route of the `
        + 'API: it reads, never writes (POST only because a batch does not fit in a URL). Each address counts as one request '
        + 'against the monthly quota (the quota headers show the total); if the quota cannot cover the whole batch, nothing is '
        + 'resolved or counted and the answer is 429 quota_exceeded. The per-second limit counts the call once. Each result is '
        + 'what GET /v1/resolve answers for that address; an address that is blank or has no letter or digit gets '
        + '`{ status: "error" }` in its place, the others are still resolved.',
      querystring: V1BatchQuery,
      body: V1ResolveBody,
      response: { 200: { ...V1BatchResponse, description: 'One result per address, in order.' }, ...errorResponses(V1Error),
        415: { ...V1Error, description: 'Not sent as application/json.' } },
    },
    // Only JSON: another type's body would be coerced into an array of one string.
    preValidation: (request, _reply, done) => {
      const type = String(request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
      if (type !== 'application/json') return done(new ApiError(415, 'unsupported_media_type', 'not JSON'));
      // Strings only, checked before the schema's type coercion would turn [["x"]] or [1] into strings.
      const body = request.body;
      if (Array.isArray(body) && !body.every((item) => typeof item === 'string')) {
        return done(invalidRequest('Invalid body: every address must be a string.', [{ in: 'body', parameter: 'body', message: 'must be an array of strings' }]));
      }
      done();
    },
    errorHandler: (error, request, reply) => {
      const apiError = toApiError(error);
      // A wrong Content-Type or an unreadable body is the client's mistake: 400, as for any malformed input.
      if (apiError.statusCode === 415 || (error as { code?: string }).code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        || (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
        return sendError(request, reply, invalidRequest(`Invalid body: send a JSON array of 1 to ${MAX_BATCH} addresses with Content-Type: application/json.`,
          [{ in: 'header', parameter: 'content-type', message: 'must be application/json' }]));
      }
      if (apiError.statusCode === 413) {
        return sendError(request, reply, invalidRequest(`Invalid body: at most ${MAX_BATCH} addresses of at most 500 characters.`,
          [{ in: 'body', parameter: 'body', message: 'is too large' }]));
      }
      if (apiError.statusCode === 500) request.log.error({ err: error }, 'request failed');
      return sendError(request, reply, apiError);
    },
  }, async (request, reply) => {
    const addresses = request.body;
    const { limit = MAX_CANDIDATES } = request.query;
    if (access && request.apiKey && addresses.length > 1) {
      const charged = access.chargeMore(request.apiKey.key, addresses.length - 1);
      const limits = { ...charged.limits, perSecond: request.apiKey.limits.perSecond };
      setRateLimitHeaders(reply, request.apiKey.key, limits);
      if (!charged.ok) {
        reply.header('retry-after', String(charged.retryAfter));
        throw new ApiError(429, 'quota_exceeded', `This batch of ${addresses.length} addresses needs ${addresses.length} requests of the `
          + `monthly quota; ${charged.limits.monthly.remaining + 1} remain (this call included). Send a smaller batch or contact the operator.`);
      }
      request.apiKey = { key: request.apiKey.key, limits };
    }
    const one = (q: string): Static<typeof V1BatchItem> => {
      try {
        return { status: 'success' as const, data: resolver.resolve(q, { limit }).candidates.map(v1Candidate) };
      } catch (error) {
        if (error instanceof AddressInputError) return { status: 'error' as const, error: { code: 'invalid_request' as const, message: `This address ${error.message}.` } };
        throw error;
      }
    };
    // Each address's result is serialized as soon as it is resolved (by the route's serializer compiler, from the
    // schema of one item of V1BatchResponse: the same code writes the same bytes) and kept only as UTF-8 bytes. Kept
    // as objects until the end, 100 addresses' candidates lived across the batch's yields, survived the young
    // generation's collections and were promoted: the batch scenario alone raised the server's RSS by about 58 MB.
    // The body is `{"status":"success","data":[item,item,...]}`, byte for byte what serializing the whole object
    // wrote (a test compares them).
    const serializeItem = reply.compileSerializationSchema(V1BatchItem as unknown as Record<string, unknown>) as (item: Static<typeof V1BatchItem>) => string;
    const parts: Buffer[] = [BATCH_HEAD];
    // The quota was charged above, synchronously; the addresses are resolved a few at a time, letting other requests
    // run between (a batch must not hold the event loop for the time of 100 addresses).
    for (let i = 0; i < addresses.length; i += BATCH_SLICE) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      for (const [j, q] of addresses.slice(i, i + BATCH_SLICE).entries()) {
        if (i + j > 0) parts.push(COMMA);
        parts.push(Buffer.from(serializeItem(one(q))));
      }
    }
    parts.push(BATCH_TAIL);
    reply.type('application/json; charset=utf-8');
    return Buffer.concat(parts) as never;
  });

  typed.get('/v1/validate', {
    schema: {
      operationId: 'v1Validate',
      tags: [TAGS.search],
      summary: 'Validate an address a form already structured (code-based)',
      description: 'Each of province, district, commune and village may be an NCDD code or a name (Khmer or Latin, any romanization); '
        + 'any subset may be given, with an optional postal code. Answers whether they form one chain, each problem with a stable '
        + 'code and a message in English and Khmer, and the corrected chain.',
      querystring: V1ValidateQuery,
      response: { 200: { ...V1ValidateResponse, description: 'The verdict, problems and corrected chain.' }, 304: NotModified, ...errorResponses(V1Error) },
    },
  }, (request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply: FastifyReply) => {
    const query = request.query;
    const key = `v1validate|${['province', 'district', 'commune', 'village', 'postal_code'].map((f) => query[f] ?? '').join('|')}`;
    payloads.sendWhole(reply, key, () => ({ status: 'success' as const, data: validateAddress(gazetteer, resolver.search, query) }), 'repeated');
  });
}
