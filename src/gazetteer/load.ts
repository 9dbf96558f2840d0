import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Gazetteer } from './gazetteer.js';
import type { Dataset, History } from './types.js';

/** The generated dataset, built by `npm run build:data`. Same relative path from src/ and from dist/. */
export const DATASET_PATH = fileURLToPath(new URL('../../data/gazetteer.json', import.meta.url));

/** The unit-events table (data/history.json), built with the dataset. */
export const HISTORY_PATH = fileURLToPath(new URL('../../data/history.json', import.meta.url));

/** Reads and indexes the dataset; throws with the path if the file is missing or not a dataset. */
export function loadGazetteer(path: string = DATASET_PATH, historyPath: string = HISTORY_PATH): Gazetteer {
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
  let history: History;
  let historyDigest: string;
  try {
    const bytes = readFileSync(historyPath);
    historyDigest = createHash('sha256').update(bytes).digest('hex');
    history = JSON.parse(bytes.toString('utf8')) as History;
  } catch (error) {
    throw new Error(`cannot read the unit history at ${historyPath} (run npm run build:data): ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (!Array.isArray(history?.events) || !Array.isArray(history.retired)) throw new Error(`${historyPath} is not a kh-address history`);
  return new Gazetteer(dataset, history, { historyDigest });
}
