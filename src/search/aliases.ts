/** The curated alias table (data/aliases.csv): names people use that no spelling rule reaches. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCsvRecords } from '../lib/csv.js';

export const ALIASES_PATH = fileURLToPath(new URL('../../data/aliases.csv', import.meta.url));

export interface Alias {
  alias: string;
  /** NCDD codes of the units it means; an alias may mean several. */
  codes: string[];
  source: string;
  note: string;
}

export function parseAliases(text: string): Alias[] {
  return parseCsvRecords(text).map((row, i) => {
    const codes = (row.codes ?? '').split(' ').filter(Boolean);
    if (!row.alias?.trim() || codes.length === 0) throw new Error(`data/aliases.csv row ${i + 2}: alias and codes are required`);
    return { alias: row.alias, codes, source: row.source ?? '', note: row.note ?? '' };
  });
}

export function loadAliases(path: string = ALIASES_PATH): Alias[] {
  return parseAliases(readFileSync(path, 'utf8'));
}
