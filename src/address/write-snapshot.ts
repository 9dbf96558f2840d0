/**
 * Run by `npm run build` after compiling (and after the search index's snapshot): saves the address resolver's
 * loose-key table, prefix sets and unit tables beside the code (see snapshot.ts).
 */
import { loadGazetteer } from '../gazetteer/load.js';
import { loadSearchIndex } from '../search/load.js';
import { AddressResolver, looseTable } from './resolve.js';
import { PREFIX_SET_NAMES } from './prefixes.js';
import { ADDRESS_SNAPSHOT_PATH, readAddressSnapshot, writeAddressSnapshot } from './snapshot.js';

const gazetteer = loadGazetteer();
const loose = looseTable(gazetteer.units);
const resolver = new AddressResolver(gazetteer, loadSearchIndex(gazetteer).index, { loose });
writeAddressSnapshot(ADDRESS_SNAPSHOT_PATH, gazetteer, loose, resolver.savedPrefixes(), resolver.unitTables(), resolver.savedNames(), resolver.soundTables());
// What a start will do: a snapshot it would not use is a build error, not a silently slower start.
const read = readAddressSnapshot(ADDRESS_SNAPSHOT_PATH, gazetteer);
if ('unusable' in read) throw new Error(`the address snapshot just written is not usable: ${read.unusable}`);
if (Object.keys(read.prefixes).length !== PREFIX_SET_NAMES.length) throw new Error('the address snapshot just written lacks prefix sets');
if (!read.units) throw new Error('the address snapshot just written lacks the unit tables');
if (!read.stems || !read.boreyNames) throw new Error('the address snapshot just written lacks the stem table or the borey names');
if (!read.sounds) throw new Error('the address snapshot just written lacks the tables by sound');
console.log(`address resolver snapshot written: ${ADDRESS_SNAPSHOT_PATH}`);
