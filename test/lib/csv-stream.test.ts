import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCsv } from '../../src/lib/csv.js';
import { CsvStreamParser, MAX_FIELD } from '../../src/lib/csv-stream.js';

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
  it('reads random CSV as parseCsv does, in random pieces', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296);
    const alphabet = ['a', 'ក', ' ', ',', '"', '\n', '\r', '\r\n', '""', 'x'];
    for (let round = 0; round < 300; round++) {
      // Fields quoted whole (quotes doubled) or plain (no comma, quote or line break), in records.
      const records = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => {
        const raw = Array.from({ length: Math.floor(rnd() * 6) }, () => alphabet[Math.floor(rnd() * alphabet.length)]!).join('');
        return rnd() < 0.5 ? `"${raw.replaceAll('"', '""')}"` : raw.replace(/[",\r\n]/g, '');
      }).join(','));
      const text = records.join(rnd() < 0.5 ? '\r\n' : '\n');
      const size = 1 + Math.floor(rnd() * 9);
      assert.deepEqual(parseInPieces(text, size), parseCsv(text), JSON.stringify({ text, size }));
    }
  });
  it('refuses a field longer than MAX_FIELD, and reads one of exactly MAX_FIELD', () => {
    assert.equal(parseInPieces(`a,${'x'.repeat(MAX_FIELD)}\n`, 65_536)[0]![1]!.length, MAX_FIELD);
    assert.throws(() => parseInPieces(`a,${'x'.repeat(MAX_FIELD + 1)}\n`, 65_536), /longer than/);
    assert.throws(() => parseInPieces(`a,"${'x'.repeat(MAX_FIELD + 1)}`, 65_536), /longer than/);
  });
  it('refuses an unterminated quote', () => {
    assert.throws(() => parseInPieces('a,"b\nc', 2), /unterminated/);
  });
});
