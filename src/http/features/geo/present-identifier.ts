/** The identifier-based records of reverse geocoding: UUIDs and names in `lang`. */
import type { Static } from 'typebox';
import type { Gazetteer } from '../../../gazetteer/gazetteer.js';
import type { Unit } from '../../../gazetteer/types.js';
import type { ReverseHit } from '../../../geo/geography.js';
import { nameIn, type Lang } from '../../presenters/identifier.js';
import type { IdentifierReverseItem } from './schemas.js';

export function identifierReverseItem(gazetteer: Gazetteer, hit: ReverseHit, lang: Lang): Static<typeof IdentifierReverseItem> {
  const ref = (unit: Unit) => ({ id: unit.id, name: nameIn(unit, lang), code: unit.code });
  const commune = gazetteer.byCode(hit.code)!;
  const [province, district] = gazetteer.ancestors(commune.code);
  return {
    ...ref(commune),
    level: 'commune',
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
