/** Run by `npm run build` after compiling: saves the address resolver's loose-key table beside the code (see snapshot.ts). */
import { loadGazetteer } from '../gazetteer/load.js';
import { looseTable } from './resolve.js';
import { ADDRESS_SNAPSHOT_PATH, readLooseSnapshot, writeLooseSnapshot } from './snapshot.js';

const { units } = loadGazetteer();
writeLooseSnapshot(ADDRESS_SNAPSHOT_PATH, units, looseTable(units));
// What a start will do: a snapshot it would not use is a build error, not a silently slower start.
const read = readLooseSnapshot(ADDRESS_SNAPSHOT_PATH, units);
if ('unusable' in read) throw new Error(`the address snapshot just written is not usable: ${read.unusable}`);
console.log(`address resolver snapshot written: ${ADDRESS_SNAPSHOT_PATH}`);
