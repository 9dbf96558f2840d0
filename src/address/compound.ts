/**
 * Compound search: a search query that names a unit and one or more of its ancestors ("Tonle Basak Chamkar Mon",
 * "ភូមិ១ ទន្លេបាសាក់", "Svay Dankum, Siem Reap") ranks the unit that fits the whole chain first, then the plain results.
 *
 * A query is compound only when the search index has no exact or alias match for it as a whole (so single names rank
 * as before) and the resolver explains all of it with at least two units of one lineage, without ambiguity or
 * contradiction. Otherwise the plain results are returned unchanged.
 */
import type { SearchHit, SearchIndex, SearchPage } from '../search/search-index.js';
import { AddressInputError, type AddressResolver } from './resolve.js';

/** Plain results merged in memory only up to this many (compound queries have few plain results). */
const MAX_MERGED = 1000;

export interface CompoundPage extends Omit<SearchPage, 'hits'> {
  hits: (Omit<SearchHit, 'match'> & { match: SearchHit['match'] | 'compound' })[];
}

export function compoundSearch(search: SearchIndex, resolver: AddressResolver, text: string, { offset = 0, limit = 10 } = {}): CompoundPage {
  const plain = search.search(text, { offset: 0, limit: 1 });
  const first = plain.hits[0]?.match;
  if (first === 'exact' || first === 'alias' || first === 'postal_code' || plain.total > MAX_MERGED) return search.search(text, { offset, limit });
  let unitCode: string | undefined;
  try {
    const best = resolver.resolve(text, { limit: 1 }).candidates[0];
    const named = best?.matched.filter((m) => m.how !== 'postal_code') ?? [];
    const levels = new Set(named.map((m) => m.level));
    if (best && levels.size >= 2 && best.unmatched.length === 0 && best.warnings.length === 0) unitCode = best.unit.code;
  } catch (error) {
    if (!(error instanceof AddressInputError)) throw error;
  }
  if (unitCode === undefined) return search.search(text, { offset, limit });
  const all = search.search(text, { offset: 0, limit: MAX_MERGED });
  const rest = all.hits.filter((h) => h.unit.code !== unitCode);
  const merged: CompoundPage['hits'] = [{ unit: resolver.unitByCode(unitCode)!, match: 'compound' }, ...rest];
  return { total: merged.length, hits: merged.slice(offset, offset + limit) };
}
