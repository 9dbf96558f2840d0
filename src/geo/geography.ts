/**
 * Which commune a point is in, and the shape of every province, district and commune: the geometry artefact
 * (./format.ts) loaded once, a Flatbush index over every polygon's box, and exact point-in-polygon tests. No HTTP.
 *
 * Honest answers: the polygons are from 2014 and simplified, so a point near a boundary also names the communes
 * within `boundaryToleranceM`; a commune split after 2014 names the communes that may now hold the point; a point in
 * no polygon (Tonle Sap, a gap, just off the coast) answers the nearest commune within a cap, flagged, with the
 * distance; farther away it answers nothing, with a reason.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Flatbush from 'flatbush';
import { distanceToEdges, distanceToEdgesWithin, INSIDE, metresPerDegreeLng, ON_BOUNDARY, OUTSIDE, pointInPolygon, pointInRing } from './geometry.js';
import type { GeoIndexFile, GeoLevel, GeoUnitRecord, Unshaped } from './format.js';

export const GEO_UNITS_PATH = fileURLToPath(new URL('../../data/geo/units.json', import.meta.url));
export const GEO_COORDINATES_PATH = fileURLToPath(new URL('../../data/geo/coordinates.bin', import.meta.url));

const M_PER_DEG_LAT = 110_600;

export interface GeographyOptions {
  /** A point this close (metres) to another commune's polygon also names it (`near`). Default 100. */
  boundaryToleranceM?: number;
  /** A point in a hole of the country's outline (Tonle Sap, a gap) answers the nearest commune up to this far. Default 30,000. */
  inlandMaxM?: number;
  /** A point outside the outline (coast, border) answers the nearest commune up to this far. Default 3,000. */
  outsideMaxM?: number;
}

export const GEO_DEFAULTS: Required<GeographyOptions> = { boundaryToleranceM: 100, inlandMaxM: 30_000, outsideMaxM: 3_000 };

/** Why an answer is approximate. */
export type ApproximateReason =
  | 'split_after_2014' // the 2014 polygon now holds several communes: see candidates
  | 'near_boundary' // within the tolerance of another commune: see near
  | 'on_boundary' // exactly on a shared edge or vertex: see near
  | 'outside_polygons'; // in no polygon (lake, gap, coast): the nearest one, see distance_m

export interface ReverseHit {
  /** The commune (code) whose 2014 polygon holds the point, or the nearest one. */
  code: string;
  approximate: boolean;
  reasons: ApproximateReason[];
  /** 0 inside a polygon; otherwise metres to the nearest polygon's edge. */
  distanceM: number;
  /** Communes the point may be in since the 2014 polygon was split (the hit itself first); empty if not split. */
  candidates: string[];
  /** Other communes within the boundary tolerance, nearest first, with their distance. */
  near: { code: string; distanceM: number }[];
}

export type ReverseAnswer =
  | { hit: ReverseHit; reason?: undefined }
  | { hit: null; reason: 'outside_cambodia'; distanceM: number | null };

export interface ShapedUnit extends GeoUnitRecord {
  /** Polygon parts: each an outer ring and holes, as [start, end) vertex pairs into `Geography.xy`. */
  parts: Uint32Array[];
}

export class Geography {
  readonly attribution: string;
  readonly version: string;
  /** Every vertex, [lng, lat, lng, lat, ...] in degrees. */
  readonly xy: Float64Array;
  private readonly units = new Map<string, ShapedUnit>();
  private readonly unshaped = new Map<string, Unshaped>();
  /** Commune polygon parts, in index order: unit and its rings. */
  private readonly partUnit: ShapedUnit[] = [];
  private readonly partRings: Uint32Array[] = [];
  private readonly index: Flatbush;
  private readonly holes: Uint32Array[] = [];
  private readonly holesXy: Float64Array;
  private readonly options: Required<GeographyOptions>;
  private readonly countryBox: [number, number, number, number];

  constructor(file: GeoIndexFile, coordinates: Int32Array, options: GeographyOptions = {}) {
    this.options = { ...GEO_DEFAULTS, ...options };
    this.attribution = file.attribution;
    this.version = file.version;
    if (coordinates.length !== file.vertices * 2) throw new Error(`the geometry has ${coordinates.length / 2} vertices, its index says ${file.vertices}`);
    this.xy = new Float64Array(coordinates.length);
    for (let i = 0; i < coordinates.length; i++) this.xy[i] = coordinates[i]! * file.quantum;
    let communeParts = 0;
    for (const record of file.units) if (record.level === 'commune') communeParts += record.polygons.length;
    this.index = new Flatbush(communeParts);
    const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const record of file.units) {
      const parts: Uint32Array[] = [];
      let vertex = record.offset;
      let ring = 0;
      for (const ringCount of record.polygons) {
        const pairs = new Uint32Array(ringCount * 2);
        for (let k = 0; k < ringCount; k++) {
          pairs[2 * k] = vertex;
          vertex += record.rings[ring++]!;
          pairs[2 * k + 1] = vertex;
        }
        parts.push(pairs);
      }
      const unit: ShapedUnit = { ...record, parts };
      this.units.set(record.code, unit);
      if (record.level !== 'commune') continue;
      for (const pairs of parts) {
        const [minX, minY, maxX, maxY] = this.ringBox(pairs[0]!, pairs[1]!);
        this.index.add(minX, minY, maxX, maxY);
        this.partUnit.push(unit);
        this.partRings.push(pairs);
        box[0] = Math.min(box[0], minX); box[1] = Math.min(box[1], minY); box[2] = Math.max(box[2], maxX); box[3] = Math.max(box[3], maxY);
      }
    }
    this.index.finish();
    this.countryBox = box;
    const holeValues = file.holes.flat(2);
    this.holesXy = Float64Array.from(holeValues);
    let at = 0;
    for (const ring of file.holes) {
      this.holes.push(Uint32Array.of(at, at + ring.length));
      at += ring.length;
    }
    for (const u of file.unshaped) this.unshaped.set(u.code, u);
  }

  private ringBox(start: number, end: number): [number, number, number, number] {
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = start; i < end; i++) {
      const x = this.xy[2 * i]!;
      const y = this.xy[2 * i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    return [minX, minY, maxX, maxY];
  }

  /** The shape of a province, district or commune, if it has one. */
  shape(code: string): ShapedUnit | undefined {
    return this.units.get(code);
  }

  /** A current commune without a 2014 polygon: which polygons it came from. */
  unshapedCommune(code: string): Unshaped | undefined {
    return this.unshaped.get(code);
  }

  /** Every shaped unit of a level, in code order. */
  shapes(level: GeoLevel): ShapedUnit[] {
    return [...this.units.values()].filter((u) => u.level === level);
  }

  /** Which polygon parts hold (or touch) the point, by the index: the answer the brute-force test compares with. */
  private locate(x: number, y: number): { inside: ShapedUnit | null; touching: ShapedUnit[] } {
    let inside: ShapedUnit | null = null;
    const touching: ShapedUnit[] = [];
    // Flatbush calls the filter for each box hit; returning false keeps its result list empty (no allocation).
    this.index.search(x, y, x, y, (i) => {
      if (inside) return false;
      const side = pointInPolygon(this.xy, this.partRings[i]!, x, y);
      if (side === INSIDE) inside = this.partUnit[i]!;
      else if (side === ON_BOUNDARY && !touching.includes(this.partUnit[i]!)) touching.push(this.partUnit[i]!);
      return false;
    });
    return { inside, touching };
  }

  /** The commune whose polygon holds the point, by scanning every polygon (tests compare the index with this). */
  bruteForce(lng: number, lat: number): string | null {
    for (let i = 0; i < this.partRings.length; i++) {
      if (pointInPolygon(this.xy, this.partRings[i]!, lng, lat) === INSIDE) return this.partUnit[i]!.code;
    }
    return null;
  }

  /** The commune whose 2014 polygon strictly contains the point, by the index; null if none. */
  communeAt(lng: number, lat: number): string | null {
    return this.locate(lng, lat).inside?.code ?? null;
  }

  /** Whether the point is strictly inside one of the unit's polygons. */
  contains(unit: ShapedUnit, lng: number, lat: number): boolean {
    return unit.parts.some((rings) => pointInPolygon(this.xy, rings, lng, lat) === INSIDE);
  }

  /** Distance in metres from the point to a unit's edges. */
  distanceTo(unit: ShapedUnit, lng: number, lat: number): number {
    let best = Infinity;
    for (const rings of unit.parts) best = Math.min(best, distanceToEdges(this.xy, rings, lng, lat));
    return best;
  }

  /** Distance in metres from the point to a unit's edges if at most `limitM`, else Infinity (cheaper than distanceTo). */
  private distanceWithin(unit: ShapedUnit, lng: number, lat: number, limitM: number): number {
    let best = Infinity;
    for (const rings of unit.parts) best = Math.min(best, distanceToEdgesWithin(this.xy, rings, lng, lat, limitM));
    return best;
  }

  /** Communes (other than `except`) within `radiusM` of the point, nearest first. */
  private within(lng: number, lat: number, radiusM: number, except: ShapedUnit | null): { unit: ShapedUnit; distanceM: number }[] {
    const dx = radiusM / metresPerDegreeLng(lat);
    const dy = radiusM / M_PER_DEG_LAT;
    const found = new Map<ShapedUnit, number>();
    for (const i of this.index.search(lng - dx, lat - dy, lng + dx, lat + dy)) {
      const unit = this.partUnit[i]!;
      if (unit === except) continue;
      const rings = this.partRings[i]!;
      const d = pointInPolygon(this.xy, rings, lng, lat) === OUTSIDE ? distanceToEdgesWithin(this.xy, rings, lng, lat, radiusM) : 0;
      if (d <= radiusM && d < (found.get(unit) ?? Infinity)) found.set(unit, d);
    }
    return [...found].map(([unit, distanceM]) => ({ unit, distanceM })).sort((a, b) => a.distanceM - b.distanceM || (a.unit.code < b.unit.code ? -1 : 1));
  }

  /** Whether the point is in a hole of the country's outline (Tonle Sap, a gap between polygons). */
  private inHole(lng: number, lat: number): boolean {
    return this.holes.some((h) => pointInRing(this.holesXy, h[0]!, h[1]!, lng, lat) !== OUTSIDE);
  }

  /** Reverse geocoding of one point (degrees; callers validate the range). */
  reverse(lat: number, lng: number): ReverseAnswer {
    const { boundaryToleranceM, inlandMaxM, outsideMaxM } = this.options;
    const [minX, minY, maxX, maxY] = this.countryBox;
    const margin = Math.max(inlandMaxM, outsideMaxM) / 100_000; // > the cap in degrees at these latitudes
    if (lng < minX - margin || lng > maxX + margin || lat < minY - margin || lat > maxY + margin) {
      return { hit: null, reason: 'outside_cambodia', distanceM: null };
    }
    const { inside, touching } = this.locate(lng, lat);
    const reasons: ApproximateReason[] = [];
    let unit: ShapedUnit;
    let distanceM = 0;
    let near: { code: string; distanceM: number }[];
    if (inside) {
      unit = inside;
      near = this.distanceWithin(unit, lng, lat, boundaryToleranceM) <= boundaryToleranceM
        ? this.within(lng, lat, boundaryToleranceM, unit).map((n) => ({ code: n.unit.code, distanceM: round(n.distanceM) }))
        : [];
      if (near.length > 0) reasons.push('near_boundary');
    } else if (touching.length > 0) {
      touching.sort((a, b) => (a.code < b.code ? -1 : 1));
      unit = touching[0]!;
      reasons.push('on_boundary');
      const others = this.within(lng, lat, boundaryToleranceM, unit);
      near = others.map((n) => ({ code: n.unit.code, distanceM: round(n.distanceM) }));
    } else {
      const cap = this.inHole(lng, lat) ? inlandMaxM : outsideMaxM;
      const found = this.within(lng, lat, cap, null);
      if (found.length === 0) return { hit: null, reason: 'outside_cambodia', distanceM: null };
      unit = found[0]!.unit;
      distanceM = round(found[0]!.distanceM);
      reasons.push('outside_polygons');
      near = found.slice(1).filter((n) => n.distanceM - found[0]!.distanceM <= boundaryToleranceM)
        .map((n) => ({ code: n.unit.code, distanceM: round(n.distanceM) }));
    }
    const candidates = unit.split ? [unit.code, ...unit.split] : [];
    if (candidates.length > 0) reasons.unshift('split_after_2014');
    return { hit: { code: unit.code, approximate: reasons.length > 0, reasons, distanceM, candidates, near } };
  }
}

const round = (metres: number) => Math.round(metres);

/** Reads the artefact written by `npm run build:geo`; throws with the path if it is missing. */
export function loadGeography(options: GeographyOptions = {}, unitsPath = GEO_UNITS_PATH, coordinatesPath = GEO_COORDINATES_PATH): Geography {
  let file: GeoIndexFile;
  let bytes: Buffer;
  try {
    file = JSON.parse(readFileSync(unitsPath, 'utf8')) as GeoIndexFile;
    bytes = readFileSync(coordinatesPath);
  } catch (error) {
    throw new Error(`cannot read the geometry at ${unitsPath} (run npm run build:geo): ${(error as Error).message}`, { cause: error });
  }
  // Little-endian int32 (every platform Node runs on); copied if the buffer is not 4-byte aligned.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : Buffer.from(bytes);
  const coordinates = new Int32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
  return new Geography(file, coordinates, options);
}
