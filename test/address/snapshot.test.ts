/** The resolver's snapshot (src/address/snapshot.ts): read back equal, refused when stale, same answers. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AddressResolver, looseTable } from '../../src/address/resolve.js';
import { readAddressSnapshot, writeAddressSnapshot } from '../../src/address/snapshot.js';
import { checkUnitTables } from '../../src/address/unit-tables.js';
import { Gazetteer } from '../../src/gazetteer/gazetteer.js';
import { DATASET_PATH, HISTORY_PATH, loadGazetteer } from '../../src/gazetteer/load.js';
import type { Dataset, History } from '../../src/gazetteer/types.js';
import { gazetteer, searchIndex } from '../helper.js';

describe('address resolver snapshot', () => {
  const dir = mkdtempSync(join(os.tmpdir(), 'kh-address-snapshot-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const { units } = gazetteer();
  const made = looseTable(units);
  const maker = new AddressResolver(gazetteer(), searchIndex(), { loose: made });
  const prefixes = maker.savedPrefixes();
  const unitTables = maker.unitTables();
  const names = maker.savedNames();
  const sounds = maker.soundTables();

  it('reads back the tables it wrote, entry for entry', () => {
    const path = join(dir, 'address-tables.json');
    writeAddressSnapshot(path, gazetteer(), made, prefixes, unitTables, names, sounds);
    const read = readAddressSnapshot(path, gazetteer());
    assert.ok('loose' in read, JSON.stringify(read));
    assert.deepEqual([...read.loose], [...made]);
    assert.deepEqual(read.prefixes, prefixes);
    assert.deepEqual(read.units, unitTables);
    assert.deepEqual([...read.stems!], [...names.stems]);
    assert.deepEqual(read.boreyNames, names.boreyNames);
    assert.deepEqual(read.sounds, sounds);
    // Real content: communes and above by their consonants, Khmer and Latin, and by their Khmer names' deletions.
    assert.ok(sounds.khmer.size > 1000 && sounds.latin.size > 1000, `${sounds.khmer.size} ${sounds.latin.size}`);
    assert.ok(sounds.khmerTypo.words.length > 1000 && sounds.khmerTypo.hashes.length > sounds.khmerTypo.words.length);
    // Real content: stems of numbered names (Kakab 1 and 2), place names with the word borey (Angkor Borei).
    assert.deepEqual(names.stems.get('kakap')?.map((u) => units[u]!.code), ['120917', '120918']);
    assert.ok(names.boreyNames.latin.length >= 8 && names.boreyNames.khmer.length >= 5, JSON.stringify(names.boreyNames));
    // Real content: units that moved in a reform, Latin names with numbers, an entry per unit.
    assert.ok(unitTables.former.length > 1000, String(unitTables.former.length));
    assert.ok(unitTables.digits.filter(Boolean).length > 100);
    assert.equal(unitTables.digits.length, units.length);
  });

  it('is not used when the units or their history differ, when it is missing or malformed', () => {
    const path = join(dir, 'stale.json');
    const stale = { unusable: 'made from other data or code (npm run build writes a current one)' };
    const dataset = JSON.parse(readFileSync(DATASET_PATH, 'utf8')) as Dataset;
    const history = JSON.parse(readFileSync(HISTORY_PATH, 'utf8')) as History;
    // Made from the files (as the build and a start make it), then read by another start.
    writeAddressSnapshot(path, gazetteer(), made, prefixes, unitTables, names, sounds);
    assert.ok('loose' in readAddressSnapshot(path, loadGazetteer()));
    // Its history's digest is of the file's bytes; a gazetteer made from objects digests their JSON, another digest
    // of the same history: the snapshot is made again then, never used for another history.
    assert.equal(gazetteer().historyDigest(), createHash('sha256').update(readFileSync(HISTORY_PATH)).digest('hex'));
    assert.deepEqual(readAddressSnapshot(path, new Gazetteer(dataset, history)), stale);
    // Made from objects, then read with other objects.
    writeAddressSnapshot(path, new Gazetteer(dataset, history), made, prefixes, unitTables, names, sounds);
    // The fingerprint covers every name of the units, the Khmer ones included.
    const renamed = { ...dataset, units: dataset.units.map((u, i) => (i === 100 ? { ...u, name_km: `${u.name_km}ថ្មី` } : u)) };
    assert.deepEqual(readAddressSnapshot(path, new Gazetteer(renamed, history)), stale);
    // So is the history: one event less changes former parents.
    const shorter = { ...history, events: history.events.slice(1) };
    assert.deepEqual(readAddressSnapshot(path, new Gazetteer(dataset, shorter)), stale);
    // The same data read again is the same.
    assert.ok('loose' in readAddressSnapshot(path, new Gazetteer(dataset, history)));
    assert.deepEqual(readAddressSnapshot(join(dir, 'none.json'), gazetteer()), { unusable: 'no snapshot (npm run build writes it)' });
    writeFileSync(join(dir, 'bad.json'), '{"format":1,');
    assert.match(String((readAddressSnapshot(join(dir, 'bad.json'), gazetteer()) as { unusable: string }).unusable), /^unreadable/);
  });

  it('leaves out unit tables that do not have their shape', () => {
    // A plain boolean (a type guard asserted false would narrow the tables to never).
    const check = (tables: unknown, count: number): boolean => checkUnitTables(tables, count);
    assert.ok(check(unitTables, units.length));
    assert.ok(!check(unitTables, units.length + 1));
    assert.ok(!check({ ...unitTables, former: [[units.length, [0]]] }, units.length));
    assert.ok(!check({ ...unitTables, former: [[0, []]] }, units.length));
    assert.ok(!check({ ...unitTables, former: [[0, [units.length]]] }, units.length));
    assert.ok(!check({ ...unitTables, digits: unitTables.digits.map((d, u) => (u === 5 ? 5 : d)) }, units.length));
    assert.ok(!check(null, units.length));
    const path = join(dir, 'odd-units.json');
    writeAddressSnapshot(path, gazetteer(), made, prefixes, { ...unitTables, digits: unitTables.digits.slice(1) }, names, sounds);
    const read = readAddressSnapshot(path, gazetteer());
    assert.ok('loose' in read);
    assert.equal(read.units, undefined);
  });

  it('a resolver given the snapshot has the tables a resolver works out, and answers as it does', () => {
    const path = join(dir, 'same.json');
    writeAddressSnapshot(path, gazetteer(), made, prefixes, unitTables, names, sounds);
    const read = readAddressSnapshot(path, gazetteer());
    assert.ok('loose' in read && read.units);
    assert.ok(read.sounds);
    const fromSnapshot = new AddressResolver(gazetteer(), searchIndex(), read);
    // The saved prefix sets are the ones used (their digests match the keys), and they are what the keys make.
    assert.deepEqual(fromSnapshot.savedPrefixes(), prefixes);
    const fresh = new AddressResolver(gazetteer(), searchIndex());
    // Every unit's former parents and digits as read are the ones a resolver with nothing given works out.
    assert.deepEqual(fromSnapshot.unitTables(), fresh.unitTables());
    assert.deepEqual(fromSnapshot.savedNames(), fresh.savedNames());
    assert.deepEqual(fromSnapshot.soundTables(), fresh.soundTables());
    for (const q of ['Kengkan 1, Chamkarmon', 'Phum Chork, Khum Korng Meas', 'Sangkat Tonle Bassac, Khan Chamkar Mon, PP', 'ភូមិ១ សង្កាត់ទន្លេបាសាក់',
      'Phum Thmei, Khum Tuol Preah Khleang, Kampong Cham 031513', 'ភូមិតានន ឃុំមានជ័យ ស្រុកសំឡូត ខេត្តបាត់ដំបង',
      'Ta Nguon village in Kakap commune', 'Sammaki Village, Angkor Borey Commune, Angkor Borey District, Takeo Province.']) {
      const a = fromSnapshot.resolve(q).candidates.map((c) => [c.unit.code, c.confidence, c.warnings.map((w) => w.code)]);
      const b = fresh.resolve(q).candidates.map((c) => [c.unit.code, c.confidence, c.warnings.map((w) => w.code)]);
      assert.deepEqual(a, b, q);
      assert.ok(a.length > 0, q);
    }
  });
});
