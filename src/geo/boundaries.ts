/**
 * GeoJSON Features of provinces, districts and communes (RFC 7946: [lng, lat], outer rings counter-clockwise is not
 * required by readers and not enforced here), optionally simplified for web maps (simplify-js, Douglas-Peucker).
 */
import simplify from 'simplify-js';
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import type { Geography, ShapedUnit } from './geography.js';

export type MultiPolygon = number[][][][];

/** 6 decimals: the artefact's grid (1e-6 degree), without float noise such as 104.12345600000001. */
const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** A unit's polygons as GeoJSON coordinates, each ring simplified with `tolerance` degrees (0: as stored). */
export function polygonsOf(geo: Geography, unit: ShapedUnit, tolerance: number): MultiPolygon {
  const out: MultiPolygon = [];
  for (const rings of unit.parts) {
    const polygon: number[][][] = [];
    for (let k = 0; k < rings.length; k += 2) {
      let points = [];
      for (let i = rings[k]!; i < rings[k + 1]!; i++) points.push({ x: geo.xy[2 * i]!, y: geo.xy[2 * i + 1]! });
      if (tolerance > 0) points = simplify(points, tolerance, true);
      // A ring needs 4 positions (closed triangle); a hole or island simplified away is dropped.
      if (points.length < 4) {
        if (k === 0) break;
        continue;
      }
      polygon.push(points.map((p) => [round6(p.x), round6(p.y)]));
    }
    if (polygon.length > 0) out.push(polygon);
  }
  // Simplified to nothing (a tiny island commune): the shape as stored rather than none.
  return out.length > 0 || tolerance === 0 ? out : polygonsOf(geo, unit, 0);
}

export interface BoundaryFeature {
  type: 'Feature';
  id: string;
  properties: {
    code: string;
    level: 'province' | 'district' | 'commune';
    name_en: string;
    name_km: string;
    parent_code: string | null;
    point_on_surface: number[];
    bbox: number[];
    approximate: boolean;
    split_from: string[];
    split_into: string[];
    simplify: number;
    attribution: string;
  };
  geometry: { type: 'MultiPolygon'; coordinates: MultiPolygon };
}

/**
 * The Feature of a unit with a shape, or of a commune created after 2014 (drawn as the 2014 polygons it came from,
 * flagged approximate); null for anything else (villages, unknown codes).
 */
export function boundaryFeature(geo: Geography, gazetteer: Gazetteer, code: string, level: number, tolerance: number): BoundaryFeature | null {
  const unit = gazetteer.byCode(code);
  if (!unit || unit.level === 'village') return null;
  const shape = geo.shape(code);
  const unshaped = shape ? undefined : geo.unshapedCommune(code);
  const drawn = shape ? [shape] : (unshaped?.from ?? []).map((c) => geo.shape(c)!);
  if (drawn.length === 0) return null;
  const coordinates = drawn.flatMap((s) => polygonsOf(geo, s, tolerance));
  const bbox = drawn.map((s) => s.bbox).reduce((a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])]);
  return {
    type: 'Feature',
    id: code,
    properties: {
      code,
      level: unit.level,
      name_en: unit.name_latin,
      name_km: unit.name_km,
      parent_code: unit.parent_code,
      point_on_surface: drawn[0]!.point,
      bbox,
      approximate: !shape,
      split_from: unshaped?.from ?? [],
      split_into: shape?.split ?? [],
      simplify: level,
      attribution: geo.attribution,
    },
    geometry: { type: 'MultiPolygon', coordinates },
  };
}
