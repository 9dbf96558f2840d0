/**
 * Planar geometry over pre-flattened rings: point-in-polygon with an explicit "on the boundary" answer and the
 * distance from a point to a polygon's edges, in metres. Pure, allocation-free in the hot path.
 *
 * Coordinates are longitude/latitude degrees, interleaved `[x0, y0, x1, y1, ...]` in one Float64Array; a ring is a
 * closed run of vertices (first = last) given by its start and end vertex index. A polygon is an outer ring followed
 * by its holes.
 */

/** Where a point is relative to a ring or polygon. */
export const OUTSIDE = -1;
export const ON_BOUNDARY = 0;
export const INSIDE = 1;
export type Side = typeof OUTSIDE | typeof ON_BOUNDARY | typeof INSIDE;

/** Metres per degree of latitude (WGS84 mean near 12 N) and of longitude at the equator. */
const M_PER_DEG_LAT = 110_600;
const M_PER_DEG_LNG_EQUATOR = 111_320;

/** Metres per degree of longitude at `lat`: equirectangular, exact enough over the few km the fallbacks look. */
export function metresPerDegreeLng(lat: number): number {
  return M_PER_DEG_LNG_EQUATOR * Math.cos((lat * Math.PI) / 180);
}

/**
 * Crossing-number test of one ring (vertices `start` to `end - 1`, closed). A point exactly on an edge or vertex is
 * ON_BOUNDARY, so that callers can treat shared edges explicitly rather than by the accident of floating point.
 */
export function pointInRing(xy: Float64Array, start: number, end: number, x: number, y: number): Side {
  let inside = false;
  for (let i = start, j = end - 1; i < end; j = i++) {
    const xi = xy[2 * i]!;
    const yi = xy[2 * i + 1]!;
    const xj = xy[2 * j]!;
    const yj = xy[2 * j + 1]!;
    if (xi === x && yi === y) return ON_BOUNDARY;
    if ((yi > y) !== (yj > y)) {
      // Where the edge crosses the horizontal through the point, as a sign test (no division).
      const cross = (x - xi) * (yj - yi) - (xj - xi) * (y - yi);
      if (cross === 0) return ON_BOUNDARY;
      if ((cross > 0) === (yj > yi)) inside = !inside;
    } else if (yi === y && yj === y && (x - xi) * (x - xj) <= 0) {
      return ON_BOUNDARY; // on a horizontal edge
    } else if (yi === y && xi === x) {
      return ON_BOUNDARY;
    }
  }
  return inside ? INSIDE : OUTSIDE;
}

/** A polygon: `rings[2k]`, `rings[2k + 1]` are the start and end vertex of ring k; ring 0 is the outer one. */
export function pointInPolygon(xy: Float64Array, rings: Uint32Array, x: number, y: number): Side {
  const outer = pointInRing(xy, rings[0]!, rings[1]!, x, y);
  if (outer !== INSIDE) return outer;
  for (let k = 2; k < rings.length; k += 2) {
    const hole = pointInRing(xy, rings[k]!, rings[k + 1]!, x, y);
    if (hole === ON_BOUNDARY) return ON_BOUNDARY;
    if (hole === INSIDE) return OUTSIDE;
  }
  return INSIDE;
}

/** Squared distance in metres from (x, y) to the segment a-b, all scaled by `kx` (m per degree of longitude). */
function segmentDistance2(x: number, y: number, ax: number, ay: number, bx: number, by: number, kx: number): number {
  const px = (x - ax) * kx;
  const py = (y - ay) * M_PER_DEG_LAT;
  const dx = (bx - ax) * kx;
  const dy = (by - ay) * M_PER_DEG_LAT;
  const length2 = dx * dx + dy * dy;
  let t = length2 === 0 ? 0 : (px * dx + py * dy) / length2;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const ex = px - t * dx;
  const ey = py - t * dy;
  return ex * ex + ey * ey;
}

/** Distance in metres from a point to the nearest edge of any ring of the polygon (0 on an edge). */
export function distanceToEdges(xy: Float64Array, rings: Uint32Array, x: number, y: number): number {
  const kx = metresPerDegreeLng(y);
  let best = Infinity;
  for (let k = 0; k < rings.length; k += 2) {
    const start = rings[k]!;
    const end = rings[k + 1]!;
    for (let i = start; i < end - 1; i++) {
      const d2 = segmentDistance2(x, y, xy[2 * i]!, xy[2 * i + 1]!, xy[2 * i + 2]!, xy[2 * i + 3]!, kx);
      if (d2 < best) best = d2;
    }
  }
  return Math.sqrt(best);
}

/**
 * The distance in metres from a point to the polygon's edges if it is at most `limitM`, else Infinity. Segments
 * whose both ends lie beyond the limit on one side (in latitude or longitude) are skipped with two comparisons, so
 * a large polygon far from most of its edges costs little: the hot path of the near-boundary and nearest checks.
 */
export function distanceToEdgesWithin(xy: Float64Array, rings: Uint32Array, x: number, y: number, limitM: number): number {
  const kx = metresPerDegreeLng(y);
  const dx = limitM / kx;
  const dy = limitM / M_PER_DEG_LAT;
  const [minX, maxX, minY, maxY] = [x - dx, x + dx, y - dy, y + dy];
  let best = limitM * limitM;
  let found = false;
  for (let k = 0; k < rings.length; k += 2) {
    const end = rings[k + 1]!;
    for (let i = rings[k]!; i < end - 1; i++) {
      const ax = xy[2 * i]!;
      const ay = xy[2 * i + 1]!;
      const bx = xy[2 * i + 2]!;
      const by = xy[2 * i + 3]!;
      if ((ax < minX && bx < minX) || (ax > maxX && bx > maxX) || (ay < minY && by < minY) || (ay > maxY && by > maxY)) continue;
      const d2 = segmentDistance2(x, y, ax, ay, bx, by, kx);
      if (d2 <= best) {
        best = d2;
        found = true;
      }
    }
  }
  return found ? Math.sqrt(best) : Infinity;
}

/** Signed area (degrees²) of a ring: positive counter-clockwise. */
export function ringArea(xy: Float64Array, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end - 1; i++) sum += xy[2 * i]! * xy[2 * i + 3]! - xy[2 * i + 2]! * xy[2 * i + 1]!;
  return sum / 2;
}
