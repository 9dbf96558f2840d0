import { csvRow } from '../lib/csv.js';
import type { Gazetteer } from './gazetteer.js';
import type { Level, Unit } from './types.js';

/** The columns of an exported record, in order. Shared by the CLI and (later) the HTTP download. */
export const EXPORT_COLUMNS = [
  'code',
  'level',
  'parent_code',
  'id',
  'slug',
  'href',
  'name_km',
  'name_latin',
  'name_ungegn',
  'unit_type_km',
  'unit_type_latin',
  'unit_type_en',
  'type',
  'postal_code',
  'iso3166_2',
  'lat',
  'lng',
  'bbox_min_lat',
  'bbox_min_lng',
  'bbox_max_lat',
  'bbox_max_lng',
  'location_source',
] as const;

export type ExportRecord = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>;
export type ExportFormat = 'json' | 'csv';

/**
 * Where a unit is, when the caller knows better than the dataset's own centroid: src/geo/locations.ts gives a point
 * inside each province, district and commune and its box from the boundaries (typed here by shape: the gazetteer
 * does not depend on the geometry).
 */
export type ExportLocator = (unit: Unit) => {
  lat: number;
  lng: number;
  bbox: { min_lat: number; min_lng: number; max_lat: number; max_lng: number } | null;
  source: string;
} | null;

/** The dataset's own location of a unit: pumi's centroid and box, where it has them. */
const ownLocation: ExportLocator = (unit) => (unit.geo ? { lat: unit.geo.lat, lng: unit.geo.lng, bbox: unit.geo.bbox ?? null, source: 'pumi' } : null);

/** The export record of a unit; `locate` (src/geo/locations.ts) supplies `lat`, `lng` and the box where it knows them. */
export function exportRecord(unit: Unit, locate?: ExportLocator): ExportRecord {
  const location = locate?.(unit) ?? ownLocation(unit);
  return {
    code: unit.code,
    level: unit.level,
    parent_code: unit.parent_code,
    id: unit.id,
    slug: unit.slug,
    href: unit.href,
    name_km: unit.name_km,
    name_latin: unit.name_latin,
    name_ungegn: unit.name_ungegn,
    unit_type_km: unit.unit_type_km,
    unit_type_latin: unit.unit_type_latin,
    unit_type_en: unit.unit_type_en,
    type: unit.type,
    postal_code: unit.postal_code,
    iso3166_2: unit.iso3166_2,
    lat: location?.lat ?? null,
    lng: location?.lng ?? null,
    bbox_min_lat: location?.bbox?.min_lat ?? null,
    bbox_min_lng: location?.bbox?.min_lng ?? null,
    bbox_max_lat: location?.bbox?.max_lat ?? null,
    bbox_max_lng: location?.bbox?.max_lng ?? null,
    location_source: location?.source ?? null,
  };
}

/**
 * Yields the export in chunks (so a caller can stream it): JSON is an array with one record per line,
 * CSV is RFC 4180 with a header row. Units are ordered by code, optionally only one level.
 */
export function* exportDataset(gazetteer: Gazetteer, format: ExportFormat, level?: Level, locate?: ExportLocator): Generator<string> {
  const units = level ? gazetteer.units.filter((u) => u.level === level) : gazetteer.units;
  if (format === 'csv') {
    yield csvRow(EXPORT_COLUMNS);
    for (const unit of units) {
      const record = exportRecord(unit, locate);
      yield csvRow(EXPORT_COLUMNS.map((column) => record[column]));
    }
    return;
  }
  yield '[\n';
  let first = true;
  for (const unit of units) {
    yield `${first ? '' : ',\n'}${JSON.stringify(exportRecord(unit, locate))}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
