/** Address resolution and validation: parameters and records of both shapes (one source for validation, serialisation, OpenAPI). */
import type { Static, TSchema } from 'typebox';
import { Type } from '../../schemas/type.js';
import { MATCH_HOWS, MAX_ADDRESS_LENGTH, MAX_CANDIDATES, WARNING_CODES } from '../../../address/resolve.js';
import { LEVELS } from '../../../gazetteer/types.js';
import { Lang, PostalCode, Uuid } from '../../schemas/common.js';

export const MAX_BATCH = 100;

/**
 * The schema or null, as a type list (`type: ["object", "null"]`, OpenAPI 3.1) rather than `anyOf`: the serializer
 * (fast-json-stringify) validates every value against each branch of an anyOf, which cost more than resolving.
 */
function OrNull<T extends TSchema>(schema: T, description: string) {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'], description });
}

const q = Type.String({
  minLength: 1,
  maxLength: MAX_ADDRESS_LENGTH,
  description: `An address as people write it, in Khmer or Latin script or both, in any order, with or without unit words or commas; `
    + `at most ${MAX_ADDRESS_LENGTH} characters. Must contain a letter or digit.`,
  examples: ['#12, St. 271, Sangkat Toul Tom Poung 1, Khan Chamkar Mon, Phnom Penh', 'ភូមិ១ សង្កាត់ទន្លេបាសាក់ ខណ្ឌចំការមន រាជធានីភ្នំពេញ'],
});

const limit = Type.Integer({
  minimum: 1,
  maximum: MAX_CANDIDATES,
  default: MAX_CANDIDATES,
  description: `Most candidates to answer, 1 to ${MAX_CANDIDATES} (default ${MAX_CANDIDATES}). The candidates are the first \`limit\` of `
    + `the full answer, each exactly as there (confidence and warnings included); fewer cost less work and fewer bytes (one `
    + `candidate: about a fifth of the body). Plain decimal digits only.`,
  examples: [1],
});

export const V1ResolveQuery = Type.Object({ q, limit: Type.Optional(limit) }, { additionalProperties: false });
export const ResolveQuery = Type.Object({ q, lang: Type.Optional(Lang), limit: Type.Optional(limit) }, { additionalProperties: false });
/** POST /v1/resolve: the same limit for every address of the batch. */
export const V1BatchQuery = Type.Object({ limit: Type.Optional(limit) }, { additionalProperties: false });
export const V1ResolveBody = Type.Array(Type.String({ maxLength: MAX_ADDRESS_LENGTH }), {
  minItems: 1,
  maxItems: MAX_BATCH,
  description: `A JSON array of 1 to ${MAX_BATCH} addresses (strings of at most ${MAX_ADDRESS_LENGTH} characters), sent as application/json.`,
  examples: [['Sangkat Tonle Basak, Khan Chamkar Mon', 'ភូមិកណ្ដាល ឃុំស្វាយដង្គំ ក្រុងសៀមរាប']],
});

const Level = Type.Enum(LEVELS, { description: 'Level of the unit.' });
const How = Type.Enum(MATCH_HOWS, {
  description: 'How the span matched: `exact` (the name), `alias` (a curated name people use, e.g. BKK1, Toul Kork), `variant` (another '
    + 'romanization, e.g. Chamkar Morn, Tonle Bassac), `typo` (a letter or two wrong), `former` (a parent before a reform, '
    + 'or a name the unit had before: ស្រុកសំពៅមាស for Krong Pursat), `postal_code` (the 6-digit postal code).',
});
const Confidence = Type.Number({ minimum: 0, maximum: 1, description: 'Estimated probability that this candidate is the unit the address '
  + 'means, from the share of the input explained, how the names matched and how far ahead of namesakes it is; calibrated on the '
  + 'evaluation set (see the README, Address resolution).' });
const Piece = (description: string) => OrNull(Type.String(), description);
const Parts = {
  house_number: Piece('House number as written (#12, No. 12, ផ្ទះលេខ១២ give "12"); null if none.'),
  street: Piece('Street: "St. 271", "National Road 5" or a named boulevard as written; null if none.'),
  group: Piece('Group (ក្រុម / Krom) number; null if none.'),
  borey: Piece('Borey (housing estate) as written; null if none.'),
  building: Piece('Building, floor or room as written; null if none.'),
  postal_code_input: Piece('The 6-digit postal code written in the address (or a legacy 5-digit one); null if none.'),
  phone: Piece('A telephone number written with the address (after Tel, Phone, ទូរស័ព្ទ..., or in the forms 012 345 678 and '
    + '+855 23 216 000), as written, digits in ASCII; never read as a unit, house or postal code; null if none.'),
};
const Unmatched = Type.Array(Type.String(), { description: 'Parts of the input nothing explained (neither a unit nor a recognised part).' });
const WarningCodeSchema = Type.Enum(WARNING_CODES, {
  description: '`UNIT_NOT_IN_PARENT`: the address names a unit that is not in the parent it also names (the message says which reading '
    + 'was chosen and why); `FORMER_PARENT`: the address names the parent the unit had before a reform (still a good match); '
    + '`POSTAL_CODE_MISMATCH`: the postal code written belongs to another unit, or to none; `AMBIGUOUS`: namesakes fit equally '
    + 'well and the rest of the input does not separate them (see the other candidates); on a unit whose children one name fits '
    + 'equally (a sangkat or village named without its number or its direction: Srayang for Srayang Cheung and Srayang Tboung), '
    + 'the unit is the answer and `codes` lists those children.',
});
const Formatted = Type.Object({
  km: Type.String({ description: 'Canonical address in Khmer: ផ្ទះលេខ… ផ្លូវ… ភូមិ… ឃុំ/សង្កាត់… ស្រុក/ក្រុង/ខណ្ឌ… ខេត្ត/រាជធានី… postal code.' }),
  latin: Type.String({ description: 'Canonical address in Latin script: house, street, Phum, Khum/Sangkat, Srok/Krong/Khan, Province/Capital, postal code.' }),
}, { additionalProperties: false });

// ---- code-based (/v1) ----

const V1Ref = Type.Object({
  code: Type.String({ pattern: '^[0-9]{2,8}$' }),
  name_en: Type.String(),
  name_km: Type.String(),
}, { additionalProperties: false });
const V1RefOrNull = (what: string) => OrNull(V1Ref, `The ${what}, or null above the unit's level.`);

const V1Matched = Type.Object({
  text: Type.String({ description: 'The span as written.' }),
  start: Type.Integer({ minimum: 0, description: 'Offset of the span in the input (UTF-16 code units, after NFC normalisation).' }),
  end: Type.Integer({ minimum: 0, description: 'Offset just past the span.' }),
  code: Type.String({ pattern: '^[0-9]{2,8}$', description: 'NCDD code of the unit the span names.' }),
  level: Level,
  how: How,
}, { additionalProperties: false });

const V1Warning = Type.Object({
  code: WarningCodeSchema,
  message: Type.String({ description: 'In English.' }),
  message_km: Type.String({ description: 'In Khmer.' }),
  codes: Type.Array(Type.String(), { description: 'NCDD codes the warning is about (namesakes, the parent named, the postal code\'s owner).' }),
}, { additionalProperties: false });

export const V1Candidate = Type.Object({
  code: Type.String({ pattern: '^[0-9]{2,8}$', description: 'NCDD code of the most specific unit recognised.' }),
  level: Level,
  name_en: Type.String(),
  name_km: Type.String(),
  postal_code: PostalCode,
  province: V1Ref,
  district: V1RefOrNull('district'),
  commune: V1RefOrNull('commune'),
  village: V1RefOrNull('village'),
  confidence: Confidence,
  ...Parts,
  unmatched: Unmatched,
  matched: Type.Array(V1Matched),
  warnings: Type.Array(V1Warning),
  formatted: Formatted,
}, { additionalProperties: false });

export const V1ResolveResponse = Type.Object({
  status: Type.Literal('success'),
  data: Type.Array(V1Candidate, { description: 'Candidates, best first (at most 5); empty when nothing in the input names a unit.' }),
}, { additionalProperties: false });

/** One address's result in a batch: what GET /v1/resolve answers, or an error for that address (one object, no anyOf). */
export const V1BatchItem = Type.Object({
  status: Type.Enum(['success', 'error']),
  data: Type.Optional(Type.Array(V1Candidate, { description: 'With status success: the candidates, best first.' })),
  error: Type.Optional(Type.Object({ code: Type.Literal('invalid_request'), message: Type.String() }, {
    additionalProperties: false, description: 'With status error: this address is blank or has no letter or digit.' })),
}, { additionalProperties: false });

export const V1BatchResponse = Type.Object({
  status: Type.Literal('success'),
  data: Type.Array(V1BatchItem, { description: 'One result per address, in the order sent.' }),
}, { additionalProperties: false });

// ---- identifier-based ----

const IdRef = Type.Object({
  id: Uuid,
  code: Type.String({ pattern: '^[0-9]{2,8}$' }),
  name: Type.String({ description: 'Name in the requested language.' }),
  slug: Type.String(),
  href: Type.String(),
}, { additionalProperties: false });
const IdRefOrNull = (what: string) => OrNull(IdRef, `The ${what}, or null above the unit's level.`);

export const Candidate = Type.Object({
  id: Uuid,
  code: Type.String({ pattern: '^[0-9]{2,8}$', description: 'Extension: NCDD code of the most specific unit recognised.' }),
  name: Type.String({ description: 'Name in the requested language.' }),
  type: Type.Enum(['province', 'capital', 'district', 'commune', 'village']),
  level: Level,
  slug: Type.String(),
  href: Type.String({ description: 'Slug path of the unit, resolvable at GET /locations/...' }),
  postal_code: PostalCode,
  province: IdRef,
  district: IdRefOrNull('district'),
  commune: IdRefOrNull('commune'),
  village: IdRefOrNull('village'),
  confidence: Confidence,
  ...Parts,
  unmatched: Unmatched,
  matched: Type.Array(Type.Object({
    text: Type.String(), start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }), id: Uuid,
    code: Type.String({ pattern: '^[0-9]{2,8}$' }), level: Level, how: How,
  }, { additionalProperties: false })),
  warnings: Type.Array(Type.Object({
    code: WarningCodeSchema,
    message: Type.String({ description: 'In the requested language.' }),
    codes: Type.Array(Type.String()),
  }, { additionalProperties: false })),
  formatted_address: Type.String({ description: 'The canonical address in the requested language (Khmer for km, Latin for en).' }),
  formatted: Formatted,
}, { additionalProperties: false });

export const ResolveData = Type.Object({
  items: Type.Array(Candidate, { description: 'Candidates, best first (at most 5); empty when nothing in the input names a unit.' }),
  total: Type.Integer({ minimum: 0 }),
}, { additionalProperties: false });

// ---- validation ----

const field = (what: string) => Type.String({ minLength: 1, maxLength: 120, description: `The ${what}: its NCDD code or its name (Khmer or Latin, any romanization).` });
export const V1ValidateQuery = Type.Object({
  province: Type.Optional(field('province')),
  district: Type.Optional(field('district')),
  commune: Type.Optional(field('commune')),
  village: Type.Optional(field('village')),
  postal_code: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'The postal code (6 digits, ASCII or Khmer).' })),
}, { additionalProperties: false });

export const PROBLEM_CODES = ['NOT_FOUND', 'WRONG_LEVEL', 'UNIT_NOT_IN_PARENT', 'POSTAL_CODE_MISMATCH', 'POSTAL_CODE_UNKNOWN', 'AMBIGUOUS', 'EMPTY'] as const;
export const V1ValidateResponse = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({
    valid: Type.Boolean({ description: 'True when every field names a unit and they form one chain (and the postal code is the chain\'s).' }),
    problems: Type.Array(Type.Object({
      field: Type.Enum(['province', 'district', 'commune', 'village', 'postal_code', 'query']),
      code: Type.Enum(PROBLEM_CODES, { description: '`NOT_FOUND`: no unit of that level has this code or name; `WRONG_LEVEL`: the code is '
        + 'of another level; `UNIT_NOT_IN_PARENT`: the unit is not in the parent given; `POSTAL_CODE_MISMATCH`: the postal code is '
        + 'not the chain\'s; `POSTAL_CODE_UNKNOWN`: no unit has it; `AMBIGUOUS`: the name fits several units the other fields do not '
        + 'separate; `EMPTY`: no field given.' }),
      message: Type.String(),
      message_km: Type.String(),
    }, { additionalProperties: false })),
    corrected: OrNull(Type.Object({
      code: Type.String({ pattern: '^[0-9]{2,8}$', description: 'The most specific unit of the corrected chain.' }),
      level: Level,
      postal_code: PostalCode,
      province: V1Ref,
      district: V1RefOrNull('district'),
      commune: V1RefOrNull('commune'),
      village: V1RefOrNull('village'),
    }, { additionalProperties: false }), 'The chain the fields most likely mean, with each unit\'s code and names; null if none.'),
  }, { additionalProperties: false }),
}, { additionalProperties: false });

export type Schema = TSchema;
