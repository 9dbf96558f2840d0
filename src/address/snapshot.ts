/**
 * The address resolver's loose-key table (looseTable in ./resolve.ts) saved as JSON by `npm run build`, beside the
 * compiled code, as the search index's tables are (see ../search/snapshot.ts): a start reads it in a few milliseconds
 * instead of making it (about 175 ms of CPU). With it, the hashes of the resolver's prefix sets (./prefixes.ts, about
 * 50 ms of CPU at start), each checked against a digest of the keys it was made from when it is used.
 *
 * The snapshot carries a fingerprint of what the table is made from: the units' codes and Latin names, and the code
 * that makes the keys (this directory and ../search, whose latin.ts folds and romanizes). A snapshot whose
 * fingerprint differs, or that cannot be read, is ignored and the table is made as before: it can make a start
 * faster, never change a result.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Unit } from '../gazetteer/types.js';
import { readSnapshotFile, writeSnapshotFile } from '../lib/snapshot-file.js';
import { PREFIX_SET_NAMES, type PrefixSetName, type SavedPrefixes } from './prefixes.js';

/** dist/address-tables.json (written by `npm run build`; never committed). */
export const ADDRESS_SNAPSHOT_PATH = fileURLToPath(new URL('../address-tables.json', import.meta.url));

const FORMAT = 3;
const CODE_DIRS = [new URL('.', import.meta.url), new URL('../search/', import.meta.url)].map((url) => fileURLToPath(url));

interface SnapshotFile {
  format: number;
  fingerprint: string;
  loose: [string, number[]][];
  prefixes: Record<PrefixSetName, SavedPrefixes>;
}

/** What the table depends on, as one hash. */
export function looseFingerprint(units: readonly Unit[]): string {
  const hash = createHash('sha256').update(`kh-address address snapshot ${FORMAT}\n`);
  for (const dir of CODE_DIRS) {
    for (const file of readdirSync(dir).filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith('.d.ts')).sort()) {
      hash.update(`${file}\n`).update(readFileSync(dir + file));
    }
  }
  hash.update(units.map((u) => `${u.code}\t${u.name_latin}\t${u.name_ungegn ?? ''}`).join('\n'));
  return hash.digest('hex');
}

export function writeLooseSnapshot(path: string, units: readonly Unit[], loose: ReadonlyMap<string, number[]>,
  prefixes: Record<PrefixSetName, SavedPrefixes>): void {
  writeSnapshotFile(path, { format: FORMAT, fingerprint: looseFingerprint(units), loose: [...loose], prefixes } satisfies SnapshotFile);
}

/** The table from the snapshot, or why it cannot be used. */
export function readLooseSnapshot(path: string, units: readonly Unit[]):
  { loose: Map<string, number[]>; prefixes: Partial<Record<PrefixSetName, SavedPrefixes>> } | { unusable: string } {
  const read = readSnapshotFile<SnapshotFile>(path);
  if ('unusable' in read) return read;
  const { file } = read;
  if (file?.format !== FORMAT || file.fingerprint !== looseFingerprint(units)) {
    return { unusable: 'made from other data or code (npm run build writes a current one)' };
  }
  const valid = Array.isArray(file.loose) && file.loose.every((entry) => Array.isArray(entry) && typeof entry[0] === 'string'
    && Array.isArray(entry[1]) && entry[1].every((u) => Number.isInteger(u) && u >= 0 && u < units.length));
  if (!valid) return { unusable: 'malformed' };
  // Each set is used only if its digest matches the keys of this start (PrefixSet): a malformed one is left out.
  const prefixes: Partial<Record<PrefixSetName, SavedPrefixes>> = {};
  for (const name of PREFIX_SET_NAMES) {
    const saved = file.prefixes?.[name];
    if (typeof saved?.digest === 'string' && typeof saved.hashes === 'string') prefixes[name] = saved;
  }
  return { loose: new Map(file.loose), prefixes };
}
