/**
 * `kh-address reverse [FILE]`: the commune of every row of a CSV of coordinates (FILE, or standard input), written
 * as the same CSV with the answer's columns appended. Columns are found by name in the header: lat or latitude, and
 * lng, lon, long or longitude (any case). A row whose coordinates are not decimal degrees in range keeps its data
 * and says why in `error`; the others go on.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import type { Geography } from '../geo/geography.js';
import { csvRow, parseCsv } from '../lib/csv.js';

export const REVERSE_USAGE = `  kh-address reverse [FILE]
      Read a CSV with lat and lng columns (FILE or standard input) and write it back with the commune of each row:
      commune_code, names, district, province, postal_code, approximate, approximate_reasons, distance_m, candidates,
      near, reason, error. Boundaries: Open Development Cambodia (2014) via geoBoundaries, CC BY 4.0 (attribution required).`;

export const REVERSE_COLUMNS = ['commune_code', 'commune_name_en', 'commune_name_km', 'district_code', 'district_name_en', 'province_code',
  'province_name_en', 'postal_code', 'approximate', 'approximate_reasons', 'distance_m', 'candidates', 'near', 'reason', 'error'] as const;

/** A decimal number, as the HTTP API accepts (no exponent, no hex). */
const DECIMAL = /^[+-]?[0-9]{1,3}(\.[0-9]{1,20})?$/;

export class ReverseInputError extends Error {}

function column(header: string[], names: string[]): number {
  const at = header.findIndex((h) => names.includes(h.trim().toLowerCase().replace(/^\uFEFF/, '')));
  if (at < 0) throw new ReverseInputError(`the CSV header has no ${names.join(' or ')} column`);
  return at;
}

function coordinate(raw: string | undefined, name: string, limit: number): number | string {
  const text = (raw ?? '').trim();
  if (text.length > 32 || !DECIMAL.test(text)) return `${name} must be a decimal number`;
  const value = Number(text);
  return value < -limit || value > limit ? `${name} must be from -${limit} to ${limit}` : value;
}

/** The output CSV, chunk by chunk (one row each), for `text` in. */
export function* reverseCsv(text: string, gazetteer: Gazetteer, geo: Geography): Generator<string> {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new ReverseInputError('the CSV is empty: it needs a header row with lat and lng columns');
  const latAt = column(header, ['lat', 'latitude']);
  const lngAt = column(header, ['lng', 'lon', 'long', 'longitude']);
  yield csvRow([...header, ...REVERSE_COLUMNS]);
  const blank = Object.fromEntries(REVERSE_COLUMNS.map((c) => [c, ''])) as Record<(typeof REVERSE_COLUMNS)[number], string | number>;
  for (const fields of rows) {
    if (fields.length === 1 && fields[0] === '') continue; // a blank line
    const lat = coordinate(fields[latAt], 'lat', 90);
    const lng = coordinate(fields[lngAt], 'lng', 180);
    const out = { ...blank };
    if (typeof lat === 'string' || typeof lng === 'string') {
      out.error = [lat, lng].filter((v) => typeof v === 'string').join('; ');
    } else {
      const answer = geo.reverse(lat, lng);
      if (!answer.hit) {
        out.reason = answer.reason;
      } else {
        const commune = gazetteer.byCode(answer.hit.code)!;
        const [province, district] = gazetteer.ancestors(commune.code);
        Object.assign(out, {
          commune_code: commune.code, commune_name_en: commune.name_latin, commune_name_km: commune.name_km,
          district_code: district!.code, district_name_en: district!.name_latin, province_code: province!.code,
          province_name_en: province!.name_latin, postal_code: commune.postal_code, approximate: String(answer.hit.approximate),
          approximate_reasons: answer.hit.reasons.join(' '), distance_m: answer.hit.distanceM, candidates: answer.hit.candidates.join(' '),
          near: answer.hit.near.map((n) => n.code).join(' '),
        });
      }
    }
    yield csvRow([...fields, ...REVERSE_COLUMNS.map((c) => out[c])]);
  }
}

/** Reads the arguments and the input; FILE `-` or none is standard input. */
export function reverseInput(args: string[]): string {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  if (positionals.length > 1) throw new ReverseInputError('reverse takes at most one FILE');
  const file = positionals[0] ?? '-';
  return readFileSync(file === '-' ? 0 : file, 'utf8');
}
