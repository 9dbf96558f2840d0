/**
 * The geography core against the real artefact: every commune's point on surface, the lake, the border, shared edges
 * and vertices, splits, and the index against two brute-force scans (ours, and point-in-polygon-hao as an independent
 * implementation) on many random points.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import pip from 'point-in-polygon-hao';
import { loadGeography, type Geography, type ShapedUnit } from '../../src/geo/geography.js';
import { gazetteer } from '../helper.js';

let cached: Geography | undefined;
const geo = () => (cached ??= loadGeography());

/** A unit's polygons as GeoJSON-style arrays, for point-in-polygon-hao. */
function asArrays(g: Geography, unit: ShapedUnit): number[][][][] {
  return unit.parts.map((rings) => {
    const out: number[][][] = [];
    for (let k = 0; k < rings.length; k += 2) {
      const ring: number[][] = [];
      for (let i = rings[k]!; i < rings[k + 1]!; i++) ring.push([g.xy[2 * i]!, g.xy[2 * i + 1]!]);
      out.push(ring);
    }
    return out;
  });
}

test('the artefact has every province and district and 1,633 communes, each with a current code', () => {
  const g = geo();
  assert.equal(g.shapes('province').length, 25);
  assert.equal(g.shapes('district').length, gazetteer().provinces().flatMap((p) => gazetteer().children(p.code)).length);
  assert.equal(g.shapes('commune').length, 1633);
  for (const level of ['province', 'district', 'commune'] as const) {
    for (const unit of g.shapes(level)) assert.equal(gazetteer().byCode(unit.code)?.level, level, unit.code);
  }
  assert.match(g.attribution, /CC BY 4\.0/);
  assert.match(g.attribution, /Open Development Cambodia/);
});

test('the point on surface of every commune with a polygon reverses to that commune', () => {
  const g = geo();
  const wrong: string[] = [];
  for (const unit of g.shapes('commune')) {
    const [lng, lat] = unit.point;
    const answer = g.reverse(lat, lng);
    if (answer.hit?.code !== unit.code || answer.hit.distanceM !== 0 || g.communeAt(lng, lat) !== unit.code) wrong.push(unit.code);
  }
  assert.deepEqual(wrong, []);
});

test('the point on surface of every district and province lies in one of its communes', () => {
  const g = geo();
  for (const level of ['district', 'province'] as const) {
    for (const unit of g.shapes(level)) {
      const [lng, lat] = unit.point;
      const code = g.communeAt(lng, lat);
      assert.ok(code?.startsWith(unit.code), `${level} ${unit.code}: its point is in ${code}`);
    }
  }
});

test('points outside the country answer nothing, with a reason', () => {
  for (const [lat, lng, where] of [[13.7563, 100.5018, 'Bangkok'], [10.8231, 106.6297, 'Ho Chi Minh City'], [0, 0, 'null island'],
    [-89.9, 179.9, 'far south'], [15.2, 105.3, 'Laos, 60 km north of the border'], [9.5, 103.0, 'the Gulf of Thailand']] as const) {
    const answer = geo().reverse(lat, lng);
    assert.equal(answer.hit, null, where);
    assert.equal(answer.reason, 'outside_cambodia', where);
  }
});

test('a point in Tonle Sap (a hole in the polygons) answers the nearest commune, flagged, with the distance', () => {
  const g = geo();
  assert.equal(g.communeAt(104.1, 12.85), null, 'no polygon holds the lake');
  const answer = g.reverse(12.85, 104.1);
  assert.ok(answer.hit);
  assert.equal(answer.hit.approximate, true);
  assert.deepEqual(answer.hit.reasons, ['outside_polygons']);
  assert.ok(answer.hit.distanceM > 1000 && answer.hit.distanceM < 30_000, `distance ${answer.hit.distanceM}`);
  // The nearest commune is the one whose edge is at that distance, and none is nearer.
  const unit = g.shape(answer.hit.code)!;
  assert.ok(Math.abs(g.distanceTo(unit, 104.1, 12.85) - answer.hit.distanceM) <= 1);
  for (const other of g.shapes('commune')) assert.ok(g.distanceTo(other, 104.1, 12.85) >= answer.hit.distanceM - 1, other.code);
});

test('a point just off the coast answers the nearest coastal commune; far out at sea, nothing', () => {
  const g = geo();
  const kep = g.shape('230201')!; // Kep, on the coast
  // Walk south from Kep's point until no polygon holds the point, then a little farther.
  let lat = kep.point[1];
  while (g.communeAt(kep.point[0], lat) !== null) lat -= 0.001;
  const near = g.reverse(lat - 0.005, kep.point[0]);
  assert.ok(near.hit, 'about 500 m off the coast');
  assert.ok(near.hit.reasons.includes('outside_polygons'));
  assert.ok(near.hit.distanceM > 0 && near.hit.distanceM <= 3000);
  assert.equal(g.reverse(lat - 0.2, kep.point[0]).hit, null, 'about 22 km out at sea');
});

test('exactly on a vertex shared by communes: one of them, flagged on_boundary, the others named at distance 0', () => {
  const g = geo();
  const a = g.shape('120101')!; // Tonle Basak, Phnom Penh: shares vertices with its neighbours
  const counts = new Map<string, number>();
  for (const rings of a.parts) {
    for (let i = rings[0]!; i < rings[1]! - 1; i++) {
      const lng = g.xy[2 * i]!;
      const lat = g.xy[2 * i + 1]!;
      const answer = g.reverse(lat, lng);
      assert.ok(answer.hit, `vertex ${lng},${lat}`);
      assert.ok(answer.hit.reasons.includes('on_boundary'), `vertex ${lng},${lat}: ${answer.hit.reasons.join()}`);
      const all = [answer.hit.code, ...answer.hit.near.filter((n) => n.distanceM === 0).map((n) => n.code)];
      assert.ok(all.includes('120101'), `vertex ${lng},${lat} names ${all.join()}`);
      for (const code of all) counts.set(code, (counts.get(code) ?? 0) + 1);
    }
  }
  assert.ok(counts.size >= 3, 'the vertices are shared with several neighbours');
});

test('on a shared edge: the answer is one of the two communes and names the other', () => {
  const g = geo();
  const a = g.shape('120101')!;
  const rings = a.parts[0]!;
  let checked = 0;
  for (let i = rings[0]!; i < rings[1]! - 1; i++) {
    const lng = (g.xy[2 * i]! + g.xy[2 * i + 2]!) / 2;
    const lat = (g.xy[2 * i + 1]! + g.xy[2 * i + 3]!) / 2;
    const answer = g.reverse(lat, lng);
    assert.ok(answer.hit);
    const named = [answer.hit.code, ...answer.hit.near.map((n) => n.code)];
    assert.ok(named.includes('120101'), `edge midpoint ${lng},${lat} names ${named.join()}`);
    if (answer.hit.code === '120101' && answer.hit.near.length === 0) continue; // the outer coastline/riverbank
    assert.ok(named.length >= 2 && answer.hit.approximate, `edge midpoint ${lng},${lat}`);
    checked++;
  }
  assert.ok(checked > 5);
});

test('a commune split after 2014 answers the 2014 polygon\'s commune with the candidates', () => {
  const g = geo();
  const [lng, lat] = g.shape('120608')!.point; // Stueng Mean chey 1: 2 and 3 were split from it
  const answer = g.reverse(lat, lng);
  assert.equal(answer.hit?.code, '120608');
  assert.deepEqual(answer.hit?.candidates, ['120608', '120609', '120610']);
  assert.ok(answer.hit?.reasons.includes('split_after_2014'));
  assert.equal(g.unshapedCommune('120609')?.from.join(), '120608');
});

test('property: the index answers what a scan of every polygon answers, and point-in-polygon-hao agrees', () => {
  const g = geo();
  const communes = g.shapes('commune').map((u) => ({ code: u.code, polygons: asArrays(g, u) }));
  fc.assert(fc.property(
    fc.double({ min: 102.3, max: 107.7, noNaN: true }), fc.double({ min: 9.9, max: 14.7, noNaN: true }),
    (lng, lat) => {
      const indexed = g.communeAt(lng, lat);
      assert.equal(indexed, g.bruteForce(lng, lat));
      const hao = communes.filter((c) => c.polygons.some((p) => pip([lng, lat], p) === true)).map((c) => c.code);
      if (hao.length === 1) assert.equal(indexed, hao[0]);
      else assert.equal(hao.length, 0, `hao: ${hao.join()}`);
      if (hao.length === 0) assert.equal(indexed, null);
    },
  ), { numRuns: 3000 });
});

test('property: any point answers in the documented shape; inside a polygon the distance is 0', () => {
  const g = geo();
  fc.assert(fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), (lat, lng) => {
    const answer = g.reverse(lat, lng);
    if (answer.hit === null) return assert.equal(answer.reason, 'outside_cambodia');
    assert.equal(answer.hit.approximate, answer.hit.reasons.length > 0);
    assert.equal(answer.hit.distanceM === 0, !answer.hit.reasons.includes('outside_polygons'));
  }), { numRuns: 2000 });
});

test('property: the bounded edge distance equals the full one within its limit, and is Infinity beyond', async () => {
  const { distanceToEdges, distanceToEdgesWithin } = await import('../../src/geo/geometry.js');
  const g = geo();
  const shapes = g.shapes('commune');
  fc.assert(fc.property(fc.integer({ min: 0, max: shapes.length - 1 }), fc.double({ min: -0.05, max: 0.05, noNaN: true }),
    fc.double({ min: -0.05, max: 0.05, noNaN: true }), fc.integer({ min: 1, max: 5000 }), (i, dx, dy, limit) => {
      const unit = shapes[i]!;
      const [lng, lat] = [unit.point[0] + dx, unit.point[1] + dy];
      for (const rings of unit.parts) {
        const full = distanceToEdges(g.xy, rings, lng, lat);
        const bounded = distanceToEdgesWithin(g.xy, rings, lng, lat, limit);
        if (full <= limit) assert.ok(Math.abs(bounded - full) < 1e-6, `${full} vs ${bounded}`);
        else assert.equal(bounded, Infinity);
      }
    }), { numRuns: 2000 });
});
