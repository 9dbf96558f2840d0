/** Run by `npm run build` after compiling: saves the search index's tables beside the code (see snapshot.ts). */
import { loadGazetteer } from '../gazetteer/load.js';
import { searchAliases } from './aliases.js';
import { buildTables } from './search-index.js';
import { readSnapshot, SNAPSHOT_PATH, writeSnapshot } from './snapshot.js';

const gazetteer = loadGazetteer();
const aliases = searchAliases(gazetteer);
writeSnapshot(SNAPSHOT_PATH, gazetteer.units, aliases, buildTables(gazetteer.units, aliases));
// What a start will do: a snapshot it would not use is a build error, not a silently slower start.
const read = readSnapshot(SNAPSHOT_PATH, gazetteer.units, aliases);
if ('unusable' in read) throw new Error(`the search snapshot just written is not usable: ${read.unusable}`);
console.log(`search index snapshot written: ${SNAPSHOT_PATH}`);
