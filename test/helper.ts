/** Shared test fixtures: the real dataset, loaded once per test process. */
import type { Gazetteer } from '../src/gazetteer/gazetteer.js';
import { loadGazetteer } from '../src/gazetteer/load.js';
import type { Unit } from '../src/gazetteer/types.js';

let cached: Gazetteer | undefined;

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
