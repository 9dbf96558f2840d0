/**
 * HTTP caching of data responses. The data changes only with the dataset version (and the format only with the
 * API version), so one weak ETag per pair of versions serves every URL; the body differs per request only in
 * metadata.correlationId, hence weak. A matching If-None-Match gets 304 with no body.
 * Applied where data responses are sent (../payload-cache.ts), not in an onSend hook: a hook on every response
 * cost throughput, and a 304 then needs no body at all.
 */
import { createHash } from 'node:crypto';

/** `Cache-Control` of data responses: private, because every request will need an API key and counts against it. */
export const CACHE_CONTROL = 'private, max-age=3600';

/**
 * The version of the data a response is made of: the dataset's, and with boundaries loaded the geometry's too (the
 * records' locations and the boundaries come from it, and it can change without the dataset).
 */
export function dataVersion(datasetVersion: string, geoVersion?: string): string {
  return geoVersion === undefined ? datasetVersion : `${datasetVersion}+geo.${geoVersion}`;
}

/** The ETag of every data response: a short hash of the API and dataset versions (fewer bytes on every response). */
export function etagFor(apiVersion: string, datasetVersion: string): string {
  return `W/"${createHash('sha256').update(`${apiVersion}+${datasetVersion}`).digest('base64url').slice(0, 16)}"`;
}

/** Whether an If-None-Match header matches `etag`, by weak comparison (W/"x" matches "x" and W/"x"). */
export function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.slice(2);
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === etag || t === opaque;
  });
}
