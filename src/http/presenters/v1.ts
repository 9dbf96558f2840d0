/** Maps gazetteer units to the code-based (`/v1`) records. */
import type { Unit } from '../../gazetteer/types.js';
import type { Locator, UnitLocation } from '../../geo/locations.js';

const PARENT_FIELD = { province: null, district: 'province_code', commune: 'district_code', village: 'commune_code' } as const;

/**
 * `{ code, name_en, name_km, <parent>_code, postal_code }` for a unit of any level; with a locator, provinces,
 * districts and communes also get `location` (src/geo/locations.ts).
 */
export function v1Record(unit: Unit, locate?: Locator): Record<string, string | UnitLocation | null> {
  const record: Record<string, string | UnitLocation | null> = { code: unit.code, name_en: unit.name_latin, name_km: unit.name_km };
  const parentField = PARENT_FIELD[unit.level];
  if (parentField) record[parentField] = unit.parent_code!;
  record.postal_code = unit.postal_code;
  if (locate && unit.level !== 'village') record.location = locate(unit);
  return record;
}
