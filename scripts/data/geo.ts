/**
 * The geography pumi gives (a centroid and a bounding box for most provinces, districts and communes), cleaned:
 *
 * - bbox-corner-order: pumi's box is [south, north, west, east], but 928 boxes list two corners instead, as
 *   [lat, lng, lat, lng] (a "max_lat" of 105.53). Each value is told by its range (Cambodia's latitudes are 9-15,
 *   its longitudes 102-108, so they never overlap) and the box is rebuilt from the two corners.
 * - shared-centroid: 28 communes share one centroid (and box) with a namesake elsewhere (Kraya 060402 and 060705).
 *   The point belongs to at most one of them: it is kept for the commune whose 2014 polygon (geoBoundaries, matched
 *   to NCDD codes in data/sources/geoboundaries-khm-2014) contains it, and dropped (geo: null) for the others; when
 *   no single one contains it, it is dropped for all.
 * Then every centroid must lie in Cambodia and in its own box (validateGeo), or the build fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvRecords } from '../../src/lib/csv.js';
import type { Geo } from '../../src/gazetteer/types.js';
import type { RawUnit } from './sources.js';
import { SOURCES_DIR } from './sources.js';

/** Cambodia's extent, with a margin: every centroid must lie inside. */
export const CAMBODIA = { min_lat: 9.2, max_lat: 14.8, min_lng: 102.2, max_lng: 107.8 } as const;
const isLat = (v: number) => v >= 9 && v <= 15.5;
const isLng = (v: number) => v >= 102 && v <= 108.5;

export interface GeoRepair {
  code: string;
  rule: 'bbox-corner-order' | 'shared-centroid';
  before: Geo | null;
  after: Geo | null;
  why: string;
}

/** The box with its values in their places, or undefined when they are not two latitudes and two longitudes. */
export function orderBox(box: NonNullable<Geo['bbox']>): NonNullable<Geo['bbox']> | undefined {
  const values = [box.min_lat, box.max_lat, box.min_lng, box.max_lng];
  const lats = values.filter(isLat);
  const lngs = values.filter(isLng);
  if (lats.length !== 2 || lngs.length !== 2) return undefined;
  return { min_lat: Math.min(...lats), max_lat: Math.max(...lats), min_lng: Math.min(...lngs), max_lng: Math.max(...lngs) };
}

type Ring = [number, number][];

/** Ray casting: whether (lng, lat) lies inside the polygon (outer ring minus holes). */
function inPolygon(rings: Ring[], lng: number, lat: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

interface Polygons {
  /** NCDD commune code -> its 2014 polygons (the match table's `matched_commune_ncdd`). */
  byCommune: Map<string, Ring[][]>;
}

export function readPolygons(dir = SOURCES_DIR): Polygons {
  const base = join(dir, 'geoboundaries-khm-2014');
  const geojson = JSON.parse(readFileSync(join(base, 'geoboundaries-khm-adm3-simplified.geojson'), 'utf8')) as {
    features: { geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown } }[];
  };
  const rows = parseCsvRecords(readFileSync(join(base, 'geoboundaries-khm-adm3-to-ncdd-match.csv'), 'utf8'));
  const byCommune = new Map<string, Ring[][]>();
  rows.forEach((row) => {
    const code = row.matched_commune_ncdd;
    const feature = geojson.features[Number(row.feature_index)];
    if (!code || !feature) return;
    const polygons = feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates as Ring[]] : (feature.geometry.coordinates as Ring[][]);
    byCommune.set(code, [...(byCommune.get(code) ?? []), ...polygons]);
  });
  return { byCommune };
}

const contains = (polygons: Polygons, code: string, lng: number, lat: number) =>
  (polygons.byCommune.get(code) ?? []).some((rings) => inPolygon(rings, lng, lat));

/** Applies the two rules to the units (in place: the caller passes copies) and returns the log. */
export function repairGeo(units: RawUnit[], polygons: Polygons): GeoRepair[] {
  const repairs: GeoRepair[] = [];
  for (const unit of units) {
    const box = unit.geo?.bbox;
    if (!unit.geo || !box) continue;
    const ordered = orderBox(box);
    if (ordered && (ordered.min_lat !== box.min_lat || ordered.max_lat !== box.max_lat || ordered.min_lng !== box.min_lng || ordered.max_lng !== box.max_lng)) {
      const after = { ...unit.geo, bbox: ordered };
      repairs.push({ code: unit.code, rule: 'bbox-corner-order', before: unit.geo, after, why: 'corners listed as [lat, lng, lat, lng]' });
      unit.geo = after;
    }
  }
  // Units sharing one centroid.
  const byPoint = new Map<string, RawUnit[]>();
  for (const unit of units) {
    if (!unit.geo) continue;
    const key = `${unit.geo.lat},${unit.geo.lng}`;
    byPoint.set(key, [...(byPoint.get(key) ?? []), unit]);
  }
  for (const group of byPoint.values()) {
    if (group.length < 2) continue;
    const { lat, lng } = group[0]!.geo!;
    const owners = group.filter((u) => contains(polygons, u.code, lng, lat));
    const owner = owners.length === 1 ? owners[0]! : undefined;
    const others = group.map((u) => u.code).join(', ');
    for (const unit of group) {
      if (unit === owner) continue;
      const why = owner
        ? `shares its centroid with ${others}; the point lies in the 2014 polygon of ${owner.code} only`
        : `shares its centroid with ${others}; no single one's 2014 polygon contains it, so it is nobody's`;
      repairs.push({ code: unit.code, rule: 'shared-centroid', before: unit.geo, after: null, why });
      unit.geo = null;
    }
  }
  return repairs.sort((a, b) => a.code.length - b.code.length || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/** Every centroid in Cambodia and in its own box, every box in order; no two units on one centroid. */
export function validateGeo(units: readonly { code: string; geo: Geo | null }[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const { code, geo } of units) {
    if (!geo) continue;
    const { lat, lng, bbox } = geo;
    if (!(lat >= CAMBODIA.min_lat && lat <= CAMBODIA.max_lat && lng >= CAMBODIA.min_lng && lng <= CAMBODIA.max_lng)) {
      problems.push(`${code}: centroid ${lat},${lng} is not in Cambodia`);
    }
    if (bbox) {
      if (!(bbox.min_lat <= bbox.max_lat && bbox.min_lng <= bbox.max_lng && isLat(bbox.min_lat) && isLat(bbox.max_lat) && isLng(bbox.min_lng) && isLng(bbox.max_lng))) {
        problems.push(`${code}: bounding box ${JSON.stringify(bbox)} is not [south, north, west, east]`);
      } else if (!(lat >= bbox.min_lat && lat <= bbox.max_lat && lng >= bbox.min_lng && lng <= bbox.max_lng)) {
        problems.push(`${code}: centroid ${lat},${lng} is outside its box`);
      }
    }
    const key = `${lat},${lng}`;
    if (seen.has(key)) problems.push(`${code}: centroid shared with ${seen.get(key)}`);
    seen.set(key, code);
  }
  return problems;
}
