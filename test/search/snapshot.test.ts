import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { searchAliases } from '../../src/search/aliases.js';
import { loadSearchIndex } from '../../src/search/load.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { decodeTables, encodeTables, fingerprint, readSnapshot, writeSnapshot } from '../../src/search/snapshot.js';
import { gazetteer, searchIndex } from '../helper.js';

const dir = mkdtempSync(join(os.tmpdir(), 'kh-snapshot-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('search snapshot', () => {
  const units = gazetteer().units;
  // What the server builds the index with: the curated aliases and the history's former names and codes.
  const aliases = searchAliases(gazetteer());
  const built = searchIndex();
  const path = join(dir, 'search-index.json');
  writeSnapshot(path, units, aliases, built.tables);

  it('restores exactly the tables it saved', () => {
    assert.deepStrictEqual(decodeTables(JSON.parse(JSON.stringify(encodeTables(built.tables)))), built.tables);
  });

  it('answers every relevance query as the built index does', () => {
    const loaded = loadSearchIndex(gazetteer(), { snapshotPath: path });
    assert.deepEqual(loaded.tables, { from: 'snapshot' });
    const queries = (JSON.parse(readFileSync('test/search/relevance-cases.json', 'utf8')) as { q: string }[]).map((c) => c.q);
    for (const q of [...queries, 'phum', '12', 'ភូមិ', 'Siemreapp', 'Odongk', '0505']) {
      assert.deepEqual(loaded.index.search(q, { limit: 100 }), built.search(q, { limit: 100 }), q);
    }
  });

  it('is ignored when made from other units or aliases, and the index is built instead', () => {
    const renamed = units.map((u) => (u.code === '1201' ? { ...u, name_latin: 'Chamkar Morn' } : u));
    assert.notEqual(fingerprint(renamed, aliases), fingerprint(units, aliases));
    assert.match(unusable(readSnapshot(path, renamed, aliases)), /made from other data or code/);
    assert.match(unusable(readSnapshot(path, units, aliases.slice(1))), /made from other data or code/);
    // A former name that stops being one (the history changed) changes the tables too.
    const unmarked = aliases.map((a) => (a.former ? { ...a, former: false } : a));
    assert.match(unusable(readSnapshot(path, units, unmarked)), /made from other data or code/);
    // Same names, another order: unit positions differ, so the tables would too.
    assert.match(unusable(readSnapshot(path, [...units].reverse(), aliases)), /made from other data or code/);
  });

  it('is ignored when missing, truncated or of another format', () => {
    assert.match(unusable(readSnapshot(join(dir, 'none.json'), units, aliases)), /no snapshot/);
    const text = readFileSync(path, 'utf8');
    writeFileSync(join(dir, 'truncated.json'), text.slice(0, text.length / 2));
    assert.match(unusable(readSnapshot(join(dir, 'truncated.json'), units, aliases)), /unreadable/);
    writeFileSync(join(dir, 'format.json'), JSON.stringify({ ...JSON.parse(text), format: 0 }));
    assert.match(unusable(readSnapshot(join(dir, 'format.json'), units, aliases)), /made from other data or code/);
    const broken = JSON.parse(text) as { tables: { sorted?: unknown } };
    delete broken.tables.sorted;
    writeFileSync(join(dir, 'malformed.json'), JSON.stringify(broken));
    assert.match(unusable(readSnapshot(join(dir, 'malformed.json'), units, aliases)), /malformed/);

    const loaded = loadSearchIndex(gazetteer(), { snapshotPath: join(dir, 'truncated.json') });
    assert.equal(loaded.tables.from, 'built');
    assert.deepEqual(loaded.index.search('Battambang', { limit: 3 }), built.search('Battambang', { limit: 3 }));
  });

  it('refuses tables made for another number of units', () => {
    assert.throws(() => new SearchIndex(units.slice(1), aliases, { tables: built.tables }), /different set of units/);
  });
});

function unusable(read: ReturnType<typeof readSnapshot>): string {
  assert.ok('unusable' in read, 'expected the snapshot to be refused');
  return read.unusable;
}
