/**
 * Builds the geometry artefact (data/geo/units.json + data/geo/coordinates.bin, see src/geo/format.ts) and
 * data/GEO-REPAIRS.md from the geoBoundaries 2014 polygons in data/sources/geoboundaries-khm-2014 and the current
 * communes of data/gazetteer.json.
 *
 *   npm run build:geo             rebuild and write
 *   npm run build:geo -- --check  exit 1 if the committed files are not what the sources build
 *
 * The crosswalk polygon → commune code starts from the match table shipped with the source, then applies the
 * decisions below, each checked against evidence (pumi's commune centroid inside the polygon, or the NCDD note).
 * Districts are dissolved from their communes' polygons and provinces from their districts (polyclip-ts), so every
 * shape is keyed by a current code. Deterministic: the same inputs give byte-identical output.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { union } from 'polyclip-ts';
import polylabel from 'polylabel';
import type { Dataset, Unit } from '../src/gazetteer/types.js';
import { INSIDE, pointInPolygon, ringArea } from '../src/geo/geometry.js';
import { GEO_ATTRIBUTION, QUANTUM, type GeoIndexFile, type GeoLevel, type GeoUnitRecord, type Unshaped } from '../src/geo/format.js';

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
export const SOURCE_DIR = root('data/sources/geoboundaries-khm-2014');
export const UNITS_PATH = root('data/geo/units.json');
export const COORDINATES_PATH = root('data/geo/coordinates.bin');
export const GEO_REPAIRS_PATH = root('data/GEO-REPAIRS.md');
const DATASET_PATH = root('data/gazetteer.json');
const ADM3 = 'geoboundaries-khm-adm3-simplified.geojson';
const MATCH = 'geoboundaries-khm-adm3-to-ncdd-match.csv';

type Ring = [number, number][];
type Polygon = Ring[];
type MultiPolygon = Polygon[];

/**
 * Polygons whose code the match table got wrong or left open. The 7 ambiguous codes are names cut at 20 characters
 * ("Banteay Meas Khang *") matched to one of two or three current communes; the two unmatched polygons are towns
 * whose commune was renamed. Evidence `centroid`: pumi's centroid of the chosen commune lies inside the polygon
 * (checked by the build).
 */
const POLYGON_DECISIONS: { feature: number; code: string; evidence: 'centroid' | 'position'; why: string }[] = [
  { feature: 1040, code: '121301', evidence: 'centroid', why: '"Boeng Keng Kang Ti *" (1 of 3): contains the centroid of Boeng Keng Kang Ti Muoy.' },
  { feature: 1043, code: '121302', evidence: 'centroid', why: '"Boeng Keng Kang Ti *" (2 of 3): contains the centroid of Boeng Keng Kang Ti Pir (recoded from 120103 in 2019); the table had 121301.' },
  { feature: 1047, code: '121303', evidence: 'centroid', why: '"Boeng Keng Kang Ti *" (3 of 3): contains the centroid of Boeng Keng Kang Ti Bei (recoded from 120104 in 2019); the table had 121301.' },
  { feature: 1363, code: '210914', evidence: 'centroid', why: '"Trapeang Thum Khang*" (northern one): contains the centroid of Trapeang Thum Khang Cheung (north).' },
  { feature: 1403, code: '210915', evidence: 'centroid', why: '"Trapeang Thum Khang*" (southern one): contains the centroid of Trapeang Thum Khang Tboung (south); the table had 210914.' },
  { feature: 1507, code: '070210', evidence: 'centroid', why: '"Trapeang Sala Khang*" (eastern one): contains the centroid of Trapeang Sala Khang Kaeut (east).' },
  { feature: 1520, code: '070211', evidence: 'centroid', why: '"Trapeang Sala Khang*" (western one): contains the centroid of Trapeang Sala Khang Lech (west); the table had 070210.' },
  { feature: 1532, code: '070201', evidence: 'centroid', why: '"Banteay Meas Khang *" (eastern one): contains the centroid of Banteay Meas Khang Kaeut (east).' },
  { feature: 1536, code: '070202', evidence: 'centroid', why: '"Banteay Meas Khang *" (western one): contains the centroid of Banteay Meas Khang Lech (west); the table had 070201.' },
  { feature: 1558, code: '070603', evidence: 'centroid', why: '"Damnak Kantuot Khan*" (northern one): contains the centroid of Damnak Kantuot Khang Cheung (north).' },
  { feature: 1560, code: '070604', evidence: 'centroid', why: '"Damnak Kantuot Khan*" (southern one): contains the centroid of Damnak Kantuot Khang Tboung (south); the table had 070603.' },
  { feature: 1559, code: '070606', evidence: 'centroid', why: '"Kampong Trach Khang*" (western one): contains the centroid of Kampong Trach Khang Lech (west); the table had 070605.' },
  { feature: 1583, code: '070605', evidence: 'position', why: '"Kampong Trach Khang*" (eastern one): pumi\'s centroid of Kampong Trach Khang Kaeut falls in no polygon; this is the other half of the pair, east of feature 1559 (checked), so Khang Kaeut (east).' },
  { feature: 1591, code: '070613', evidence: 'centroid', why: '"Ruessei Srok Khang *" (eastern one): contains the centroid of Ruessei Srok Khang Kaeut (east).' },
  { feature: 1592, code: '070614', evidence: 'centroid', why: '"Ruessei Srok Khang *" (western one): contains the centroid of Ruessei Srok Khang Lech (west); the table had 070613.' },
  { feature: 1587, code: '230201', evidence: 'centroid', why: '"Kaeb" was not matched (name score 57): it is Kep commune of Kep town, whose centroid it contains.' },
  { feature: 1626, code: '011002', evidence: 'centroid', why: '"Paoy Paet" was not matched (score 71): the commune is now Sangkat Poipet (ប៉ោយប៉ែត), whose centroid it contains.' },
];

/**
 * The current communes left without a polygon: split from or created inside 2014 communes after the boundaries were
 * drawn. `from` lists the polygons (by their current code) a point in the new commune now falls in. Evidence: the
 * NCDD gazetteer export of 2024-10-14 ("Official Note") and pumi's centroid, where they exist; otherwise the 2014
 * communes of the same district (all of them: which one is not known).
 */
const UNSHAPED: Unshaped[] = [
  { code: '011004', from: ['011001', '011002', '011003'], why: 'Created 2021 (pumi 2d35cab) in Krong Paoy Paet; no centroid and no NCDD note: any 2014 commune of the town.' },
  { code: '011005', from: ['011001', '011002', '011003'], why: 'Created 2021 (pumi 2d35cab) in Krong Paoy Paet; no centroid and no NCDD note: any 2014 commune of the town.' },
  { code: '020409', from: ['020401'], why: 'Created 2021 (pumi 2d35cab); pumi\'s centroid lies in the 2014 polygon of Bavel.' },
  { code: '040614', from: ['district'], why: 'Created 2021 (pumi 2d35cab); no centroid and no NCDD note: any 2014 commune of Rolea B\'ier district.' },
  { code: '040809', from: ['district'], why: 'Created 2018 (pumi a53e6e2); no centroid and no NCDD note: any 2014 commune of Tuek Phos district.' },
  { code: '050614', from: ['district'], why: 'Created 2021 (pumi 2d35cab); no centroid and no NCDD note: any 2014 commune of Phnum Sruoch district.' },
  { code: '100506', from: ['district'], why: 'Created 2018 (NCDD: new commune, sub-decree 153); no centroid: any 2014 commune of Snuol district.' },
  { code: '100703', from: ['100702'], why: 'Recoded 2023 from 100411; NCDD: new commune made of 3 villages of Ou Krieng (sub-decree 152, 20 Aug 2021).' },
  { code: '120609', from: ['120608'], why: 'NCDD: split from Sangkat Stueng Mean chey (sub-decree 145); pumi\'s centroid agrees.' },
  { code: '120610', from: ['120608'], why: 'NCDD: split from Sangkat Stueng Mean chey (sub-decree 145); pumi\'s centroid agrees.' },
  { code: '120612', from: ['120611'], why: 'NCDD: split from Sangkat Boeng Tumpun (sub-decree 146); pumi\'s centroid agrees.' },
  { code: '120714', from: ['120713', '120706'], why: 'NCDD: split from Sangkat Tuol Sangkae (sub-decree 148); pumi\'s centroid lies in the 2014 polygon of Ruessei Kaev, next to it.' },
  { code: '120808', from: ['120802'], why: 'NCDD: new sangkat (sub-decree 149); pumi\'s centroid lies in the 2014 polygon of Tuek Thla.' },
  { code: '120809', from: ['120801'], why: 'NCDD: new sangkat (sub-decree 150); pumi\'s centroid lies in the 2014 polygon of Phnom Penh Thmei.' },
  { code: '120915', from: ['120914'], why: 'NCDD: split from Sangkat Chaom Chau (sub-decree 144); pumi\'s centroid agrees.' },
  { code: '120916', from: ['120914'], why: 'NCDD: split from Sangkat Chaom Chau (sub-decree 144); pumi\'s centroid agrees.' },
  { code: '120918', from: ['120917'], why: 'NCDD: split from Sangkat Kakab (sub-decree 147); pumi\'s centroid agrees.' },
  { code: '180215', from: ['district'], why: 'NCDD: new commune (sub-decree 164); no centroid: any 2014 commune of Prey Nob district.' },
  { code: '180502', from: ['180501'], why: 'Recoded 2019 from 180106; NCDD: moved to Krong Kaoh Rung (sub-decree 165, 2016). The 2014 data has no polygon of its own for Koh Rong Sanloem: the only other commune of the town.' },
];

/** Rounds to the artefact's grid, so that shared edges stay shared and unions see identical vertices. */
const q = (value: number) => Math.round(value / QUANTUM) * QUANTUM;
const quantize = (polygon: number[][][]): Polygon => polygon.map((ring) => ring.map(([x, y]) => [q(x!), q(y!)] as [number, number]));

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The sha256 sums SOURCE.txt gives for the copied files must match the files. */
function checkSources(): string {
  const source = readFileSync(`${SOURCE_DIR}/SOURCE.txt`, 'utf8');
  for (const name of ['adm3', 'adm2']) {
    const match = new RegExp(`cambodia-${name}-simplified\\.geojson \\([\\d,]+ bytes, sha256 ([0-9a-f]{64})\\)`).exec(source);
    if (!match) throw new Error(`SOURCE.txt gives no sha256 for the ${name} file`);
    const actual = sha256(`${SOURCE_DIR}/geoboundaries-khm-${name}-simplified.geojson`);
    if (actual !== match[1]) throw new Error(`geoboundaries-khm-${name}-simplified.geojson does not match SOURCE.txt (${actual})`);
  }
  return createHash('sha256').update(readFileSync(`${SOURCE_DIR}/${ADM3}`)).update(readFileSync(`${SOURCE_DIR}/${MATCH}`))
    .update(JSON.stringify([POLYGON_DECISIONS, UNSHAPED])).digest('hex').slice(0, 12);
}

/** Flattens polygons into one Float64Array for the geometry functions (a throwaway copy for checks). */
function flat(polygons: MultiPolygon): { xy: Float64Array; polygons: Uint32Array[] } {
  const count = polygons.reduce((n, p) => n + p.reduce((m, r) => m + r.length, 0), 0);
  const xy = new Float64Array(count * 2);
  let v = 0;
  const out: Uint32Array[] = [];
  for (const polygon of polygons) {
    const rings: number[] = [];
    for (const ring of polygon) {
      rings.push(v, v + ring.length);
      for (const [x, y] of ring) {
        xy[2 * v] = x;
        xy[2 * v + 1] = y;
        v++;
      }
    }
    out.push(Uint32Array.from(rings));
  }
  return { xy, polygons: out };
}

function contains(polygons: MultiPolygon, x: number, y: number): boolean {
  const { xy, polygons: rings } = flat(polygons);
  return rings.some((r) => pointInPolygon(xy, r, x, y) === INSIDE);
}

const outerArea = (polygon: Polygon) => {
  const { xy } = flat([[polygon[0]!]]);
  return Math.abs(ringArea(xy, 0, polygon[0]!.length));
};

/** A point strictly inside: the pole of inaccessibility of the largest polygon (polylabel), checked. */
function pointOnSurface(code: string, polygons: MultiPolygon): [number, number] {
  const largest = polygons.reduce((a, b) => (outerArea(b) > outerArea(a) ? b : a));
  const [x, y] = polylabel(largest, 1e-5) as unknown as [number, number];
  const point: [number, number] = [Number(q(x).toFixed(6)), Number(q(y).toFixed(6))];
  if (!contains(polygons, point[0], point[1])) throw new Error(`the point on surface of ${code} is not inside it`);
  return point;
}

function bboxOf(polygons: MultiPolygon): [number, number, number, number] {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of polygons) {
    for (const [x, y] of polygon[0]!) {
      minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
    }
  }
  return [minX, minY, maxX, maxY].map((n) => Number(n.toFixed(6))) as [number, number, number, number];
}

export interface GeoBuild {
  index: GeoIndexFile;
  coordinates: Buffer;
  markdown: string;
}

export function buildGeo(): GeoBuild {
  const version = checkSources();
  const dataset = JSON.parse(readFileSync(DATASET_PATH, 'utf8')) as Dataset;
  const byCode = new Map(dataset.units.map((u) => [u.code, u]));
  const communes = dataset.units.filter((u) => u.level === 'commune');
  const adm3 = JSON.parse(readFileSync(`${SOURCE_DIR}/${ADM3}`, 'utf8')) as {
    features: { properties: { shapeName: string; shapeID: string }; geometry: { type: string; coordinates: unknown } }[];
  };
  const features = adm3.features.map((f) => (f.geometry.type === 'Polygon'
    ? [quantize(f.geometry.coordinates as number[][][])]
    : (f.geometry.coordinates as number[][][][]).map(quantize)));
  const rows = readFileSync(`${SOURCE_DIR}/${MATCH}`, 'utf8').trim().split(/\r?\n/).slice(1).map((line) => line.split(','));
  if (rows.length !== features.length) throw new Error(`the match table has ${rows.length} rows for ${features.length} polygons`);

  // The crosswalk: feature → code, from the table, then the decisions (each checked).
  const codeOf = rows.map((r, i) => {
    if (Number(r[0]) !== i || r[1] !== adm3.features[i]!.properties.shapeID) throw new Error(`match row ${i} is not feature ${i}`);
    return r[4] ?? '';
  });
  const tableCode = [...codeOf];
  const problems: string[] = [];
  for (const d of POLYGON_DECISIONS) {
    codeOf[d.feature] = d.code;
    const unit = byCode.get(d.code);
    if (unit?.level !== 'commune') problems.push(`decision for feature ${d.feature}: ${d.code} is not a current commune`);
    else if (d.evidence === 'centroid' && !(unit.geo && contains(features[d.feature]!, unit.geo.lng, unit.geo.lat))) {
      problems.push(`decision for feature ${d.feature}: pumi's centroid of ${d.code} is not inside it`);
    }
  }
  // Feature 1583 is the eastern half of the Kampong Trach pair.
  const westOf = (a: number, b: number) => bboxOf(features[a]!)[0] + bboxOf(features[a]!)[2] < bboxOf(features[b]!)[0] + bboxOf(features[b]!)[2];
  if (!westOf(1559, 1583)) problems.push('feature 1559 is not west of feature 1583 (Kampong Trach Khang Lech / Kaeut)');
  const featuresOf = new Map<string, number[]>();
  codeOf.forEach((code, i) => {
    if (!code) problems.push(`feature ${i} (${adm3.features[i]!.properties.shapeName}) has no commune`);
    else featuresOf.set(code, [...(featuresOf.get(code) ?? []), i]);
  });
  for (const [code, list] of featuresOf) if (list.length > 1) problems.push(`commune ${code} has ${list.length} polygons: ${list.join(', ')}`);
  const unshaped = communes.filter((c) => !featuresOf.has(c.code)).map((c) => c.code);
  const listed = UNSHAPED.map((u) => u.code);
  if (unshaped.join() !== listed.join()) problems.push(`communes without a polygon ${unshaped.join(' ')} != the listed ${listed.join(' ')}`);
  const resolved: Unshaped[] = UNSHAPED.map((u) => {
    const district = byCode.get(u.code)!.parent_code!;
    const from = u.from[0] === 'district' ? communes.filter((c) => c.parent_code === district && featuresOf.has(c.code)).map((c) => c.code) : u.from;
    for (const code of from) if (!featuresOf.has(code)) problems.push(`${u.code} comes from ${code}, which has no polygon`);
    return { ...u, from };
  });
  if (problems.length > 0) throw new Error(`the crosswalk has ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);

  // Shapes by current code: communes as drawn, districts dissolved from communes, provinces from districts.
  const shapes = new Map<string, MultiPolygon>();
  for (const c of communes) {
    const list = featuresOf.get(c.code);
    if (list) shapes.set(c.code, features[list[0]!]!);
  }
  const dissolve = (level: 'district' | 'province') => {
    for (const unit of dataset.units.filter((u) => u.level === level)) {
      const parts = dataset.units.filter((u) => u.parent_code === unit.code && shapes.has(u.code)).map((u) => shapes.get(u.code)!);
      if (parts.length === 0) throw new Error(`${level} ${unit.code} has no shaped unit below it`);
      shapes.set(unit.code, union(parts[0]!, ...parts.slice(1)).map((p) => p.map((r) => r.map(([x, y]) => [q(x), q(y)] as [number, number]))));
    }
  };
  dissolve('district');
  dissolve('province');
  const provinces = dataset.units.filter((u) => u.level === 'province').map((u) => shapes.get(u.code)!);
  const country = union(provinces[0]!, ...provinces.slice(1));
  const holes = country.flatMap((p) => p.slice(1)).map((r) => r.map(([x, y]) => [Number(q(x).toFixed(6)), Number(q(y).toFixed(6))]));

  // The artefact.
  const splitInto = new Map<string, string[]>();
  for (const u of resolved) for (const code of u.from) splitInto.set(code, [...(splitInto.get(code) ?? []), u.code]);
  const ordered = dataset.units.filter((u): u is Unit & { level: GeoLevel } => u.level !== 'village' && shapes.has(u.code));
  const values: number[] = [];
  const records: GeoUnitRecord[] = ordered.map((unit) => {
    const polygons = shapes.get(unit.code)!;
    const offset = values.length / 2;
    const rings: number[] = [];
    for (const polygon of polygons) {
      for (const ring of polygon) {
        rings.push(ring.length);
        for (const [x, y] of ring) values.push(Math.round(x / QUANTUM), Math.round(y / QUANTUM));
      }
    }
    const split = splitInto.get(unit.code);
    return {
      code: unit.code, level: unit.level, offset, rings, polygons: polygons.map((p) => p.length),
      bbox: bboxOf(polygons), point: pointOnSurface(unit.code, polygons), ...(split ? { split } : {}),
    };
  });
  const coordinates = Buffer.from(Int32Array.from(values).buffer);
  const index: GeoIndexFile = {
    comment: 'Generated by npm run build:geo (scripts/build-geo.ts); do not edit. Vertices are in coordinates.bin; see src/geo/format.ts.',
    attribution: GEO_ATTRIBUTION,
    version,
    quantum: QUANTUM,
    vertices: values.length / 2,
    units: records,
    holes,
    unshaped: resolved,
  };
  const changed = POLYGON_DECISIONS.filter((d) => tableCode[d.feature] !== d.code).length;
  return { index, coordinates, markdown: markdown(index, adm3.features.map((f) => f.properties.shapeName), tableCode, changed, byCode) };
}

function markdown(index: GeoIndexFile, names: string[], tableCode: string[], changed: number, byCode: Map<string, Unit>): string {
  const name = (code: string) => `${code} ${byCode.get(code)?.name_latin ?? '?'}`;
  const levels = (level: GeoLevel) => index.units.filter((u) => u.level === level).length;
  return [
    '# Geometry: the crosswalk from 2014 polygons to current codes',
    '',
    `Generated by \`npm run build:geo\` (geometry ${index.version}); do not edit. The decisions are defined in`,
    '`scripts/build-geo.ts`; the build checks each against its evidence and fails if one no longer holds.',
    '',
    `Source: geoBoundaries gbOpen KHM ADM3 (simplified), from Open Development Cambodia's 2014 boundaries, CC BY 4.0`,
    '(`data/sources/geoboundaries-khm-2014/SOURCE.txt`). Start: its match table (polygon → current NCDD commune code).',
    `Result: ${levels('commune')} communes with a polygon, ${levels('district')} districts dissolved from their communes,`,
    `${levels('province')} provinces dissolved from their districts, ${index.vertices} vertices; ${index.unshaped.length} current communes have no`,
    `polygon of their own; the country outline has ${index.holes.length} holes (Tonle Sap and gaps between polygons).`,
    '',
    `## Polygon decisions (${POLYGON_DECISIONS.length}, of which ${changed} change the table)`,
    '',
    '| feature | shapeName | table | decided | why |',
    '|---|---|---|---|---|',
    ...POLYGON_DECISIONS.map((d) => `| ${d.feature} | ${names[d.feature]} | ${tableCode[d.feature] || '(none)'} | ${name(d.code)} | ${d.why} |`),
    '',
    `## Communes without a polygon (${index.unshaped.length})`,
    '',
    'A point in one of the polygons listed answers that polygon\'s commune with `approximate: true` and this commune',
    'among the candidates; `GET /v1/boundaries/{code}` of such a commune answers those polygons, flagged approximate.',
    '',
    '| commune | from the 2014 polygon(s) of | why |',
    '|---|---|---|',
    ...index.unshaped.map((u) => `| ${name(u.code)} | ${u.from.map(name).join(', ')} | ${u.why} |`),
    '',
  ].join('\n');
}

function main(argv: string[]): number {
  const started = performance.now();
  const { index, coordinates, markdown: md } = buildGeo();
  const json = `${JSON.stringify({ ...index, units: undefined, holes: undefined, unshaped: undefined }, null, 2).slice(0, -2)},\n`
    + `  "units": [\n${index.units.map((u) => `    ${JSON.stringify(u)}`).join(',\n')}\n  ],\n`
    + `  "unshaped": [\n${index.unshaped.map((u) => `    ${JSON.stringify(u)}`).join(',\n')}\n  ],\n`
    + `  "holes": ${JSON.stringify(index.holes)}\n}\n`;
  const files = [[UNITS_PATH, Buffer.from(json)], [COORDINATES_PATH, coordinates], [GEO_REPAIRS_PATH, Buffer.from(md)]] as const;
  if (argv.includes('--check')) {
    const stale = files.filter(([path, bytes]) => {
      try {
        return !readFileSync(path).equals(bytes);
      } catch {
        return true;
      }
    });
    for (const [path] of stale) console.error(`${path} is not what the sources build: run npm run build:geo`);
    return stale.length > 0 ? 1 : 0;
  }
  for (const [path, bytes] of files) writeFileSync(path, bytes);
  console.log(`geometry ${index.version}: ${index.units.length} units, ${index.vertices} vertices, `
    + `${(coordinates.length / 1e6).toFixed(2)} MB + ${(json.length / 1e6).toFixed(2)} MB in ${Math.round(performance.now() - started)} ms`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
