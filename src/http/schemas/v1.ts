/** Records of the code-based shape (`/v1`, NCDD codes, `name_en` and `name_km`, all strings). */
import type { TSchema } from 'typebox';
import { Type } from './type.js';
import { LocationField } from '../features/geo/schemas.js';
import { NcddCode, PostalCode } from './common.js';

const NameEn = Type.String({ description: 'Latin-script name (NCDD romanization).' });
const NameKm = Type.String({ description: 'Khmer name.' });

export const V1Province = Type.Object({
  code: NcddCode(2, 'province'),
  name_en: NameEn,
  name_km: NameKm,
  postal_code: PostalCode,
  ...LocationField,
}, { additionalProperties: false, examples: [{ code: '12', name_en: 'Phnom Penh', name_km: 'ភ្នំពេញ', postal_code: '120000' }] });

export const V1District = Type.Object({
  code: NcddCode(4, 'district'),
  name_en: NameEn,
  name_km: NameKm,
  province_code: NcddCode(2, 'province'),
  postal_code: { ...PostalCode, description: 'Extension: the district\'s own postal code.' },
  ...LocationField,
}, { additionalProperties: false });

export const V1Commune = Type.Object({
  code: NcddCode(6, 'commune'),
  name_en: NameEn,
  name_km: NameKm,
  district_code: NcddCode(4, 'district'),
  postal_code: PostalCode,
  ...LocationField,
}, { additionalProperties: false });

export const V1Village = Type.Object({
  code: NcddCode(8, 'village'),
  name_en: NameEn,
  name_km: NameKm,
  commune_code: NcddCode(6, 'commune'),
  postal_code: { ...PostalCode, description: 'The commune\'s postal code: villages have none of their own.' },
}, { additionalProperties: false });

/** `{ status: 'success', data: [...] }`: data is always an array. */
export function V1Envelope<T extends TSchema>(record: T, description: string) {
  return Type.Object({
    status: Type.Literal('success'),
    data: Type.Array(record),
  }, { additionalProperties: false, description });
}
