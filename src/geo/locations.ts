/**
 * Where each province, district and commune is, for its records: a point inside it and its bounding box, from the
 * boundaries (polylabel's pole of inaccessibility: inside the unit even when it is concave, unlike a centroid), else
 * from the dataset's own `geo` (pumi's centroid and box) for the communes created after 2014. Computed once.
 */
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import type { Unit } from '../gazetteer/types.js';
import type { Geography } from './geography.js';

export interface UnitLocation {
  lat: number;
  lng: number;
  bbox: { min_lat: number; min_lng: number; max_lat: number; max_lng: number } | null;
  /** `boundaries`: a point inside the unit's 2014 polygon; `pumi`: the dataset's centroid (no polygon of its own). */
  source: 'boundaries' | 'pumi';
}

/** A unit's location; `attribution`: what the licence asks to be shown with answers derived from the boundaries. */
export type Locator = ((unit: Unit) => UnitLocation | null) & { attribution: string };

/**
 * Coordinates are given to 1e-4 degree (about 11 m), an order below the boundaries' precision (about 100 m): a box is
 * rounded outwards, so it still holds the unit; a point stays at 1e-6 degree in the rare case rounding would take it
 * out of a small unit.
 */
const DIGITS = 4;
const STEP = 10 ** DIGITS;
const down = (value: number) => Math.floor(value * STEP) / STEP;
const up = (value: number) => Math.ceil(value * STEP) / STEP;
const near = (value: number) => Math.round(value * STEP) / STEP;

export function unitLocator(geo: Geography, gazetteer: Gazetteer): Locator {
  const locations = new Map<string, UnitLocation>();
  for (const unit of gazetteer.units) {
    if (unit.level === 'village') continue;
    const shape = geo.shape(unit.code);
    if (shape) {
      const [minLng, minLat, maxLng, maxLat] = shape.bbox;
      const [lng, lat] = geo.contains(shape, near(shape.point[0]), near(shape.point[1])) ? [near(shape.point[0]), near(shape.point[1])] : shape.point;
      locations.set(unit.code, { lat, lng, bbox: { min_lat: down(minLat), min_lng: down(minLng), max_lat: up(maxLat), max_lng: up(maxLng) }, source: 'boundaries' });
    } else if (unit.geo) {
      const box = unit.geo.bbox;
      locations.set(unit.code, { lat: unit.geo.lat, lng: unit.geo.lng, bbox: box ? { min_lat: box.min_lat, min_lng: box.min_lng, max_lat: box.max_lat, max_lng: box.max_lng } : null, source: 'pumi' });
    }
  }
  return Object.assign((unit: Unit) => locations.get(unit.code) ?? null, { attribution: geo.attribution });
}
