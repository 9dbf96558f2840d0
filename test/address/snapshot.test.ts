/** The resolver's snapshot (src/address/snapshot.ts): read back equal, refused when stale, same answers. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AddressResolver, looseTable } from '../../src/address/resolve.js';
import { readLooseSnapshot, writeLooseSnapshot } from '../../src/address/snapshot.js';
import { gazetteer, searchIndex } from '../helper.js';

describe('address resolver snapshot', () => {
  const dir = mkdtempSync(join(os.tmpdir(), 'kh-address-snapshot-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const { units } = gazetteer();
  const made = looseTable(units);
  const prefixes = new AddressResolver(gazetteer(), searchIndex(), { loose: made }).savedPrefixes();

  it('reads back the table it wrote, entry for entry', () => {
    const path = join(dir, 'address-tables.json');
    writeLooseSnapshot(path, units, made, prefixes);
    const read = readLooseSnapshot(path, units);
    assert.ok('loose' in read, JSON.stringify(read));
    assert.deepEqual([...read.loose], [...made]);
    assert.deepEqual(read.prefixes, prefixes);
  });

  it('is not used when the units differ, when it is missing or malformed', () => {
    const path = join(dir, 'stale.json');
    writeLooseSnapshot(path, units, made, prefixes);
    const renamed = units.map((u, i) => (i === 100 ? { ...u, name_latin: `${u.name_latin} Thmei` } : u));
    assert.deepEqual(readLooseSnapshot(path, renamed), { unusable: 'made from other data or code (npm run build writes a current one)' });
    assert.deepEqual(readLooseSnapshot(join(dir, 'none.json'), units), { unusable: 'no snapshot (npm run build writes it)' });
    writeFileSync(join(dir, 'bad.json'), '{"format":1,');
    assert.match(String((readLooseSnapshot(join(dir, 'bad.json'), units) as { unusable: string }).unusable), /^unreadable/);
  });

  it('a resolver given the snapshot answers as one that made the table', () => {
    const path = join(dir, 'same.json');
    writeLooseSnapshot(path, units, made, prefixes);
    const read = readLooseSnapshot(path, units);
    assert.ok('loose' in read);
    const fromSnapshot = new AddressResolver(gazetteer(), searchIndex(), { loose: read.loose, prefixes: read.prefixes });
    // The saved prefix sets are the ones used (their digests match the keys), and they are what the keys make.
    assert.deepEqual(fromSnapshot.savedPrefixes(), prefixes);
    const fresh = new AddressResolver(gazetteer(), searchIndex());
    for (const q of ['Kengkan 1, Chamkarmon', 'Phum Chork, Khum Korng Meas', 'Sangkat Tonle Bassac, Khan Chamkar Mon, PP', 'ភូមិ១ សង្កាត់ទន្លេបាសាក់']) {
      const a = fromSnapshot.resolve(q).candidates.map((c) => [c.unit.code, c.confidence]);
      const b = fresh.resolve(q).candidates.map((c) => [c.unit.code, c.confidence]);
      assert.deepEqual(a, b, q);
      assert.ok(a.length > 0, q);
    }
  });
});
