/** A resolved candidate in each response shape: code-based (/v1) and identifier-based (UUIDs, slugs, lang). */
import type { Static } from 'typebox';
import type { Candidate as Resolved } from '../../../address/resolve.js';
import type { Unit } from '../../../gazetteer/types.js';
import { type Lang, nameIn } from '../../presenters/identifier.js';
import type { Candidate, V1Candidate } from './schemas.js';

const parts = (c: Resolved) => ({
  house_number: c.parts.house_number,
  street: c.parts.street,
  group: c.parts.group,
  borey: c.parts.borey,
  building: c.parts.building,
  postal_code_input: c.parts.postal_code ?? c.parts.legacy_postal_code,
  phone: c.parts.phone,
});

const v1Ref = (u: Unit) => ({ code: u.code, name_en: u.name_latin, name_km: u.name_km });

export function v1Candidate(c: Resolved): Static<typeof V1Candidate> {
  const { unit, chain } = c;
  return {
    code: unit.code, level: unit.level, name_en: unit.name_latin, name_km: unit.name_km, postal_code: unit.postal_code,
    province: v1Ref(chain.province),
    district: chain.district && v1Ref(chain.district),
    commune: chain.commune && v1Ref(chain.commune),
    village: chain.village && v1Ref(chain.village),
    confidence: c.confidence,
    ...parts(c),
    unmatched: c.unmatched,
    matched: c.matched,
    warnings: c.warnings,
    formatted: c.formatted,
  };
}

/** The identifier-based candidate: UUIDs, slugs, hrefs, names and messages in `lang`. */
export function identifierCandidate(c: Resolved, lang: Lang, byCode: (code: string) => Unit | undefined): Static<typeof Candidate> {
  const { unit, chain } = c;
  const ref = (u: Unit) => ({ id: u.id, code: u.code, name: nameIn(u, lang), slug: u.slug, href: u.href });
  return {
    id: unit.id, code: unit.code, name: nameIn(unit, lang), type: unit.type, level: unit.level, slug: unit.slug, href: unit.href,
    postal_code: unit.postal_code,
    province: ref(chain.province),
    district: chain.district && ref(chain.district),
    commune: chain.commune && ref(chain.commune),
    village: chain.village && ref(chain.village),
    confidence: c.confidence,
    ...parts(c),
    unmatched: c.unmatched,
    matched: c.matched.map((m) => ({ text: m.text, start: m.start, end: m.end, id: byCode(m.code)!.id, code: m.code, level: m.level, how: m.how })),
    warnings: c.warnings.map((w) => ({ code: w.code, message: lang === 'km' ? w.message_km : w.message, codes: w.codes })),
    formatted_address: lang === 'km' ? c.formatted.km : c.formatted.latin,
    formatted: c.formatted,
  };
}
