import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvRow, parseCsv, parseCsvRecords } from '../../src/lib/csv.js';

describe('csv', () => {
  it('quotes only fields that need it and ends records in CRLF', () => {
    assert.equal(csvRow(['a', 'b c', 1, null]), 'a,b c,1,\r\n');
    assert.equal(csvRow(['x,y', 'say "hi"', 'two\nlines']), '"x,y","say ""hi""","two\nlines"\r\n');
  });

  it('round-trips awkward fields, Khmer text included', () => {
    const rows = [['code', 'name'], ['01', 'កំពង់ "ចាម", ខេត្ត'], ['02', 'line\r\nbreak'], ['03', '']];
    assert.deepEqual(parseCsv(rows.map((r) => csvRow(r)).join('')), rows);
  });

  it('reads LF files with a header into records', () => {
    assert.deepEqual(parseCsvRecords('a,b\n1,2\n3,4\n'), [{ a: '1', b: '2' }, { a: '3', b: '4' }]);
  });

  it('rejects an unterminated quote and a ragged row', () => {
    assert.throws(() => parseCsv('a,"b\n'), /unterminated/);
    assert.throws(() => parseCsvRecords('a,b\n1\n'), /row 2 has 1 fields/);
  });
});
