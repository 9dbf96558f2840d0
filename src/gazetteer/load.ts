import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Gazetteer } from './gazetteer.js';
import type { Dataset } from './types.js';

/** The generated dataset, built by `npm run build:data`. Same relative path from src/ and from dist/. */
export const DATASET_PATH = fileURLToPath(new URL('../../data/gazetteer.json', import.meta.url));

/** Reads and indexes the dataset; throws with the path if the file is missing or not a dataset. */
export function loadGazetteer(path: string = DATASET_PATH): Gazetteer {
  let dataset: Dataset;
  try {
    dataset = JSON.parse(readFileSync(path, 'utf8')) as Dataset;
  } catch (error) {
    throw new Error(`cannot read the dataset at ${path} (run npm run build:data): ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (typeof dataset?.version !== 'string' || !Array.isArray(dataset.units)) {
    throw new Error(`${path} is not a kh-address dataset`);
  }
  return new Gazetteer(dataset);
}
