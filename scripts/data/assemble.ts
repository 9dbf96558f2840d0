/** Turns the repaired raw units and the postal table into the dataset's units: parents, ids, slugs, hrefs, postal codes. */
import { slugify } from '../../src/gazetteer/slug.js';
import type { Unit } from '../../src/gazetteer/types.js';
import { unitId } from '../../src/gazetteer/uuid.js';
import type { PostalRow, RawUnit } from './sources.js';

const PHNOM_PENH = '12';

export function parentCode(code: string): string | null {
  return code.length > 2 ? code.slice(0, -2) : null;
}

/**
 * Postal codes come from the Prakas 77 table only, never from the NCDD code (57 of 1,887 differ).
 * Villages have none of their own and carry their commune's.
 */
export function postalCodes(units: readonly RawUnit[], postal: readonly PostalRow[]): Map<string, string> {
  const byCode = new Map<string, string>();
  for (const row of postal) {
    if (byCode.has(row.ncdd_code)) throw new Error(`postal table lists ${row.ncdd_code} twice`);
    byCode.set(row.ncdd_code, row.postal_code);
  }
  for (const unit of units) {
    if (unit.level !== 'village') continue;
    const commune = byCode.get(unit.code.slice(0, 6));
    if (commune !== undefined) byCode.set(unit.code, commune);
  }
  return byCode;
}

/**
 * Slugs unique among siblings: in a clash, the lowest code keeps the plain slug and the others get `-<code>`,
 * so adding a unit later never changes an existing unit's slug.
 */
function siblingSlugs(siblings: readonly RawUnit[]): Map<string, string> {
  const taken = new Set<string>();
  const slugs = new Map<string, string>();
  for (const unit of [...siblings].sort((a, b) => compareCodes(a.code, b.code))) {
    const plain = slugify(unit.name_latin) || unit.code;
    const slug = taken.has(plain) ? `${plain}-${unit.code}` : plain;
    taken.add(slug);
    slugs.set(unit.code, slug);
  }
  return slugs;
}

export function compareCodes(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Slugs the dataset served before a repair was withdrawn (the unit's Latin name is its source spelling again): old
 * paths keep resolving, as for a repair's former slug.
 */
export const WITHDRAWN_SLUGS: readonly { code: string; slug: string; why: string }[] = [
  { code: '11050404', slug: 'srae-muoy', why: 'ស្រែអ៊ី, "Srae I" in the source: its I was read as a Roman numeral and the name served as "Srae Muoy" until 2026-11-27' },
];

/** Builds the dataset's units ordered by code (provinces, then districts, communes, villages). */
/**
 * `previous`: the units as the last release named them (before the name repairs); a unit whose slug changed keeps
 * its old one in `former_slugs`, so that old paths keep resolving (GET /locations/... answers 301 to the new one).
 */
export function assembleUnits(units: readonly RawUnit[], postal: readonly PostalRow[], previous?: ReadonlyMap<string, RawUnit>): Unit[] {
  const postalByCode = postalCodes(units, postal);
  const childrenOf = new Map<string | null, RawUnit[]>();
  for (const unit of units) {
    const parent = parentCode(unit.code);
    const list = childrenOf.get(parent) ?? [];
    list.push(unit);
    childrenOf.set(parent, list);
  }
  const slugByCode = new Map<string, string>();
  for (const siblings of childrenOf.values()) for (const [code, slug] of siblingSlugs(siblings)) slugByCode.set(code, slug);
  const formerSlugs = new Map<string, string[]>();
  if (previous) {
    for (const siblings of childrenOf.values()) {
      const before = siblings.map((u) => previous.get(u.code) ?? u);
      for (const [code, slug] of siblingSlugs(before)) if (slug !== slugByCode.get(code)) formerSlugs.set(code, [slug]);
    }
  }
  for (const { code, slug } of WITHDRAWN_SLUGS) {
    if (!slugByCode.has(code)) continue; // a partial build (tests)
    const known = formerSlugs.get(code) ?? [];
    if (slug !== slugByCode.get(code) && !known.includes(slug)) formerSlugs.set(code, [...known, slug]);
  }

  const hrefOf = (code: string): string => {
    const parts: string[] = [];
    for (let c: string | null = code; c !== null; c = parentCode(c)) parts.unshift(slugByCode.get(c) ?? c);
    return `/locations/${parts.join('/')}`;
  };

  return [...units]
    .sort((a, b) => compareCodes(a.code, b.code))
    .map((unit) => ({
      code: unit.code,
      level: unit.level,
      parent_code: parentCode(unit.code),
      id: unitId(unit.code),
      slug: slugByCode.get(unit.code)!,
      href: hrefOf(unit.code),
      name_km: unit.name_km,
      name_latin: unit.name_latin,
      name_ungegn: unit.name_ungegn,
      unit_type_km: unit.unit_type_km,
      unit_type_latin: unit.unit_type_latin,
      unit_type_en: unit.unit_type_en,
      unit_type_ungegn: unit.unit_type_ungegn,
      type: unit.code === PHNOM_PENH ? 'capital' : unit.level,
      postal_code: postalByCode.get(unit.code) ?? '',
      iso3166_2: unit.iso3166_2,
      geo: unit.geo,
      wikipedia: unit.wikipedia,
      ...(formerSlugs.has(unit.code) ? { former_slugs: formerSlugs.get(unit.code)! } : {}),
    }));
}
