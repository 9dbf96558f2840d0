/** Search and postal-code lookup: parameters and records of both shapes. */
import { Type } from './type.js';
import { Lang, PostalCode, PostalCodePrefix, PostalCodeRange, Uuid } from './common.js';
import { V1Commune, V1District, V1Province, V1Village } from './v1.js';

export const MATCH_KINDS = ['compound', 'exact', 'alias', 'former', 'postal_code', 'prefix', 'contains', 'variant', 'typo'] as const;

export const Match = Type.Enum(MATCH_KINDS, {
  description: 'Extension: how the result matched, best first: `compound` (the query names the unit and one or more of its '
    + 'ancestors, e.g. "Tonle Basak Chamkar Mon": the unit that fits the whole chain, first; see GET /v1/resolve), `exact` (the whole name), `alias` (a curated name people use, e.g. '
    + 'Sihanoukville), `former` (a name or NCDD code the unit had before a reform, e.g. Odongk or 0505 for its successors; '
    + 'see GET /v1/units/{code}/history), `postal_code` (the postal code or its prefix), `prefix` (the start of the name), `contains` (a word, or in '
    + 'Khmer any part, inside the name), `variant` (another romanization, e.g. Batdambang for Battambang), `typo` (one edit in a '
    + 'word of 5+ letters, two in 9+). Results are ordered by this, then by level (province first), then by name.',
});

export const MAX_QUERY_LENGTH = 200;
export const MAX_PAGE = 10_000;

const q = Type.String({
  minLength: 1,
  maxLength: MAX_QUERY_LENGTH,
  description: 'What to look for: a name in Khmer or Latin script (any common romanization, typos tolerated) or a postal code '
    + '(2 to 6 digits, ASCII or Khmer, matched as a prefix). Must contain a non-space character.',
  examples: ['Battambang'],
});
/** How every integer parameter must be written (enforced by src/http/plugins/integer-params.ts). */
const DIGITS_ONLY = 'Plain decimal digits only: `+1`, `1e3`, `0x10`, `1.0`, ` 1` or `Infinity` are a 400.';
const page = Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: `Page number, from 1 to ${MAX_PAGE}. ${DIGITS_ONLY}`, examples: [1] });
const pageSize = Type.Integer({ minimum: 1, maximum: 100, default: 10, description: `Results per page, 1 to 100. ${DIGITS_ONLY}`, examples: [10] });

export const SearchQuery = Type.Object({ q, lang: Type.Optional(Lang), page: Type.Optional(page), pageSize: Type.Optional(pageSize) },
  { additionalProperties: false });
export const V1SearchQuery = Type.Object({ q, page: Type.Optional(page), pageSize: Type.Optional(pageSize) },
  { additionalProperties: false });

export const SearchItem = Type.Object({
  kind: Type.Literal('location'),
  slug: Type.String(),
  name: Type.String({ description: 'Name in the requested language.' }),
  type: Type.Enum(['province', 'capital', 'district', 'commune', 'village']),
  href: Type.String({ description: 'Slug path of the unit, resolvable at GET /locations/...' }),
  postal_code_prefix: PostalCodePrefix,
  parent_name: Type.Optional(Type.String({ description: 'Name of the parent unit in the requested language; absent on provinces.' })),
  code: Type.String({ pattern: '^[0-9]{2,8}$', description: 'Extension: the NCDD code.' }),
  id: Uuid,
  match: Match,
}, { additionalProperties: false });

export const SearchData = Type.Object({
  items: Type.Array(SearchItem),
  total: Type.Integer({ minimum: 0, description: 'Number of results over all pages.' }),
  page: Type.Integer({ minimum: 1 }),
  pageSize: Type.Integer({ minimum: 1 }),
}, { additionalProperties: false });

const PostcodeParam = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'A 6-digit postal code; surrounding spaces and Khmer digits (១២០១០១) are accepted.',
  examples: ['120101'],
});
export const PostcodeParams = Type.Object({ postcode: PostcodeParam }, { additionalProperties: false });

const aboveItsLevel = (levels: string) => Type.Union([Type.String(), Type.Null()], { description: `null when the code is ${levels}.` });
export const LookupResult = Type.Object({
  slug: Type.String(),
  name: Type.String({ description: 'Name in the requested language.' }),
  type: Type.Enum(['province', 'capital', 'district', 'commune']),
  postal_code: PostalCode,
  postal_code_prefix: PostalCodePrefix,
  postal_code_range: PostalCodeRange,
  province_slug: Type.String(),
  province_name: Type.String(),
  district_slug: aboveItsLevel('a province\'s'),
  district_name: aboveItsLevel('a province\'s'),
  commune_slug: aboveItsLevel('a province\'s or a district\'s'),
  commune_name: aboveItsLevel('a province\'s or a district\'s'),
  code: Type.String({ pattern: '^[0-9]{2,6}$', description: 'Extension: NCDD code of the unit that owns the postal code.' }),
  id: Uuid,
  href: Type.String({ description: 'Extension: slug path of the unit.' }),
}, { additionalProperties: false });

/** A code-based search result: the record of its level plus `level` and `match`. */
const withLevel = <T extends typeof V1Province | typeof V1District | typeof V1Commune | typeof V1Village>(record: T, level: string) =>
  Type.Object({ ...record.properties, level: Type.Literal(level), match: Match }, { additionalProperties: false });
export const V1SearchRecord = Type.Union([
  withLevel(V1Province, 'province'), withLevel(V1District, 'district'), withLevel(V1Commune, 'commune'), withLevel(V1Village, 'village'),
]);

export const V1SearchMeta = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  page: Type.Integer({ minimum: 1 }),
  pageSize: Type.Integer({ minimum: 1 }),
}, { additionalProperties: false });
