/** Records of the identifier-based shape (UUIDs, `statusCode` envelope, `lang`), as the API specification lists them. */
import type { TSchema } from 'typebox';
import { Type } from './type.js';
import { LocationField } from '../features/geo/schemas.js';
import { Metadata, PostalCode, PostalCodePrefix, PostalCodeRange, Uuid } from './common.js';

const Name = Type.String({ description: 'Name in the requested language.' });
const Code = Type.String({ pattern: '^[0-9]{2,8}$', description: 'Extension: the NCDD code (2, 4, 6 or 8 digits).' });
const UnitType = Type.String({ description: 'Extension: the local administrative unit in the requested language, e.g. Khan / ខណ្ឌ, Srok, Krong, Khum, Sangkat, Phum.' });
const Slug = Type.String({ description: 'Lowercase ASCII slug of the Latin name, unique among siblings.' });
const Href = Type.String({ description: 'Extension: the unit\'s slug path, resolvable at GET /locations/...' });
const Total = (what: string) => Type.Integer({ minimum: 0, description: `Number of ${what} in the unit.` });
const LevelType = <const T extends string[]>(levels: readonly [...T]) =>
  Type.Enum(levels, { description: '`capital` for Phnom Penh, otherwise the level.' });

/** The postal span of a unit and its descendants, on every detail above the village. */
const Span = { postal_code_prefix: PostalCodePrefix, postal_code_range: PostalCodeRange };
/** The extensions every list record carries, after the specification's fields. */
const ListExtensions = { code: Code, unit_type: UnitType };
/** The extensions every detail record carries, after the specification's fields. */
const DetailExtensions = { ...ListExtensions, slug: Slug, href: Href };
const OwnPostalCode = { ...PostalCode, description: 'Extension: the unit\'s own postal code.' };
const CommunePostalCode = { ...PostalCode, description: 'The commune\'s postal code: villages have none of their own.' };

export const ProvinceListItem = Type.Object({
  id: Uuid,
  name: Name,
  slug: Slug,
  type: Type.Enum(['Province', 'Capital'], { description: 'Capitalised, as the specification shows for this list.' }),
  prefix: Type.String({ pattern: '^[0-9]{2}$', description: 'The 2-digit province code.' }),
  postalCodePrefix: PostalCodePrefix,
  ...ListExtensions,
}, { additionalProperties: false });

export const ProvinceDetail = Type.Object({
  id: Uuid,
  name: Name,
  type: LevelType(['province', 'capital']),
  ...Span,
  total_districts: Total('districts'),
  total_communes: Total('communes'),
  total_villages: Total('villages'),
  ...DetailExtensions,
  postal_code: OwnPostalCode,
  ...LocationField,
}, { additionalProperties: false });

export const DistrictListItem = Type.Object({
  id: Uuid,
  name: Name,
  type: LevelType(['district']),
  postal_code_prefix: PostalCodePrefix,
  postal_code_range: PostalCodeRange,
  total_communes: Total('communes'),
  total_villages: Total('villages'),
  ...ListExtensions,
}, { additionalProperties: false });

export const DistrictDetail = Type.Object({
  id: Uuid,
  name: Name,
  type: LevelType(['district']),
  ...Span,
  province_id: Uuid,
  province_name: Name,
  total_communes: Total('communes'),
  total_villages: Total('villages'),
  ...DetailExtensions,
  postal_code: OwnPostalCode,
  ...LocationField,
}, { additionalProperties: false });

export const CommuneListItem = Type.Object({
  id: Uuid,
  name: Name,
  ...ListExtensions,
}, { additionalProperties: false });

export const CommuneDetail = Type.Object({
  id: Uuid,
  name: Name,
  type: LevelType(['commune']),
  ...Span,
  district_id: Uuid,
  district_name: Name,
  province_id: Uuid,
  province_name: Name,
  total_villages: Total('villages'),
  ...DetailExtensions,
  postal_code: OwnPostalCode,
  ...LocationField,
}, { additionalProperties: false });

export const VillageListItem = Type.Object({
  id: Uuid,
  name: Name,
  type: LevelType(['village']),
  postal_code: CommunePostalCode,
  ...ListExtensions,
}, { additionalProperties: false });

export const VillageDetail = Type.Object({
  id: Uuid,
  name: Name,
  type: LevelType(['village']),
  postal_code: CommunePostalCode,
  commune_id: Uuid,
  commune_name: Name,
  district_id: Uuid,
  district_name: Name,
  province_id: Uuid,
  province_name: Name,
  ...DetailExtensions,
}, { additionalProperties: false });

/** `{ statusCode: 200, data, metadata }`. */
export function Envelope<T extends TSchema>(data: T, description: string) {
  return Type.Object({
    statusCode: Type.Literal(200),
    data,
    metadata: Metadata,
  }, { additionalProperties: false, description });
}

/** `{ statusCode: 200, data: { items: [...] }, metadata }`. */
export function ListEnvelope<T extends TSchema>(item: T, description: string) {
  return Envelope(Type.Object({ items: Type.Array(item) }, { additionalProperties: false }), description);
}

/** Any detail record: what GET /locations/... answers (the level decides which). */
export const AnyDetail = Type.Union([ProvinceDetail, DistrictDetail, CommuneDetail, VillageDetail]);
