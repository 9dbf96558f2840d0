/** A bar chart of requests per day as inline SVG, drawn on the server: no JavaScript, readable by screen readers. */
import { html, type Html } from './html.js';

export function dailyChart(days: { day: string; count: number }[], label: string): Html {
  const width = 600;
  const height = 160;
  const max = Math.max(1, ...days.map((d) => d.count));
  const barWidth = width / days.length;
  const bars = days.map((d, i) => {
    const h = Math.round((d.count / max) * (height - 20));
    return html`<rect x="${(i * barWidth + 1).toFixed(1)}" y="${height - h}" width="${(barWidth - 2).toFixed(1)}" height="${h}"><title>${d.day}: ${d.count}</title></rect>`;
  });
  const total = days.reduce((n, d) => n + d.count, 0);
  return html`<figure class="chart">
  <svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}: ${total}" preserveAspectRatio="none">${bars}</svg>
  <figcaption>${label} <span class="muted">(${days[0]?.day} – ${days.at(-1)?.day}, max ${max})</span></figcaption>
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
