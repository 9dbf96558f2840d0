/**
 * Schemas shared by both response shapes: the error envelopes, the `lang` parameter, identifiers and codes.
 * These TypeBox schemas validate requests, serialise responses (fast-json-stringify) and generate the OpenAPI
 * document: one source of truth.
 */
import type { TSchema } from 'typebox';
import { Type } from './type.js';
import { unitId } from '../../gazetteer/uuid.js';

/** Stable, machine-readable error codes. Clients branch on these, never on messages. */
export const ERROR_CODES = ['invalid_request', 'missing_api_key', 'invalid_api_key', 'forbidden', 'not_found', 'method_not_allowed',
  'not_acceptable', 'payload_too_large', 'unsupported_media_type', 'quota_exceeded', 'rate_limited', 'request_header_too_large',
  'internal_error', 'service_unavailable', 'gone', 'origin_not_allowed'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorDetail = Type.Object({
  in: Type.Enum(['path', 'query', 'header', 'body'], { description: 'Where the offending parameter is.' }),
  parameter: Type.String({ description: 'The parameter\'s name.' }),
  message: Type.String({ description: 'What is wrong with it.' }),
}, { additionalProperties: false });

/** A unit that replaced a retired code (in a 410 Gone body). */
export const Successor = Type.Object({
  code: Type.String({ pattern: '^[0-9]{2,8}$', description: 'NCDD code of today\'s unit.' }),
  id: Type.String({ format: 'uuid', description: 'Its identifier (UUID).' }),
  level: Type.Enum(['province', 'district', 'commune', 'village']),
  name_en: Type.String({ description: 'Latin-script name.' }),
  name_km: Type.String({ description: 'Khmer name.' }),
  href: Type.String({ description: 'Its slug path, resolvable at GET /locations/...' }),
}, { additionalProperties: false });

export const ErrorBody = Type.Object({
  code: Type.Enum(ERROR_CODES, { description: 'Stable machine-readable error code.' }),
  message: Type.String({ description: 'Human-readable explanation; may change between releases.' }),
  details: Type.Optional(Type.Array(ErrorDetail, { description: 'For invalid_request: each parameter at fault.' })),
  successors: Type.Optional(Type.Array(Successor, {
    description: 'For gone (410): today\'s units that replaced the retired code (recoded, split or merged); see its history.',
  })),
}, { additionalProperties: false });

export const Metadata = Type.Object({
  correlationId: Type.String({ description: 'Identifies this request; also in the x-correlation-id header.' }),
}, { additionalProperties: false });

/** Error envelope of the identifier-based shape. */
export const IdentifierError = Type.Object({
  statusCode: Type.Integer({ description: 'The HTTP status.' }),
  error: ErrorBody,
  metadata: Metadata,
}, {
  additionalProperties: false,
  examples: [{ statusCode: 404, error: { code: 'not_found', message: 'No province has id 6d2cc9e3-b169-51ef-b502-a07c9418252c.' },
    metadata: { correlationId: 'f1b8a0a4-8d5e-4a4f-9d0f-2b8f0c6f3d11' } }],
});

/** Error envelope of the code-based shape. */
export const V1Error = Type.Object({
  status: Type.Literal('error'),
  error: ErrorBody,
}, {
  additionalProperties: false,
  examples: [{ status: 'error', error: { code: 'invalid_request', message: 'Invalid path parameter province_code: must be 2 digits.',
    details: [{ in: 'path', parameter: 'province_code', message: 'must be 2 digits' }] } }],
});

/** The statuses every data route can answer besides 200 and 304, with their envelope. */
export function errorResponses<T extends TSchema>(envelope: T) {
  return {
    400: { ...envelope, description: 'invalid_request: a parameter is malformed, out of range or unknown.' },
    401: { ...envelope, description: 'missing_api_key: no x-api-key header; invalid_api_key: the key is malformed, unknown or revoked.' },
    403: { ...envelope, description: 'origin_not_allowed: a browser key (khp_...) used from an origin it does not list, or with no Origin or Referer.' },
    404: { ...envelope, description: 'not_found: no such unit.' },
    410: { ...envelope, description: 'gone: the code (or the id made from it) belonged to a unit that no longer exists; '
      + '`error.successors` lists today\'s units that replaced it, and GET /v1/units/{code}/history tells what happened.' },
    429: { ...envelope, description: 'quota_exceeded: the monthly quota is used up (Retry-After: seconds to the 1st of next month, UTC); '
      + 'rate_limited: over the per-second limit (Retry-After: 1).' },
    500: { ...envelope, description: 'internal_error: the server failed; the body has no internals.' },
    503: { ...envelope, description: 'service_unavailable: the key store is unreachable or the server is overloaded; retry after Retry-After seconds.' },
  };
}

export const NotModified = Type.Null({ description: 'Not modified: the ETag sent in If-None-Match is current; no body.' });

export const Lang = Type.Enum(['en', 'km'], {
  default: 'en',
  description: 'Language of `name`, every `*_name` and `unit_type`: `en` (Latin script) or `km` (Khmer).',
});

/** Query of every identifier-based hierarchy route: `lang` only; any other parameter is a 400. */
export const LangQuery = Type.Object({ lang: Type.Optional(Lang) }, { additionalProperties: false });

/** No query parameter allowed (code-based routes). */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const Uuid = Type.String({
  format: 'uuid',
  description: 'Unit identifier (UUID).',
  examples: ['6d2cc9e3-b169-51ef-b502-a07c9418252b'],
});

/** A unit of each level, for the examples: Phnom Penh, Khan Chamkar Mon, Sangkat Tonle Basak, Phum 1. */
export const EXAMPLE_CODES = { province: '12', district: '1201', commune: '120101', village: '12010101' } as const;

/** The `{id}` path parameter of a route about units of this level, with the id of a real one as its example. */
export function idParams(level: keyof typeof EXAMPLE_CODES) {
  return Type.Object({ id: { ...Uuid, examples: [unitId(EXAMPLE_CODES[level])] } }, { additionalProperties: false });
}

/** The `{id}` of a route about a unit of any level (its example: Phnom Penh's). */
export const IdParams = idParams('province');

export const PostalCode = Type.String({ pattern: '^[0-9]{6}$', description: 'Official 6-digit postal code (MPTC Prakas No. 77).',
  examples: ['120101'] });

/** Digits shared by the postal codes of a unit and its descendants. */
export const PostalCodePrefix = Type.String({ pattern: '^[0-9]{1,6}$', description: 'Leading digits shared by the postal codes of the unit and all its descendants.',
  examples: ['12'] });

export const PostalCodeRange = Type.String({ pattern: '^[0-9]{6}-[0-9]{6}$', description: 'Lowest and highest postal code of the unit and its descendants, `<low>-<high>`.',
  examples: ['120000-121408'] });

/** An NCDD code of the given length (2 province, 4 district, 6 commune, 8 village). */
export function NcddCode(digits: number, what: string) {
  return Type.String({ pattern: `^[0-9]{${digits}}$`, description: `NCDD code of the ${what} (${digits} digits).` });
}
