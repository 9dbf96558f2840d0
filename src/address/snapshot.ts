/**
 * The address resolver's tables saved as JSON by `npm run build`, beside the compiled code, as the search index's
 * tables are (see ../search/snapshot.ts):
 * - the loose-key table (looseTable in ./resolve.ts): read in a few milliseconds instead of made (about 175 ms of CPU);
 * - the hashes of the resolver's prefix sets (./prefixes.ts, about 50 ms of CPU at start), each checked against a
 *   digest of the keys it was made from when it is used;
 * - the stem table (stemTable in ./resolve.ts) and the place names with the word borey (BoreyNames in ./parts.ts):
 *   about 20 ms of CPU at start;
 * - the names of communes and above by sound and by typo (SoundTables in ./resolve.ts): about 110 ms of CPU at start
 *   on a 2-core EPYC VM (2026-11-27), read in about 10;
 * - what the resolver works out once per unit and is slow to work out (UnitTables in ./unit-tables.ts: former parents
 *   and the digits of its name). Worked out as addresses came, they cost the first rows of a file about 300 ms of CPU
 *   in `kh-address resolve`, and the service's first requests the same.
 *
 * The snapshot carries a fingerprint of what it is made from: the units' codes, parents, levels and names, the unit
 * history (the gazetteer's digest of it), and the code that makes the tables (this directory, ../search, whose
 * latin.ts and khmer.ts fold and romanize, and ../gazetteer, which works out former parents). A snapshot whose
 * fingerprint differs, or that cannot be read, is ignored and the tables are made as before: it can make a start
 * faster, never change a result.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import { readSnapshotFile, writeSnapshotFile } from '../lib/snapshot-file.js';
import { isSavedBoreyNames, type SavedBoreyNames } from './parts.js';
import { PREFIX_SET_NAMES, type PrefixSetName, type SavedPrefixes } from './prefixes.js';
import type { SoundTables } from './resolve.js';
import { checkUnitTables, type UnitTables } from './unit-tables.js';
import { decodeTypo, encodeTypo, type TypoJson } from '../search/snapshot.js';

/** dist/address-tables.json (written by `npm run build`; never committed). */
export const ADDRESS_SNAPSHOT_PATH = fileURLToPath(new URL('../address-tables.json', import.meta.url));

const FORMAT = 7;
const CODE_DIRS = ['.', '../search/', '../gazetteer/'].map((dir) => fileURLToPath(new URL(dir, import.meta.url)));

interface SnapshotFile {
  format: number;
  fingerprint: string;
  loose: [string, number[]][];
  prefixes: Record<PrefixSetName, SavedPrefixes>;
  units: UnitTables;
  stems: [string, number[]][];
  boreyNames: SavedBoreyNames;
  sounds: { khmerTypo: TypoJson; khmer: [string, number[]][]; latin: [string, number[]][] };
}

/** What the tables depend on, as one hash. */
export function addressFingerprint(gazetteer: Gazetteer): string {
  const hash = createHash('sha256').update(`kh-address address snapshot ${FORMAT}\n`);
  for (const dir of CODE_DIRS) {
    for (const file of readdirSync(dir).filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith('.d.ts')).sort()) {
      hash.update(`${file}\n`).update(readFileSync(dir + file));
    }
  }
  const fields = (u: Gazetteer['units'][number]) => [u.code, u.parent_code ?? '', u.level, u.name_latin, u.name_ungegn ?? '', u.name_km].join('\t');
  hash.update(gazetteer.units.map(fields).join('\n'));
  hash.update(`\nhistory ${gazetteer.historyDigest()}`);
  return hash.digest('hex');
}

export function writeAddressSnapshot(path: string, gazetteer: Gazetteer, loose: ReadonlyMap<string, number[]>,
  prefixes: Record<PrefixSetName, SavedPrefixes>, units: UnitTables, names: { stems: ReadonlyMap<string, number[]>; boreyNames: SavedBoreyNames },
  sounds: SoundTables): void {
  writeSnapshotFile(path, {
    format: FORMAT, fingerprint: addressFingerprint(gazetteer), loose: [...loose], prefixes, units, stems: [...names.stems], boreyNames: names.boreyNames,
    sounds: { khmerTypo: encodeTypo(sounds.khmerTypo), khmer: [...sounds.khmer], latin: [...sounds.latin] },
  } satisfies SnapshotFile);
}

/** The tables from the snapshot, or why it cannot be used. */
export function readAddressSnapshot(path: string, gazetteer: Gazetteer): {
  loose: Map<string, number[]>; prefixes: Partial<Record<PrefixSetName, SavedPrefixes>>; units: UnitTables | undefined;
  stems: Map<string, number[]> | undefined; boreyNames: SavedBoreyNames | undefined; sounds: SoundTables | undefined;
} | { unusable: string } {
  const read = readSnapshotFile<SnapshotFile>(path);
  if ('unusable' in read) return read;
  const { file } = read;
  const { units } = gazetteer;
  if (file?.format !== FORMAT || file.fingerprint !== addressFingerprint(gazetteer)) {
    return { unusable: 'made from other data or code (npm run build writes a current one)' };
  }
  const isTable = (table: unknown): table is [string, number[]][] => Array.isArray(table) && table.every((entry) => Array.isArray(entry)
    && typeof entry[0] === 'string' && Array.isArray(entry[1]) && entry[1].every((u) => Number.isInteger(u) && u >= 0 && u < units.length));
  if (!isTable(file.loose)) return { unusable: 'malformed' };
  // Each set is used only if its digest matches the keys of this start (PrefixSet): a malformed one is left out.
  const prefixes: Partial<Record<PrefixSetName, SavedPrefixes>> = {};
  for (const name of PREFIX_SET_NAMES) {
    const saved = file.prefixes?.[name];
    if (typeof saved?.digest === 'string' && typeof saved.hashes === 'string') prefixes[name] = saved;
  }
  // Likewise the unit tables: left out (worked out as addresses come) unless every entry has its shape.
  return {
    loose: new Map(file.loose), prefixes, units: checkUnitTables(file.units, units.length) ? file.units : undefined,
    stems: isTable(file.stems) ? new Map(file.stems) : undefined,
    boreyNames: isSavedBoreyNames(file.boreyNames) ? file.boreyNames : undefined,
    sounds: readSounds(file.sounds, isTable),
  };
}

/** The sound tables of a snapshot, or undefined (they are made at start) when any is not shaped as written. */
function readSounds(sounds: SnapshotFile['sounds'] | undefined, isTable: (table: unknown) => table is [string, number[]][]): SoundTables | undefined {
  if (!sounds || !isTable(sounds.khmer) || !isTable(sounds.latin)) return undefined;
  try {
    return { khmerTypo: decodeTypo(sounds.khmerTypo), khmer: new Map(sounds.khmer), latin: new Map(sounds.latin) };
  } catch {
    return undefined;
  }
}
