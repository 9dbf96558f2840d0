/** Shared test fixtures: the real dataset, loaded once per test process. */
import type { Gazetteer } from '../src/gazetteer/gazetteer.js';
import { loadGazetteer } from '../src/gazetteer/load.js';
import { type Geography, loadGeography } from '../src/geo/geography.js';
import type { Unit } from '../src/gazetteer/types.js';
import type { AppOptions } from '../src/http/app.js';
import { loadSearchIndex } from '../src/search/load.js';
import type { SearchIndex } from '../src/search/search-index.js';

let cached: Gazetteer | undefined;
let cachedSearch: SearchIndex | undefined;

export function gazetteer(): Gazetteer {
  cached ??= loadGazetteer();
  return cached;
}

/** The unit with this code; fails the test if there is none. */
export function unit(code: string): Unit {
  const found = gazetteer().byCode(code);
  if (!found) throw new Error(`no unit ${code} in the dataset`);
  return found;
}

/** The real search index (with data/aliases.csv), built once per test process. */
export function searchIndex(): SearchIndex {
  cachedSearch ??= loadSearchIndex(gazetteer()).index;
  return cachedSearch;
}

/**
 * What buildApp needs, from the real data. Load shedding is off: on a busy machine (the suite runs files in
 * parallel) the event loop lags and a test not about shedding would get 503s. The shedding test sets its own.
 */
export function appOptions(): AppOptions {
  return { gazetteer: gazetteer(), search: searchIndex(), geo: geography(), maxEventLoopDelayMs: 0 };
}

let cachedGeography: Geography | undefined;

/** The real geometry (data/geo), loaded once per test process. */
export function geography(): Geography {
  cachedGeography ??= loadGeography();
  return cachedGeography;
}
