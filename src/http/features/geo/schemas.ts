/**
 * Schemas of the geography feature, both shapes: reverse geocoding (GET /reverse, GET and POST /v1/reverse) and
 * boundaries (GET /v1/boundaries/{code}). They validate, serialise and document (OpenAPI), as everywhere else.
 */
import { Type } from '../../schemas/type.js';
import { GEO_ATTRIBUTION } from '../../../geo/format.js';
import { Lang, Metadata, NcddCode, PostalCode, Uuid } from '../../schemas/common.js';

/** A decimal number: no exponent, no hex, at most 32 characters (checked before any parsing). */
const DECIMAL = '^[+-]?[0-9]{1,3}(\\.[0-9]{1,20})?$';

export const MAX_POINTS = 100;

const coordinate = (name: 'lat' | 'lng', range: number, example: string) => Type.String({
  maxLength: 32,
  pattern: DECIMAL,
  description: `${name === 'lat' ? 'Latitude' : 'Longitude'} in decimal degrees (WGS84), from -${range} to ${range}; no exponent.`,
  examples: [example],
});

export const ReverseQuery = Type.Object({
  lat: coordinate('lat', 90, '11.5564'),
  lng: coordinate('lng', 180, '104.9282'),
}, { additionalProperties: false });

export const IdentifierReverseQuery = Type.Object({
  lat: coordinate('lat', 90, '11.5564'),
  lng: coordinate('lng', 180, '104.9282'),
  lang: Type.Optional(Lang),
}, { additionalProperties: false });

export const ReverseBody = Type.Object({
  points: Type.Array(Type.Object({
    lat: Type.Number({ minimum: -90, maximum: 90, description: 'Latitude, decimal degrees.' }),
    lng: Type.Number({ minimum: -180, maximum: 180, description: 'Longitude, decimal degrees.' }),
  }, { additionalProperties: false }), { minItems: 1, maxItems: MAX_POINTS, description: `1 to ${MAX_POINTS} points; each counts as one request against the monthly quota.` }),
}, { additionalProperties: false, examples: [{ points: [{ lat: 11.5564, lng: 104.9282 }, { lat: 13.3633, lng: 103.8564 }] }] });

export const Attribution = Type.String({
  description: 'The licence (CC BY 4.0) requires this attribution wherever boundaries or answers derived from them are shown. '
    + 'Also in the x-attribution header.',
  examples: [GEO_ATTRIBUTION],
});

export const APPROXIMATE_REASONS = ['split_after_2014', 'near_boundary', 'on_boundary', 'outside_polygons'] as const;
const Reasons = Type.Array(Type.Enum(APPROXIMATE_REASONS), {
  description: 'Why the answer is approximate (empty when exact): `split_after_2014` the 2014 polygon now holds several communes (see '
    + '`candidates`); `near_boundary` within the polygons\' precision of another commune (see `near`); `on_boundary` exactly on a '
    + 'shared edge or vertex (see `near`); `outside_polygons` in no polygon (Tonle Sap, a gap, just off the coast or border): the '
    + 'nearest commune, `distance_m` away.',
});
const DistanceM = Type.Integer({ minimum: 0, description: 'Metres from the point to the commune\'s polygon: 0 inside it.' });
export const EMPTY_REASONS = ['outside_cambodia'] as const;
const EmptyReason = Type.Optional(Type.Enum(EMPTY_REASONS, {
  description: 'Only when `data` is empty: the point is in no commune and farther than the documented distance from every one.',
}));

// ---- code-based (/v1) ----
const V1Ref = (what: string, digits: number) => Type.Object({
  code: NcddCode(digits, what),
  name_en: Type.String({ description: 'Latin-script name.' }),
  name_km: Type.String({ description: 'Khmer name.' }),
}, { additionalProperties: false });

export const V1ReverseRecord = Type.Object({
  level: Type.Literal('commune'),
  code: NcddCode(6, 'commune'),
  name_en: Type.String(),
  name_km: Type.String(),
  postal_code: PostalCode,
  province: V1Ref('province', 2),
  district: V1Ref('district', 4),
  commune: V1Ref('commune', 6),
  approximate: Type.Boolean({ description: 'True when `approximate_reasons` is not empty.' }),
  approximate_reasons: Reasons,
  distance_m: DistanceM,
  candidates: Type.Array(V1Ref('commune', 6), { description: 'When split after 2014: every commune the point may be in, this one first.' }),
  near: Type.Array(Type.Object({ ...V1Ref('commune', 6).properties, distance_m: DistanceM }, { additionalProperties: false }),
    { description: 'Other communes within the polygons\' precision of the point, nearest first.' }),
}, { additionalProperties: false });

export const V1ReverseResponse = Type.Object({
  status: Type.Literal('success'),
  data: Type.Array(V1ReverseRecord, { description: 'The commune the point is in (one record), or none.' }),
  reason: EmptyReason,
  attribution: Attribution,
}, { additionalProperties: false, description: 'The commune the point is in.' });

export const V1BulkReverseResponse = Type.Object({
  status: Type.Literal('success'),
  data: Type.Array(Type.Object({
    lat: Type.Number(),
    lng: Type.Number(),
    data: Type.Array(V1ReverseRecord),
    reason: EmptyReason,
  }, { additionalProperties: false }), { description: 'One result per point, in the order sent.' }),
  attribution: Attribution,
}, { additionalProperties: false, description: 'The commune of each point, in order.' });

// ---- identifier-based ----
const IdRef = Type.Object({ id: Uuid, name: Type.String({ description: 'Name in `lang`.' }), code: Type.String() }, { additionalProperties: false });

export const IdentifierReverseItem = Type.Object({
  id: Uuid,
  name: Type.String({ description: 'Name in `lang`.' }),
  code: NcddCode(6, 'commune'),
  level: Type.Literal('commune'),
  postal_code: PostalCode,
  province: IdRef,
  district: IdRef,
  commune: IdRef,
  approximate: Type.Boolean({ description: 'True when `approximate_reasons` is not empty.' }),
  approximate_reasons: Reasons,
  distance_m: DistanceM,
  candidates: Type.Array(IdRef, { description: 'When split after 2014: every commune the point may be in, this one first.' }),
  near: Type.Array(Type.Object({ ...IdRef.properties, distance_m: DistanceM }, { additionalProperties: false }),
    { description: 'Other communes within the polygons\' precision of the point, nearest first.' }),
}, { additionalProperties: false });

export const IdentifierReverseResponse = Type.Object({
  statusCode: Type.Literal(200),
  data: Type.Object({
    items: Type.Array(IdentifierReverseItem, { description: 'The commune the point is in (one item), or none.' }),
    reason: EmptyReason,
    attribution: Attribution,
  }, { additionalProperties: false }),
  metadata: Metadata,
}, { additionalProperties: false, description: 'The commune the point is in.' });

// ---- locations on hierarchy records ----
export const UnitLocationSchema = Type.Union([Type.Object({
  lat: Type.Number({ description: 'Latitude of a point inside the unit.' }),
  lng: Type.Number({ description: 'Longitude of a point inside the unit.' }),
  bbox: Type.Union([Type.Object({
    min_lat: Type.Number(), min_lng: Type.Number(), max_lat: Type.Number(), max_lng: Type.Number(),
  }, { additionalProperties: false }), Type.Null()], { description: 'Bounding box.' }),
  source: Type.Enum(['boundaries', 'pumi'], { description: '`boundaries`: a point inside the 2014 polygon (pole of inaccessibility) and its box; '
    + '`pumi`: the dataset\'s centroid and box, for a commune created after 2014.' }),
}, { additionalProperties: false }), Type.Null()], {
  description: 'Extension: where the unit is (a point inside it, not the centre of its box), or null if unknown. Boundaries CC BY 4.0: '
    + 'Open Development Cambodia / Open Development Mekong (2014), via geoBoundaries.',
});
/** The optional `location` field of province, district and commune records. */
export const LocationField = { location: Type.Optional(UnitLocationSchema) };

// ---- boundaries ----
export const BoundaryParams = Type.Object({
  code: Type.String({ pattern: '^([0-9]{2}){1,3}$', description: 'NCDD code of a province (2 digits), district (4) or commune (6).', examples: ['1201'] }),
}, { additionalProperties: false });

export const SIMPLIFY_TOLERANCE = [0, 0.0005, 0.002, 0.01] as const;
export const BoundaryQuery = Type.Object({
  simplify: Type.Optional(Type.Integer({ minimum: 0, maximum: 3, default: 0,
    description: 'Simplification for web maps, one of the digits 0-3: 0 as stored (1e-6 degree grid), 1 about 50 m, 2 about 200 m, 3 about 1 km (Douglas-Peucker).' })),
}, { additionalProperties: false });

export const BoundaryFeature = Type.Object({
  type: Type.Literal('Feature'),
  id: Type.String(),
  properties: Type.Object({
    code: Type.String(),
    level: Type.Enum(['province', 'district', 'commune']),
    name_en: Type.String(),
    name_km: Type.String(),
    parent_code: Type.Union([Type.String(), Type.Null()]),
    point_on_surface: Type.Array(Type.Number(), { description: '[lng, lat] of a point inside the unit.' }),
    bbox: Type.Array(Type.Number(), { description: '[min lng, min lat, max lng, max lat].' }),
    approximate: Type.Boolean({ description: 'True for a commune created after 2014: the geometry is that of the 2014 commune(s) it came from.' }),
    split_from: Type.Array(Type.String(), { description: 'For an approximate commune: the codes whose 2014 polygons are drawn.' }),
    split_into: Type.Array(Type.String(), { description: 'Communes created after 2014 inside this polygon.' }),
    simplify: Type.Integer(),
    attribution: Attribution,
  }),
  geometry: Type.Object({ type: Type.Literal('MultiPolygon'), coordinates: Type.Array(Type.Array(Type.Array(Type.Array(Type.Number())))) }),
}, { description: 'A GeoJSON Feature (RFC 7946), served as application/geo+json.' });
