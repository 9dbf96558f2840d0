/**
 * The dataset as downloadable files (GET /v1/dataset): JSON with the version, licence and attribution around the
 * units; CSV with the dataset version on every row; GeoJSON of the units' centroids. Pure: yields text chunks, so the
 * caller decides when to pause (building the whole JSON in one go holds the event loop for about 300 ms).
 */
import { csvRow } from '../lib/csv.js';
import { EXPORT_COLUMNS, exportRecord } from './export.js';
import type { Gazetteer } from './gazetteer.js';
import type { Level, Unit } from './types.js';

/** A unit's GeoJSON geometry (e.g. its boundary) with extra properties, or null to fall back on its centroid. */
export type GeometryOf = (unit: Unit) => { geometry: object; properties?: Record<string, unknown> } | null;

export const DOWNLOAD_FORMATS = ['json', 'csv', 'geojson'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

export const LICENCE = 'Compilation and code: MIT (kh-address). Names, codes and centroids: the NCDD gazetteer as maintained by '
  + 'the pumi project (github.com/dwilkie/pumi), MIT (c) 2019 David Wilkie. Postal codes: MPTC Prakas No. 77 of 30 December 2025, '
  + 'a government document free for public use with citation.';
export const ATTRIBUTION = 'Cambodian administrative units: National Committee for Sub-National Democratic Development (NCDD) '
  + 'gazetteer, via pumi; postal codes: Ministry of Posts and Telecommunications, Prakas No. 77 (30 December 2025); compiled by kh-address.';

export interface DownloadFile {
  /** e.g. `kh-address-2026.06.19-pumi.3a5c2be+prakas77.2025-12-30-villages.csv` */
  filename: string;
  contentType: string;
  /** How many units the file holds. */
  units: number;
  chunks: Iterable<string>;
}

const PLURAL: Record<Level, string> = { province: 'provinces', district: 'districts', commune: 'communes', village: 'villages' };

/** The file name: the dataset version and the level in it, ASCII only (safe in Content-Disposition). */
export function downloadFilename(version: string, format: DownloadFormat, level?: Level): string {
  const safeVersion = version.replace(/[^0-9A-Za-z.+_-]/g, '_');
  return `kh-address-${safeVersion}-${level ? PLURAL[level] : 'all'}.${format}`;
}

/**
 * `geometryOf` (GeoJSON only): where a unit has a boundary, its polygons; `boundaryAttribution` is then added to the
 * file's attribution. Without it, or for units it has none for (villages), Points at the centroids.
 */
export function downloadFile(gazetteer: Gazetteer, format: DownloadFormat, level?: Level,
  { geometryOf, boundaryAttribution }: { geometryOf?: GeometryOf; boundaryAttribution?: string } = {}): DownloadFile {
  const units = level ? gazetteer.units.filter((u) => u.level === level) : gazetteer.units;
  const filename = downloadFilename(gazetteer.version, format, level);
  const header = {
    dataset: 'kh-address',
    version: gazetteer.version,
    level: level ?? 'all',
    count: units.length,
    licence: LICENCE,
    attribution: ATTRIBUTION,
  };
  switch (format) {
    case 'json':
      return { filename, contentType: 'application/json; charset=utf-8', units: units.length, chunks: (function* () {
        // The metadata first, then one unit per line: readable, diffable, and still one JSON document.
        yield `${JSON.stringify(header).slice(0, -1)},"columns":${JSON.stringify(EXPORT_COLUMNS)},"units":[\n`;
        for (let i = 0; i < units.length; i++) yield `${i === 0 ? '' : ',\n'}${JSON.stringify(exportRecord(units[i]!))}`;
        yield '\n]}\n';
      })() };
    case 'csv':
      return { filename, contentType: 'text/csv; charset=utf-8; header=present', units: units.length, chunks: (function* () {
        yield csvRow([...EXPORT_COLUMNS, 'dataset_version']);
        for (const unit of units) {
          const record = exportRecord(unit);
          yield csvRow([...EXPORT_COLUMNS.map((column) => record[column]), gazetteer.version]);
        }
      })() };
    case 'geojson':
      return { filename, contentType: 'application/geo+json', units: units.length, chunks: (function* () {
        // RFC 7946 allows foreign members: the version, licence and attribution travel with the features.
        const note = geometryOf
          ? 'Provinces, districts and communes: MultiPolygon boundaries (2014 polygons matched to NCDD codes; approximate=true where a commune was split later); villages: Points at their centroids (pumi).'
          : 'Point geometries at each unit\'s centroid (pumi); boundaries are not in this file.';
        const meta = geometryOf && boundaryAttribution ? { ...header, attribution: `${ATTRIBUTION} ${boundaryAttribution}` } : header;
        yield `{"type":"FeatureCollection",${JSON.stringify(meta).slice(1, -1)},"geometry_note":${JSON.stringify(note)},"features":[\n`;
        let first = true;
        for (const unit of units) {
          const record = exportRecord(unit);
          const shaped = geometryOf?.(unit) ?? null;
          const geometry = shaped?.geometry ?? (unit.geo ? { type: 'Point', coordinates: [unit.geo.lng, unit.geo.lat] } : null);
          yield `${first ? '' : ',\n'}${JSON.stringify({ type: 'Feature', id: unit.code, geometry, properties: { ...record, ...shaped?.properties } })}`;
          first = false;
        }
        yield '\n]}\n';
      })() };
  }
}
