import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCsv } from '../../src/lib/csv.js';
import { CsvStreamParser } from '../../src/lib/csv-stream.js';

function parseInPieces(text: string, size: number): string[][] {
  const parser = new CsvStreamParser();
  const rows: string[][] = [];
  for (let i = 0; i < text.length; i += size) rows.push(...parser.push(text.slice(i, i + size)));
  rows.push(...parser.end());
  return rows;
}

describe('CsvStreamParser', () => {
  const text = 'id,address\r\n1,"#12, St. 271, ""Toul"" Tom Poung"\r\n2,"ភូមិ១\nសង្កាត់ទន្លេបាសាក់"\n3,\n,Kampot';
  it('reads what parseCsv reads, whatever the piece size', () => {
    for (const size of [1, 2, 3, 7, 1000]) assert.deepEqual(parseInPieces(text, size), parseCsv(text), `size ${size}`);
  });
  it('handles a CRLF split across pieces and a final line break', () => {
    assert.deepEqual(parseInPieces('a,b\r\nc,d\r\n', 4), [['a', 'b'], ['c', 'd']]);
  });
  it('refuses an unterminated quote', () => {
    assert.throws(() => parseInPieces('a,"b\nc', 2), /unterminated/);
  });
});
