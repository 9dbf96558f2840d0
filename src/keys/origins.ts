/**
 * Origins of browser keys: what a key may list (`https://shop.example.com`, `http://localhost:5173`) and the origin
 * a request comes from (its Origin header, or lacking it, the origin of its Referer). Pure, no HTTP.
 */

/** Most origins one browser key may list, and the longest origin accepted. */
export const MAX_ORIGINS = 20;
export const MAX_ORIGIN_LENGTH = 200;

/**
 * The canonical form of an origin (`scheme://host[:port]`, lower case, default port dropped), or undefined when the
 * text is not an http(s) origin: no path, query, fragment, credentials or wildcard.
 */
export function normalizeOrigin(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_ORIGIN_LENGTH) return undefined;
  if (!/^https?:\/\/[^/?#@*\s]+\/?$/i.test(trimmed)) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.hostname === '') return undefined;
  return url.origin;
}

/** The canonical list of origins for a key: every entry valid, no duplicates, 1 to MAX_ORIGINS of them; else a message. */
export function parseOrigins(texts: readonly string[]): { origins: string[] } | { problem: string } {
  const origins: string[] = [];
  for (const text of texts) {
    if (text.trim() === '') continue;
    const origin = normalizeOrigin(text);
    if (!origin) return { problem: `not an origin: ${JSON.stringify(text.slice(0, MAX_ORIGIN_LENGTH))} (write scheme://host[:port], e.g. https://shop.example.com or http://localhost:5173)` };
    if (!origins.includes(origin)) origins.push(origin);
  }
  if (origins.length === 0) return { problem: 'a browser key needs at least one allowed origin' };
  if (origins.length > MAX_ORIGINS) return { problem: `a browser key lists at most ${MAX_ORIGINS} origins` };
  return { origins };
}

/**
 * The origin a request says it comes from: its Origin header (browsers send it on every cross-origin request and on
 * same-origin ones other than GET/HEAD), else the origin of its Referer. `null` Origin (sandboxed frames, file:)
 * and anything unparsable give undefined.
 */
export function requestOrigin(origin: string | string[] | undefined, referer: string | string[] | undefined): string | undefined {
  if (typeof origin === 'string' && origin !== '') return origin === 'null' ? undefined : normalizeOrigin(origin);
  if (typeof referer !== 'string' || referer === '' || referer.length > 2048) return undefined;
  try {
    const url = new URL(referer);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
