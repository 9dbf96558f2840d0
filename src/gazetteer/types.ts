/** The four levels of Cambodia's administrative hierarchy, top down. */
export const LEVELS = ['province', 'district', 'commune', 'village'] as const;
export type Level = (typeof LEVELS)[number];

/** Length of an NCDD code at each level: 2, 4, 6 and 8 digits. */
export const CODE_LENGTH: Record<Level, number> = { province: 2, district: 4, commune: 6, village: 8 };

/** The spec's `type`: `capital` for Phnom Penh, otherwise the level. */
export type UnitType = Level | 'capital';

/** Centroid and bounding box, where pumi has them (all provinces, many districts and communes). */
export interface Geo {
  lat: number;
  lng: number;
  bbox?: { min_lat: number; max_lat: number; min_lng: number; max_lng: number };
}

/** One administrative unit as stored in the generated dataset (`data/gazetteer.json`). */
export interface Unit {
  /** NCDD code: 2 (province), 4 (district), 6 (commune) or 8 (village) digits. */
  code: string;
  level: Level;
  parent_code: string | null;
  /** UUIDv5 of `code` under {@link UNIT_ID_NAMESPACE}: stable across releases and machines. */
  id: string;
  /** Lowercase ASCII from the Latin name, unique among siblings. */
  slug: string;
  /** `/locations/<province>/<district>/<commune>/<village>` down to this unit. */
  href: string;
  name_km: string;
  name_latin: string;
  /** UNGEGN romanization with diacritics, where pumi has it. */
  name_ungegn: string | null;
  /** Local administrative unit, e.g. ខណ្ឌ / Khan / Section. */
  unit_type_km: string;
  unit_type_latin: string;
  unit_type_en: string;
  unit_type_ungegn: string | null;
  type: UnitType;
  /** Official 6-digit postal code (MPTC Prakas No. 77); a village carries its commune's. */
  postal_code: string;
  iso3166_2: string | null;
  geo: Geo | null;
  wikipedia: string | null;
}

/** A change the build made to the raw source data, recorded in the dataset. */
export interface Repair {
  code: string;
  field: 'name_km' | 'name_latin';
  before: string;
  after: string;
  /** The rule or the curated repair that made the change. */
  rule: string;
}

export interface Dataset {
  /** Names the sources, e.g. `2026.06.19-pumi.3a5c2be+prakas77.2025-12-30`. */
  version: string;
  sources: SourceInfo[];
  repairs: Repair[];
  /** Every unit, ordered by code. */
  units: Unit[];
}

export interface SourceInfo {
  name: string;
  title: string;
  commit: string | null;
  date: string;
  license: string;
}
