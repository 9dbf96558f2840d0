/**
 * The geometry artefact written by `npm run build:geo` (scripts/build-geo.ts) and read at start (./load.ts):
 *
 *   data/geo/units.json        one record per province, district and commune that has a shape (readable, diffable)
 *   data/geo/coordinates.bin   every vertex as two little-endian int32 (longitude, latitude) in micro-degrees
 *
 * Rings are pre-flattened: a unit's `rings` lists vertex counts, ring by ring, and `polygons` how many rings each
 * polygon has (outer ring first, then its holes); its vertices start at `offset` in coordinates.bin. Loading is one
 * read and one Int32 → Float64 pass, no JSON of coordinates.
 */
import type { Level } from '../gazetteer/types.js';

/** Coordinates are integers of this many degrees (1e-6 degree is about 11 cm). */
export const QUANTUM = 1e-6;

export const GEO_ATTRIBUTION = 'Boundaries: Open Development Cambodia / Open Development Mekong (2014), via geoBoundaries '
  + 'gbOpen KHM v6 (Runfola et al. 2020), CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/); matched to NCDD codes by kh-address.';

export type GeoLevel = Exclude<Level, 'village'>;

export interface GeoUnitRecord {
  code: string;
  level: GeoLevel;
  /** First vertex in coordinates.bin. */
  offset: number;
  /** Vertex count of each ring (closed: first = last). */
  rings: number[];
  /** Ring count of each polygon (outer ring, then its holes). */
  polygons: number[];
  /** [min lng, min lat, max lng, max lat]. */
  bbox: [number, number, number, number];
  /** A point inside the unit (pole of inaccessibility of its largest polygon), [lng, lat]. */
  point: [number, number];
  /**
   * Communes only: other current communes that were split from or created inside this 2014 polygon (see
   * data/GEO-REPAIRS.md). A point in it may be in any of them.
   */
  split?: string[];
}

/** A current commune without a 2014 polygon: the polygons (by commune code) it came from. */
export interface Unshaped {
  code: string;
  from: string[];
  why: string;
}

export interface GeoIndexFile {
  comment: string;
  attribution: string;
  /** Identifies the geometry build (source and crosswalk), for ETags. */
  version: string;
  quantum: number;
  vertices: number;
  units: GeoUnitRecord[];
  /** Holes of the country's outline (Tonle Sap and gaps between polygons), as [lng, lat] rings. */
  holes: number[][][];
  unshaped: Unshaped[];
}
