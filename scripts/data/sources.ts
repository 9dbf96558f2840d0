/**
 * Reads the raw sources in data/sources after checking each file against the manifest's SHA-256,
 * so the dataset version always names exactly what it was built from.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseCsvRecords } from '../../src/lib/csv.js';
import type { Level, SourceInfo } from '../../src/gazetteer/types.js';
import { LEVELS } from '../../src/gazetteer/types.js';

export const SOURCES_DIR = new URL('../../data/sources/', import.meta.url).pathname;

interface ManifestEntry extends SourceInfo {
  files: Record<string, string>;
}

/** A unit as pumi describes it, before any repair. */
export interface RawUnit {
  code: string;
  level: Level;
  name_km: string;
  name_latin: string;
  name_ungegn: string | null;
  unit_type_km: string;
  unit_type_latin: string;
  unit_type_en: string;
  unit_type_ungegn: string | null;
  iso3166_2: string | null;
  geo: { lat: number; lng: number; bbox?: { min_lat: number; max_lat: number; min_lng: number; max_lng: number } } | null;
  wikipedia: string | null;
}

export interface PostalRow {
  level: Level;
  ncdd_code: string;
  name_km: string;
  name_latin: string;
  postal_code: string;
}

export interface Sources {
  manifest: ManifestEntry[];
  units: RawUnit[];
  postal: PostalRow[];
}

export function readManifest(dir = SOURCES_DIR): ManifestEntry[] {
  return (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { sources: ManifestEntry[] }).sources;
}

/** Reads a source file, failing if its content is not the one the manifest records. */
export function readVerified(manifest: ManifestEntry[], file: string, dir = SOURCES_DIR): Buffer {
  const expected = manifest.find((s) => file in s.files)?.files[file];
  if (!expected) throw new Error(`data/sources/${file} is not listed in data/sources/manifest.json`);
  const bytes = readFileSync(join(dir, file));
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== expected) {
    throw new Error(`data/sources/${file}: SHA-256 ${actual} does not match the manifest (${expected}); ` +
      'update the manifest and the SOURCE notes when a source changes');
  }
  return bytes;
}

const PUMI_FILE: Record<Level, string> = {
  province: 'pumi/provinces.yml',
  district: 'pumi/districts.yml',
  commune: 'pumi/communes.yml',
  village: 'pumi/villages.yml',
};

/** pumi keeps every value as a string (codes, coordinates); this is the part of its schema we read. */
interface PumiRecord {
  name: { km: string; latin: string; ungegn?: string };
  administrative_unit: { km: string; latin: string; en: string; ungegn?: string };
  iso3166_2?: string;
  links?: { wikipedia?: string };
  geodata?: { lat: string; long: string; bounding_box?: [string, string, string, string] };
}

function toRawUnit(level: Level, code: string, record: PumiRecord): RawUnit {
  const geo = record.geodata;
  const box = geo?.bounding_box;
  return {
    code,
    level,
    name_km: String(record.name.km ?? ''),
    name_latin: String(record.name.latin ?? ''),
    name_ungegn: record.name.ungegn ?? null,
    unit_type_km: record.administrative_unit.km,
    unit_type_latin: record.administrative_unit.latin,
    unit_type_en: record.administrative_unit.en,
    unit_type_ungegn: record.administrative_unit.ungegn ?? null,
    iso3166_2: record.iso3166_2 ?? null,
    geo: geo
      ? {
          lat: Number(geo.lat),
          lng: Number(geo.long),
          // pumi's order is south, north, west, east.
          ...(box ? { bbox: { min_lat: Number(box[0]), max_lat: Number(box[1]), min_lng: Number(box[2]), max_lng: Number(box[3]) } } : {}),
        }
      : null,
    wikipedia: record.links?.wikipedia ?? null,
  };
}

export function readSources(dir = SOURCES_DIR): Sources {
  const manifest = readManifest(dir);
  const units: RawUnit[] = [];
  for (const level of LEVELS) {
    const text = readVerified(manifest, PUMI_FILE[level], dir).toString('utf8');
    const doc = parseYaml(text) as Record<string, Record<string, PumiRecord>>;
    const records = Object.values(doc)[0];
    if (!records) throw new Error(`${PUMI_FILE[level]} has no records`);
    for (const [code, record] of Object.entries(records)) units.push(toRawUnit(level, code, record));
  }
  const postalText = readVerified(manifest, 'prakas77/postal_codes_prakas77_by_ncdd.csv', dir).toString('utf8');
  const postal = parseCsvRecords(postalText).map((row) => ({
    level: row.level as Level,
    ncdd_code: row.ncdd_code!,
    name_km: row.name_km!,
    name_latin: row.name_latin!,
    postal_code: row.postal_code!,
  }));
  return { manifest, units, postal };
}
