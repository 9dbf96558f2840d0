/**
 * The public unit page (/places/{code}): a province, district or commune drawn as inline SVG with its neighbours
 * and its parent, from the same shapes the boundaries GeoJSON is made of (src/geo/boundaries.ts), so it works with
 * no tile server and offline. A click on the drawing (or the form, without a mouse or script) asks which commune a
 * point is in. English and Khmer.
 */
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import type { Unit } from '../gazetteer/types.js';
import { polygonsOf } from '../geo/boundaries.js';
import type { Geography, ReverseAnswer, ShapedUnit } from '../geo/geography.js';
import { html, type Html, trusted } from './html.js';
import { digits, type Lang } from './i18n.js';
import { layout, type PageContext } from './pages.js';

const WORDS = {
  en: {
    level: { province: 'Province', district: 'District', commune: 'Commune' },
    capital: 'Capital',
    postalCode: 'Postal code',
    code: 'NCDD code',
    partOf: 'Part of',
    map: 'Map of {name}, its neighbours and its parent. Click a point to find its commune.',
    mapHint: 'Click anywhere on the map to find which commune the point is in, or enter coordinates:',
    lat: 'Latitude',
    lng: 'Longitude',
    find: 'Find the commune',
    pointIn: 'This point is in',
    approximate: 'Approximate:',
    reasons: {
      split_after_2014: 'this commune was split after 2014; the point may be in {list}',
      near_boundary: 'the point is near the boundary with {list}',
      on_boundary: 'the point is on the boundary with {list}',
      outside_polygons: 'the point is in no commune (lake, river or coast); this is the nearest one, {m} m away',
    },
    outside: 'This point is not in Cambodia (or too far from any commune).',
    badPoint: 'Enter a latitude from -90 to 90 and a longitude from -180 to 180, in decimal degrees.',
    tooMany: 'Too many lookups. Wait a moment and try again.',
    neighbours: 'Neighbours',
    children: { province: 'Districts', district: 'Communes', commune: 'Villages' },
    unshaped: 'This commune was created after 2014, so the 2014 boundaries have no shape of its own: the drawing shows the commune(s) it came from.',
    pointInside: 'A point inside',
    box: 'Bounding box',
    geojson: 'Boundary as GeoJSON (API key needed):',
    attribution: 'Boundaries: Open Development Cambodia / Open Development Mekong (2014), via geoBoundaries, CC BY 4.0.',
  },
  km: {
    level: { province: 'ខេត្ត', district: 'ស្រុក/ខណ្ឌ', commune: 'ឃុំ/សង្កាត់' },
    capital: 'រាជធានី',
    postalCode: 'លេខកូដប្រៃសណីយ៍',
    code: 'លេខកូដ គ.ជ.អ.ប.',
    partOf: 'ស្ថិតក្នុង',
    map: 'ផែនទី {name} អង្គភាពជិតខាង និងអង្គភាពមេ។ ចុចលើចំណុចណាមួយ ដើម្បីរកឃុំ/សង្កាត់របស់វា។',
    mapHint: 'ចុចលើផែនទី ដើម្បីដឹងថាចំណុចនោះស្ថិតក្នុងឃុំ/សង្កាត់ណា ឬបញ្ចូលកូអរដោនេ៖',
    lat: 'រយៈទទឹង',
    lng: 'រយៈបណ្តោយ',
    find: 'រកឃុំ/សង្កាត់',
    pointIn: 'ចំណុចនេះស្ថិតក្នុង',
    approximate: 'ប្រហាក់ប្រហែល៖',
    reasons: {
      split_after_2014: 'ឃុំ/សង្កាត់នេះត្រូវបានបំបែកក្រោយឆ្នាំ២០១៤ ចំណុចនេះអាចស្ថិតក្នុង {list}',
      near_boundary: 'ចំណុចនេះនៅជិតព្រំប្រទល់ជាមួយ {list}',
      on_boundary: 'ចំណុចនេះនៅលើព្រំប្រទល់ជាមួយ {list}',
      outside_polygons: 'ចំណុចនេះមិនស្ថិតក្នុងឃុំ/សង្កាត់ណាទេ (បឹង ទន្លេ ឬឆ្នេរ) នេះជាឃុំ/សង្កាត់ដែលនៅជិតបំផុត ចម្ងាយ {m} ម៉ែត្រ',
    },
    outside: 'ចំណុចនេះមិនស្ថិតក្នុងប្រទេសកម្ពុជាទេ (ឬនៅឆ្ងាយពីឃុំ/សង្កាត់ទាំងអស់)។',
    badPoint: 'សូមបញ្ចូលរយៈទទឹងពី -៩០ ដល់ ៩០ និងរយៈបណ្តោយពី -១៨០ ដល់ ១៨០ ជាដឺក្រេទសភាគ។',
    tooMany: 'ការស្វែងរកច្រើនពេក។ សូមរង់ចាំបន្តិច ហើយព្យាយាមម្តងទៀត។',
    neighbours: 'អង្គភាពជិតខាង',
    children: { province: 'ស្រុក/ខណ្ឌ', district: 'ឃុំ/សង្កាត់', commune: 'ភូមិ' },
    unshaped: 'ឃុំ/សង្កាត់នេះត្រូវបានបង្កើតក្រោយឆ្នាំ២០១៤ ដូច្នេះព្រំប្រទល់ឆ្នាំ២០១៤ គ្មានរាងរបស់វាផ្ទាល់ទេ៖ ផែនទីបង្ហាញឃុំ/សង្កាត់ដែលវាបំបែកចេញមក។',
    pointInside: 'ចំណុចមួយនៅខាងក្នុង',
    box: 'ប្រអប់ព័ទ្ធជុំវិញ',
    geojson: 'ព្រំប្រទល់ជា GeoJSON (ត្រូវការសោ API)៖',
    attribution: 'ព្រំប្រទល់៖ Open Development Cambodia / Open Development Mekong (២០១៤) តាមរយៈ geoBoundaries, CC BY 4.0។',
  },
} as const;

type Words = (typeof WORDS)[Lang];

/** The outcome of a lookup asked from the page. */
export type PagePoint =
  | { kind: 'answer'; lat: number; lng: number; answer: ReverseAnswer }
  | { kind: 'invalid' }
  | { kind: 'limited' };

/** A drawn view: equirectangular, `scale` SVG units per degree of latitude, 1000 units wide. */
interface View {
  lng0: number;
  lat0: number;
  sx: number;
  sy: number;
  width: number;
  height: number;
}

function viewOf([minX, minY, maxX, maxY]: number[]): View {
  const padX = (maxX! - minX!) * 0.08 + 0.002;
  const padY = (maxY! - minY!) * 0.08 + 0.002;
  const lng0 = minX! - padX;
  const lat0 = maxY! + padY;
  const widthDeg = maxX! - minX! + 2 * padX;
  const heightDeg = maxY! - minY! + 2 * padY;
  const k = Math.cos((((minY! + maxY!) / 2) * Math.PI) / 180);
  const sx = 1000 / widthDeg;
  const sy = sx / k;
  return { lng0, lat0, sx, sy, width: 1000, height: Math.round(heightDeg * sy) };
}

const overlaps = (a: number[], b: number[]) => a[0]! <= b[2]! && b[0]! <= a[2]! && a[1]! <= b[3]! && b[1]! <= a[3]!;

/** SVG path data of a unit's shape in the view, simplified to about a pixel. */
function pathOf(geo: Geography, shape: ShapedUnit, view: View): string {
  const tolerance = 0.6 / view.sx;
  let d = '';
  for (const polygon of polygonsOf(geo, shape, tolerance)) {
    for (const ring of polygon) {
      d += ring.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${((x! - view.lng0) * view.sx).toFixed(1)} ${((view.lat0 - y!) * view.sy).toFixed(1)}`).join('');
      d += 'Z';
    }
  }
  return d;
}

/** The drawing of a unit: the parent's outline, the neighbours in view, the unit itself; cached by the caller. */
export function drawUnit(geo: Geography, gazetteer: Gazetteer, unit: Unit, drawn: ShapedUnit[]): { svg: string; neighbours: string[] } {
  const box = drawn.map((s) => s.bbox as number[]).reduce((a, b) => [Math.min(a[0]!, b[0]!), Math.min(a[1]!, b[1]!), Math.max(a[2]!, b[2]!), Math.max(a[3]!, b[3]!)]);
  const view = viewOf(box);
  const viewBox = [view.lng0, view.lat0 - view.height / view.sy, view.lng0 + view.width / view.sx, view.lat0];
  const siblings = unit.parent_code === null ? gazetteer.provinces() : gazetteer.children(unit.parent_code);
  const drawnCodes = new Set(drawn.map((s) => s.code));
  const neighbours = siblings.filter((s) => !drawnCodes.has(s.code) && s.code !== unit.code)
    .map((s) => geo.shape(s.code)).filter((s): s is ShapedUnit => s !== undefined && overlaps(s.bbox, viewBox));
  const parent = unit.parent_code === null ? undefined : geo.shape(unit.parent_code);
  const paths = [
    ...neighbours.map((s) => `<path class="neighbour" data-code="${s.code}" d="${pathOf(geo, s, view)}"/>`),
    ...(parent ? [`<path class="parent" data-code="${parent.code}" d="${pathOf(geo, parent, view)}"/>`] : []),
    ...drawn.map((s) => `<path class="unit" data-code="${s.code}" d="${pathOf(geo, s, view)}"/>`),
  ];
  const svg = `<svg id="map" role="img" viewBox="0 0 ${view.width} ${view.height}" data-lng0="${view.lng0}" data-lat0="${view.lat0}" `
    + `data-sx="${view.sx}" data-sy="${view.sy}" preserveAspectRatio="xMidYMid meet">${paths.join('')}</svg>`;
  return { svg, neighbours: neighbours.map((s) => s.code) };
}

/** The marker of a looked-up point, in the drawing's coordinates (read from its data attributes). */
function marker(svg: string, lat: number, lng: number): string {
  const read = (name: string) => Number(new RegExp(`data-${name}="([^"]+)"`).exec(svg)![1]);
  const x = (lng - read('lng0')) * read('sx');
  const y = (read('lat0') - lat) * read('sy');
  return svg.replace('</svg>', `<circle class="marker" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="9"/></svg>`);
}

const MAP_STYLE = trusted(`
#map { width: 100%; height: auto; max-height: 70vh; background: #eaf2fb; border: 1px solid var(--line); border-radius: .5rem; cursor: crosshair; touch-action: manipulation; }
#map path { fill-rule: evenodd; vector-effect: non-scaling-stroke; }
#map .neighbour { fill: #fff; stroke: #8a94a6; stroke-width: 1; }
#map .parent { fill: none; stroke: #1d2433; stroke-width: 2.5; stroke-dasharray: 6 4; }
#map .unit { fill: #0b5cad; fill-opacity: .35; stroke: #0b5cad; stroke-width: 2.5; }
#map .marker { fill: #d64000; stroke: #fff; stroke-width: 3; vector-effect: non-scaling-stroke; }
.point-form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
.point-form label { margin: 0; } .point-form input { max-width: 12rem; }
`);

/** Maps a click on the drawing to longitude and latitude and asks the page for that point. */
const CLICK_SCRIPT = trusted(`
const map = document.getElementById('map');
map.addEventListener('click', (event) => {
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(map.getScreenCTM().inverse());
  const lng = Number(map.dataset.lng0) + point.x / Number(map.dataset.sx);
  const lat = Number(map.dataset.lat0) - point.y / Number(map.dataset.sy);
  const url = new URL(location.href);
  url.searchParams.set('lat', lat.toFixed(6));
  url.searchParams.set('lng', lng.toFixed(6));
  url.hash = 'point';
  location.assign(url.toString());
});
`);

const nameIn = (unit: Unit, lang: Lang) => (lang === 'km' ? unit.name_km : unit.name_latin);

function levelName(w: Words, unit: Unit): string {
  if (unit.type === 'capital') return w.capital;
  return unit.level === 'village' ? '' : w.level[unit.level];
}

function pointCard(ctx: PageContext, w: Words, gazetteer: Gazetteer, point: PagePoint | undefined): Html | string {
  if (!point) return '';
  if (point.kind === 'invalid') return html`<p class="error" role="alert" id="point">${w.badPoint}</p>`;
  if (point.kind === 'limited') return html`<p class="error" role="alert" id="point">${w.tooMany}</p>`;
  const { answer } = point;
  if (!answer.hit) return html`<div class="card" id="point" role="status"><p>${w.outside}</p></div>`;
  const hit = answer.hit;
  const unit = gazetteer.byCode(hit.code)!;
  const chain = [...gazetteer.ancestors(unit.code), unit];
  const link = (u: Unit) => html`<a href="/places/${u.code}?lang=${ctx.lang}">${nameIn(u, ctx.lang)}</a>`;
  const list = (codes: string[]) => codes.map((c) => nameIn(gazetteer.byCode(c)!, ctx.lang)).join(', ');
  const reasons = hit.reasons.map((r) => w.reasons[r]
    .replace('{list}', r === 'split_after_2014' ? list(hit.candidates) : list(hit.near.map((n) => n.code)))
    .replace('{m}', digits(ctx.lang, hit.distanceM)));
  return html`<div class="card" id="point" role="status">
  <p>${w.pointIn} <strong class="point-commune">${link(unit)}</strong>
    <span class="muted">(${chain.slice(0, -1).reverse().map((u, i) => html`${i > 0 ? ', ' : ''}${link(u)}`)}) · ${w.postalCode} ${digits(ctx.lang, unit.postal_code)}</span></p>
  ${reasons.length > 0 ? html`<p class="approximate">${w.approximate} ${reasons.join('; ')}.</p>` : ''}
  <p class="muted">${digits(ctx.lang, point.lat.toFixed(5))}, ${digits(ctx.lang, point.lng.toFixed(5))}</p>
</div>`;
}

export function unitPage(ctx: PageContext, gazetteer: Gazetteer, geo: Geography, unit: Unit, drawing: { svg: string; neighbours: string[] },
  point: PagePoint | undefined): string {
  const w = WORDS[ctx.lang];
  const name = nameIn(unit, ctx.lang);
  const ancestors = gazetteer.ancestors(unit.code);
  const shape = geo.shape(unit.code);
  const svg = point?.kind === 'answer' ? marker(drawing.svg, point.lat, point.lng) : drawing.svg;
  const link = (u: Unit) => html`<a href="/places/${u.code}?lang=${ctx.lang}">${nameIn(u, ctx.lang)}</a>`;
  const children = unit.level === 'commune' ? [] : gazetteer.children(unit.code);
  const fixed = (n: number) => digits(ctx.lang, n.toFixed(5));
  const body = html`
<style nonce="${ctx.nonce?.style}">${MAP_STYLE}</style>
<p class="muted">${levelName(w, unit)}${ancestors.length > 0 ? html` · ${w.partOf} ${ancestors.slice().reverse().map((u, i) => html`${i > 0 ? ', ' : ''}${link(u)}`)}` : ''}</p>
<h1>${name} <span class="muted" lang="${ctx.lang === 'km' ? 'en' : 'km'}">${ctx.lang === 'km' ? unit.name_latin : unit.name_km}</span></h1>
<p>${w.code} ${digits(ctx.lang, unit.code)} · ${w.postalCode} ${digits(ctx.lang, unit.postal_code)}</p>
${shape ? '' : html`<p class="muted">${w.unshaped}</p>`}
<figure>
  ${trusted(svg.replace('role="img"', `role="img" aria-label="${escapeAttribute(w.map.replace('{name}', name))}"`))}
  <figcaption class="muted">${w.attribution}</figcaption>
</figure>
${pointCard(ctx, w, gazetteer, point)}
<p>${w.mapHint}</p>
<form class="point-form" method="get" action="/places/${unit.code}">
  <input type="hidden" name="lang" value="${ctx.lang}">
  <div><label for="lat">${w.lat}</label><input id="lat" name="lat" type="text" inputmode="decimal" maxlength="32" value="${point?.kind === 'answer' ? point.lat.toFixed(6) : ''}"></div>
  <div><label for="lng">${w.lng}</label><input id="lng" name="lng" type="text" inputmode="decimal" maxlength="32" value="${point?.kind === 'answer' ? point.lng.toFixed(6) : ''}"></div>
  <button type="submit">${w.find}</button>
</form>
${shape ? html`<p class="muted">${w.pointInside}: ${fixed(shape.point[1])}, ${fixed(shape.point[0])} · ${w.box}: ${fixed(shape.bbox[1])}, ${fixed(shape.bbox[0])} – ${fixed(shape.bbox[3])}, ${fixed(shape.bbox[2])}</p>` : ''}
${drawing.neighbours.length > 0 ? html`<h2>${w.neighbours}</h2><p class="neighbours">${drawing.neighbours.map((c, i) => html`${i > 0 ? ' · ' : ''}${link(gazetteer.byCode(c)!)}`)}</p>` : ''}
${children.length > 0 ? html`<h2>${w.children[unit.level as 'province' | 'district']}</h2><p class="children">${children.map((c, i) => html`${i > 0 ? ' · ' : ''}${link(c)}`)}</p>` : ''}
<p class="muted">${w.geojson} <code>GET /v1/boundaries/${unit.code}</code></p>
<script nonce="${ctx.nonce?.script}">${CLICK_SCRIPT}</script>`;
  return layout(ctx, name, body);
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
