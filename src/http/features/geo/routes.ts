/**
 * The geography feature, both shapes in one place:
 *   GET  /reverse?lat=&lng=&lang=   identifier-shaped reverse geocoding
 *   GET  /v1/reverse?lat=&lng=      code-shaped reverse geocoding
 *   POST /v1/reverse                up to 100 points, in order; each point counts against the monthly quota
 *   GET  /v1/boundaries/{code}      GeoJSON Feature of a province, district or commune (application/geo+json)
 * Every answer derived from the boundaries carries their attribution (CC BY 4.0): a field and the x-attribution header.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import { boundaryFeature } from '../../../geo/boundaries.js';
import type { Geography, ReverseAnswer } from '../../../geo/geography.js';
import type { AccessControl } from '../../../keys/access-control.js';
import { API_VERSION } from '../../../version.js';
import { CACHE_CONTROL, dataVersion, etagFor, matchesEtag } from '../../caching.js';
import { ApiError, gone, invalidRequest, notFound } from '../../errors.js';
import type { PayloadCache } from '../../payload-cache.js';
import { TAGS } from '../../plugins/openapi.js';
import type { Lang } from '../../presenters/identifier.js';
import { errorResponses, IdentifierError, NotModified, V1Error } from '../../schemas/common.js';
import { identifierReverseItem } from './present-identifier.js';
import { v1ReverseRecord } from './present-v1.js';
import {
  BoundaryFeature, BoundaryParams, BoundaryQuery, IdentifierReverseQuery, IdentifierReverseResponse, MAX_POINTS, ReverseBody,
  ReverseQuery, SIMPLIFY_TOLERANCE, V1BulkReverseResponse, V1ReverseResponse,
} from './schemas.js';

export interface GeoRouteOptions {
  gazetteer: Gazetteer;
  geo: Geography;
  /** The API-key gate, for counting each point of a bulk request (absent: open routes, nothing counted). */
  access?: AccessControl;
  /** Bodies of the answers that many points share (see answerKey), serialized once and kept. */
  payloads: PayloadCache;
}

/**
 * The cache key of an answer that every point strictly inside a commune, away from its edges, shares (most points):
 * the commune and what the answer says about it. Answers near an edge or outside every polygon carry distances that
 * differ from point to point: null, serialized per request (caching them would let arbitrary points fill the cache).
 */
function answerKey(answer: ReverseAnswer): string | null {
  if (!answer.hit) return `none|${answer.reason}`;
  const { code, reasons, distanceM, candidates, near } = answer.hit;
  return distanceM === 0 && near.length === 0 ? `${code}|${reasons.join(',')}|${candidates.join(',')}` : null;
}

/** The attribution as a header value: ASCII only (it is). */
const attributionHeader = (reply: FastifyReply, geo: Geography) => reply.header('x-attribution', geo.attribution);

/** Parses a coordinate the schema has already checked for form (short, decimal); the range is checked here. */
function coordinate(raw: string, name: 'lat' | 'lng'): number {
  const value = Number(raw);
  const limit = name === 'lat' ? 90 : 180;
  if (!Number.isFinite(value) || value < -limit || value > limit) {
    throw invalidRequest(`Invalid query parameter ${name}: must be from -${limit} to ${limit}.`,
      [{ in: 'query', parameter: name, message: `must be from -${limit} to ${limit}` }]);
  }
  return value;
}

export async function geoRoutes(app: FastifyInstance, { gazetteer, geo, access, payloads }: GeoRouteOptions): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();

  const v1Data = (answer: ReverseAnswer) =>
    answer.hit ? { data: [v1ReverseRecord(gazetteer, answer.hit)] } : { data: [], reason: answer.reason };
  const v1Answer = (lat: number, lng: number) => v1Data(geo.reverse(lat, lng));

  typed.get('/v1/reverse', {
    schema: {
      operationId: 'v1Reverse',
      tags: [TAGS.geo],
      summary: 'Which commune (and postal code) a point is in',
      description: 'The commune whose 2014 polygon holds the point, with its district, province and postal code. See `approximate_reasons` '
        + 'for splits after 2014, boundaries, Tonle Sap and the coast; a point farther than the documented distance from every commune '
        + 'answers `data: []` with a `reason`. Attribution required (CC BY 4.0).',
      querystring: ReverseQuery,
      response: { 200: V1ReverseResponse, 304: NotModified, ...errorResponses(V1Error) },
    },
  }, (request, reply) => {
    const lat = coordinate(request.query.lat, 'lat');
    const lng = coordinate(request.query.lng, 'lng');
    const answer = geo.reverse(lat, lng);
    const key = answerKey(answer);
    attributionHeader(reply, geo);
    payloads.sendWhole(reply, key === null ? null : `v1reverse|${key}`, () => ({ status: 'success' as const, ...v1Data(answer), attribution: geo.attribution }));
  });

  typed.post('/v1/reverse', {
    bodyLimit: 16_384,
    schema: {
      operationId: 'v1ReverseBulk',
      tags: [TAGS.geo],
      summary: `The commune of each of up to ${MAX_POINTS} points, in order`,
      description: 'Each point counts as one request against the monthly quota (all or none: a bulk that does not fit in what is left is '
        + 'refused with 429 quota_exceeded and counts as one request). Attribution required (CC BY 4.0).',
      body: ReverseBody,
      response: { 200: V1BulkReverseResponse, ...errorResponses(V1Error) },
    },
  }, (request, reply) => {
    const { points } = request.body;
    const key = (request as FastifyRequest).apiKey;
    if (access && key && !access.admitMore(key.key, points.length - 1)) {
      throw new ApiError(429, 'quota_exceeded', `This request has ${points.length} points, each counted as one request, and the monthly quota `
        + `has ${Math.max(0, key.limits.monthly.remaining)} left after it; send fewer points or contact the operator for a higher plan.`);
    }
    attributionHeader(reply, geo).header('cache-control', 'private, no-store');
    return {
      status: 'success' as const,
      data: points.map(({ lat, lng }) => ({ lat, lng, ...v1Answer(lat, lng) })),
      attribution: geo.attribution,
    };
  });

  typed.get('/reverse', {
    schema: {
      operationId: 'reverse',
      tags: [TAGS.geo],
      summary: 'Which commune (and postal code) a point is in (identifier-based shape)',
      description: 'As GET /v1/reverse, with UUIDs and names in `lang`. Attribution required (CC BY 4.0).',
      querystring: IdentifierReverseQuery,
      response: { 200: IdentifierReverseResponse, 304: NotModified, ...errorResponses(IdentifierError) },
    },
  }, (request, reply) => {
    const lat = coordinate(request.query.lat, 'lat');
    const lng = coordinate(request.query.lng, 'lng');
    const lang: Lang = request.query.lang ?? 'en';
    const answer = geo.reverse(lat, lng);
    const key = answerKey(answer);
    attributionHeader(reply, geo);
    payloads.sendIdentifier(reply, key === null ? null : `reverse|${lang}|${key}`, () => (answer.hit
      ? { items: [identifierReverseItem(gazetteer, answer.hit, lang)], attribution: geo.attribution }
      : { items: [], reason: answer.reason, attribution: geo.attribution }));
  });

  // Boundaries: bytes made once per unit and level, on first request, and kept (at most 1,868 units × 4 levels).
  const etag = etagFor(API_VERSION, dataVersion(gazetteer.version, geo.version));
  const bodies = new Map<string, Buffer>();
  typed.get('/v1/boundaries/:code', {
    schema: {
      operationId: 'v1Boundary',
      tags: [TAGS.geo],
      summary: 'The boundary of a province, district or commune as a GeoJSON Feature',
      description: 'A MultiPolygon in WGS84 [lng, lat], `application/geo+json`, from the 2014 boundaries keyed to current codes. A commune '
        + 'created after 2014 is drawn as the 2014 polygon(s) it came from, with `approximate: true`. Attribution required (CC BY 4.0).',
      params: BoundaryParams,
      querystring: BoundaryQuery,
      response: {
        200: { description: 'The Feature.', content: { 'application/geo+json': { schema: BoundaryFeature } } },
        304: NotModified,
        ...errorResponses(V1Error),
      },
    },
  }, (request, reply) => {
    const { code } = request.params;
    const level = request.query.simplify ?? 0;
    const cacheKey = `${code}|${level}`;
    let body = bodies.get(cacheKey);
    if (!body) {
      const feature = boundaryFeature(geo, gazetteer, code, level, SIMPLIFY_TOLERANCE[level]!);
      if (!feature) {
        const unit = gazetteer.byCode(code);
        // A retired code: 410 with the units that replaced it (as on every code-based path).
        if (!unit && gazetteer.isRetired(code)) throw gone(gazetteer, code, `The unit with code ${code}`);
        throw notFound(unit ? `No boundary for ${unit.level} ${code}.` : `No province, district or commune has code ${code}.`);
      }
      body = Buffer.from(JSON.stringify(feature));
      bodies.set(cacheKey, body);
    }
    attributionHeader(reply, geo).header('etag', etag).header('cache-control', CACHE_CONTROL);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) {
      reply.code(304).send(null);
      return;
    }
    // Bytes, not an object: the typed reply expects the schema's shape, hence the cast.
    reply.type('application/geo+json').send(body as never);
  });
}
