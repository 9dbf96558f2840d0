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
  /** Slugs the unit had before a name repair changed its Latin name: old paths still resolve (301 to `href`). */
  former_slugs?: string[];
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

/** What happened to a unit. */
export const EVENT_KINDS = ['created', 'retired', 'recoded', 'renamed', 'moved', 'reclassified', 'recorded'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Where a fact of the history comes from. */
export interface EventSource {
  /** `pumi-history` (a pumi commit), `ncdd-gazetteer-2024-10-14` (its Reference / Official Note), or `curated`. */
  source: 'pumi-history' | 'ncdd-gazetteer-2024-10-14' | 'curated';
  /** pumi commit (`a53e6e2`), NCDD export row (`row 1201`) or the curated rule's id. */
  ref: string;
  /** The source's own words (the NCDD note, pumi's name change), or the curated evidence. */
  text: string;
}

/**
 * One event in the history of a unit (data/history.json). `code` is the unit the event is about: for `recoded`
 * the new code (its `predecessors` hold the old one), for `retired` the code that no longer exists.
 * - created: the unit first appears. retired: the code no longer exists (`successors` are today's units).
 * - recoded: the unit got a new code (often with a new parent). renamed: its name changed.
 * - moved: it went to another parent (`former_parents`). reclassified: its type changed (srok to krong, ...).
 * - recorded: the NCDD export cites a legal act for the unit without saying what changed.
 */
export interface UnitEvent {
  code: string;
  level: Level;
  event: EventKind;
  /** Date of the legal act where a source gives it (YYYY-MM-DD), else null. */
  date: string | null;
  /** Date pumi recorded the change (its sync date, not a legal date), for events seen in pumi's history. */
  recorded: string | null;
  /** The legal act as the NCDD export cites it, e.g. `Royal Degree 1445`, else null. */
  instrument: string | null;
  predecessors: string[];
  successors: string[];
  /** Codes of the units that were this unit's parents before the event (moved, recoded into another parent). */
  former_parents: string[];
  /** The name before a rename or a recode, where a source gives it. */
  name_before: { km: string | null; latin: string | null } | null;
  sources: EventSource[];
}

/** A code that no longer exists, with the units that replaced it or the reason it has none. */
export interface RetiredCode {
  code: string;
  level: Level;
  name_km: string;
  name_latin: string;
  /** Today's units, following every recode (empty only with a reason). */
  successors: string[];
  /** How the successors were found (or why there are none). */
  reason: string;
  /** pumi's sync date of the retirement. */
  recorded: string | null;
}

/** The unit-events table, generated by `npm run build:data` into data/history.json. */
export interface History {
  version: string;
  events: UnitEvent[];
  retired: RetiredCode[];
}
