/**
 * A bar chart of requests per day as inline SVG, drawn on the server: no JavaScript, readable by screen readers.
 * The vertical axis is labelled with 0 and the busiest day's count, the horizontal one with the first, middle and
 * last dates (UTC); each bar's title holds its date and count. Without any usage, a sentence says so instead.
 */
import { html, type Html } from './html.js';
import { count, digits, fill, type Lang, messages } from './i18n.js';

const WIDTH = 600;
const HEIGHT = 200;
/** Room for the axis labels: left for the counts, bottom for the dates. */
const LEFT = 64;
const BOTTOM = 32;
const TOP = 12;

export function dailyChart(days: { day: string; count: number }[], lang: Lang): Html {
  const t = messages(lang);
  const total = days.reduce((n, d) => n + d.count, 0);
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  if (total === 0) {
    return html`<figure class="chart"><p class="chart-empty">${t.chartEmpty}</p>
  <figcaption>${t.perDay} <span class="muted">(${digits(lang, first)} – ${digits(lang, last)}, ${t.utc})</span></figcaption></figure>`;
  }
  const max = Math.max(...days.map((d) => d.count));
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const barWidth = (WIDTH - LEFT) / days.length;
  const bars = days.map((d, i) => {
    const h = Math.round((d.count / max) * plotHeight);
    return html`<rect x="${(LEFT + i * barWidth + 1).toFixed(1)}" y="${TOP + plotHeight - h}" width="${(barWidth - 2).toFixed(1)}" height="${h}"><title>${digits(lang, d.day)}: ${count(lang, d.count)}</title></rect>`;
  });
  const middle = days[Math.floor(days.length / 2)]?.day ?? '';
  const baseline = TOP + plotHeight;
  const summary = fill(t.chartSummary, { total, max }, lang);
  return html`<figure class="chart">
  <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${t.perDay}: ${summary}">
    <g class="axis" aria-hidden="true">
      <line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${baseline}"></line>
      <line x1="${LEFT}" y1="${baseline}" x2="${WIDTH}" y2="${baseline}"></line>
      <text class="y-max" x="${LEFT - 6}" y="${TOP + 16}" text-anchor="end">${count(lang, max)}</text>
      <text class="y-zero" x="${LEFT - 6}" y="${baseline}" text-anchor="end">${digits(lang, 0)}</text>
      <text class="x-first" x="${LEFT}" y="${HEIGHT - 6}" text-anchor="start">${digits(lang, first.slice(5))}</text>
      <text class="x-middle" x="${LEFT + (WIDTH - LEFT) / 2}" y="${HEIGHT - 6}" text-anchor="middle">${digits(lang, middle.slice(5))}</text>
      <text class="x-last" x="${WIDTH}" y="${HEIGHT - 6}" text-anchor="end">${digits(lang, last.slice(5))}</text>
    </g>
    <g class="bars">${bars}</g>
  </svg>
  <figcaption>${t.perDay} <span class="muted">(${digits(lang, first)} – ${digits(lang, last)}, ${t.utc})</span><br>${summary}</figcaption>
</figure>`;
}

/** The last `n` days up to `today` (`YYYY-MM-DD`), with zero for days without usage. */
export function lastDays(today: string, n: number, usage: { day: string; count: number }[]): { day: string; count: number }[] {
  const counts = new Map(usage.map((u) => [u.day, u.count]));
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: n }, (_, i) => {
    const day = new Date(end - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return { day, count: counts.get(day) ?? 0 };
  });
}
