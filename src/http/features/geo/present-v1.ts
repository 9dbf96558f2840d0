/** The code-based (`/v1`) records of reverse geocoding: codes and both names. */
import type { Static } from 'typebox';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import type { Unit } from '../../../gazetteer/types.js';
import type { ReverseHit } from '../../../geo/geography.js';
import type { V1ReverseRecord } from './schemas.js';

const ref = (unit: Unit) => ({ code: unit.code, name_en: unit.name_latin, name_km: unit.name_km });

export function v1ReverseRecord(gazetteer: Gazetteer, hit: ReverseHit): Static<typeof V1ReverseRecord> {
  const commune = gazetteer.byCode(hit.code)!;
  const [province, district] = gazetteer.ancestors(commune.code);
  return {
    level: 'commune',
    ...ref(commune),
    postal_code: commune.postal_code,
    province: ref(province!),
    district: ref(district!),
    commune: ref(commune),
    approximate: hit.approximate,
    approximate_reasons: hit.reasons,
    distance_m: hit.distanceM,
    candidates: hit.candidates.map((code) => ref(gazetteer.byCode(code)!)),
    near: hit.near.map((n) => ({ ...ref(gazetteer.byCode(n.code)!), distance_m: n.distanceM })),
  };
}
