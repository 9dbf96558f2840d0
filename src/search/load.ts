import type { Gazetteer } from '../gazetteer/gazetteer.js';
import { loadAliases } from './aliases.js';
import { SearchIndex } from './search-index.js';

/** The search index over every unit and the curated aliases of data/aliases.csv. */
export function loadSearchIndex(gazetteer: Gazetteer): SearchIndex {
  return new SearchIndex(gazetteer.units, loadAliases());
}
