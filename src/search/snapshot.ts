/**
 * The search index's tables saved as JSON by `npm run build`, so that a start reads them (about 0.1 s) instead of
 * building them (about 0.5 s, and several times their size in garbage for the collector).
 *
 * A snapshot carries a fingerprint of everything the tables are made from: the fields of the units that the index
 * reads, the aliases, and the search engine's own code (this directory). A snapshot whose fingerprint differs, or that
 * cannot be read, is ignored and the tables are built as before: it can make a start faster, never change a result.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Unit } from '../gazetteer/types.js';
import { int32FromBase64, readSnapshotFile, typedToBase64, uint32FromBase64, writeSnapshotFile } from '../lib/snapshot-file.js';
import type { Alias } from './aliases.js';
import { type IndexTables, MultiMap } from './search-index.js';
import { SortedKeys } from './sorted-keys.js';
import { TypoIndex } from './typo.js';

/** Beside the compiled code: dist/search-index.json (written by `npm run build`; never committed). */
export const SNAPSHOT_PATH = fileURLToPath(new URL('../search-index.json', import.meta.url));

const FORMAT = 3;
const ENGINE_DIR = fileURLToPath(new URL('.', import.meta.url));

/** What the tables depend on, as one hash. */
export function fingerprint(units: readonly Unit[], aliases: readonly Alias[]): string {
  const hash = createHash('sha256').update(`kh-address search snapshot ${FORMAT}\n`);
  for (const file of readdirSync(ENGINE_DIR).filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith('.d.ts')).sort()) {
    hash.update(`${file}\n`).update(readFileSync(ENGINE_DIR + file));
  }
  hash.update(units.map((u) => [u.code, u.level, u.name_latin, u.name_ungegn ?? '', u.name_km, u.postal_code].join('\t')).join('\n'));
  hash.update(JSON.stringify(aliases.map((a) => [a.alias, a.codes, a.former === true])));
  return hash.digest('hex');
}

type Entries<V> = [string, V][];
interface SortedJson { keys: string[]; units: string }
/** A TypoIndex as JSON values (its arrays in base64: typedToBase64). */
export interface TypoJson { maxDepth: number; words: string[]; hashes: string; wordAt: string }

export const encodeTypo = (typo: TypoIndex): TypoJson => ({ maxDepth: typo.maxDepth, words: [...typo.words], hashes: typedToBase64(typo.hashes), wordAt: typedToBase64(typo.wordAt) });

/**
 * The index; throws if `json` is not shaped as a TypoJson (its values are those of a snapshot whose fingerprint
 * matched: they are not checked one by one).
 */
export function decodeTypo(json: TypoJson): TypoIndex {
  const { maxDepth, words, hashes, wordAt } = json ?? {};
  if (!Number.isInteger(maxDepth) || !Array.isArray(words)) throw new Error('not a typo index');
  const index = new TypoIndex(words, uint32FromBase64(hashes), int32FromBase64(wordAt), maxDepth);
  if (index.hashes.length !== index.wordAt.length) throw new Error('not a typo index');
  return index;
}

/** The tables as JSON values: maps as entry lists, typed arrays as arrays. */
interface TablesJson {
  order: string;
  byOrder: string;
  multi: Record<MultiName, Entries<number | number[]>>;
  sorted: Record<SortedName, SortedJson>;
  typo: Record<TypoName, TypoJson>;
  postalOwner: Entries<number>;
  unitWordLists: string[][][];
}

const MULTI = ['latinExact', 'keyExact', 'khmerExact', 'aliasExact', 'aliasKey', 'formerExact', 'wordPostings', 'compactNames'] as const;
const SORTED = ['latinPrefix', 'latinWordSuffix', 'keyPrefix', 'khmerPrefix', 'khmerInner', 'aliasPrefix', 'postal'] as const;
const TYPO = ['typoWords', 'typoCompact'] as const;
type MultiName = (typeof MULTI)[number];
type SortedName = (typeof SORTED)[number];
type TypoName = (typeof TYPO)[number];

const pick = <N extends string, T, R>(names: readonly N[], from: (name: N) => T, map: (value: T) => R) =>
  Object.fromEntries(names.map((name) => [name, map(from(name))])) as Record<N, R>;

export function encodeTables(tables: IndexTables): TablesJson {
  return {
    order: typedToBase64(tables.order),
    byOrder: typedToBase64(tables.byOrder),
    multi: pick(MULTI, (name) => tables[name], (map) => map.entries()),
    sorted: pick(SORTED, (name) => tables[name], (sorted) => ({ keys: [...sorted.keys], units: typedToBase64(sorted.units) })),
    typo: pick(TYPO, (name) => tables[name], encodeTypo),
    postalOwner: [...tables.postalOwner],
    unitWordLists: tables.unitWordLists,
  };
}

export function decodeTables(json: TablesJson): IndexTables {
  return {
    order: int32FromBase64(json.order),
    byOrder: int32FromBase64(json.byOrder),
    ...pick(MULTI, (name) => json.multi[name], (entries) => new MultiMap(new Map(entries))),
    ...pick(SORTED, (name) => json.sorted[name], ({ keys, units }) => new SortedKeys(keys, int32FromBase64(units))),
    ...pick(TYPO, (name) => json.typo[name], decodeTypo),
    postalOwner: new Map(json.postalOwner),
    unitWordLists: json.unitWordLists,
  };
}

interface SnapshotFile {
  format: number;
  fingerprint: string;
  tables: TablesJson;
}

export function writeSnapshot(path: string, units: readonly Unit[], aliases: readonly Alias[], tables: IndexTables): void {
  const file: SnapshotFile = { format: FORMAT, fingerprint: fingerprint(units, aliases), tables: encodeTables(tables) };
  writeSnapshotFile(path, file);
}

/** Why a snapshot was not used, or its tables. */
export type SnapshotRead = { tables: IndexTables } | { unusable: string };

export function readSnapshot(path: string, units: readonly Unit[], aliases: readonly Alias[]): SnapshotRead {
  const read = readSnapshotFile<SnapshotFile>(path);
  if ('unusable' in read) return read;
  const { file } = read;
  if (file?.format !== FORMAT || file.fingerprint !== fingerprint(units, aliases)) {
    return { unusable: 'made from other data or code (npm run build writes a current one)' };
  }
  try {
    return { tables: decodeTables(file.tables) };
  } catch (error) {
    return { unusable: `malformed: ${(error as Error).message}` };
  }
}
