import type { Gazetteer } from '../gazetteer/gazetteer.js';
import { searchAliases } from './aliases.js';
import { SearchIndex } from './search-index.js';
import { readSnapshot, SNAPSHOT_PATH } from './snapshot.js';

export interface LoadedSearchIndex {
  index: SearchIndex;
  /** Whether the tables came from the build's snapshot or were built now, and why not from the snapshot. */
  tables: { from: 'snapshot' } | { from: 'built'; snapshot: string };
}

/**
 * The search index over every unit, the curated aliases of data/aliases.csv and the former names and codes of the
 * unit history: its tables from the snapshot that
 * `npm run build` saves when it matches this data and code, built now otherwise.
 */
export function loadSearchIndex(gazetteer: Gazetteer, { snapshotPath = SNAPSHOT_PATH } = {}): LoadedSearchIndex {
  const aliases = searchAliases(gazetteer);
  const read = readSnapshot(snapshotPath, gazetteer.units, aliases);
  if ('tables' in read) return { index: new SearchIndex(gazetteer.units, aliases, { tables: read.tables }), tables: { from: 'snapshot' } };
  return { index: new SearchIndex(gazetteer.units, aliases), tables: { from: 'built', snapshot: read.unusable } };
}
