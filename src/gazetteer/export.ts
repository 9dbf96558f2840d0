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
] as const;

export type ExportRecord = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>;
export type ExportFormat = 'json' | 'csv';

export function exportRecord(unit: Unit): ExportRecord {
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
    lat: unit.geo?.lat ?? null,
    lng: unit.geo?.lng ?? null,
  };
}

/**
 * Yields the export in chunks (so a caller can stream it): JSON is an array with one record per line,
 * CSV is RFC 4180 with a header row. Units are ordered by code, optionally only one level.
 */
export function* exportDataset(gazetteer: Gazetteer, format: ExportFormat, level?: Level): Generator<string> {
  const units = level ? gazetteer.units.filter((u) => u.level === level) : gazetteer.units;
  if (format === 'csv') {
    yield csvRow(EXPORT_COLUMNS);
    for (const unit of units) {
      const record = exportRecord(unit);
      yield csvRow(EXPORT_COLUMNS.map((column) => record[column]));
    }
    return;
  }
  yield '[\n';
  let first = true;
  for (const unit of units) {
    yield `${first ? '' : ',\n'}${JSON.stringify(exportRecord(unit))}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
