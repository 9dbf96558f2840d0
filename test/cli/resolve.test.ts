/** `kh-address resolve`: CSV and JSON lines, from a file or standard input, streaming, with a summary. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { run } from '../../src/cli/cli.js';
import { parseCsv } from '../../src/lib/csv.js';

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'kh-address-resolve-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[], input = new PassThrough()) {
  const out = new Sink();
  const err = new Sink();
  const code = await run(argv, out, err, process.env, input);
  return { code, out: out.text, err: err.text };
}

describe('kh-address resolve', () => {
  it('appends the unit, chain, postal code, confidence, status and warnings to each CSV record', async () => {
    const file = join(dir, 'in.csv');
    writeFileSync(file, 'id,customer address,note\r\n1,"Sangkat Tonle Basak, Khan Chamkar Mon",x\r\n2,ភូមិ១ សង្កាត់ទន្លេបាសាក់,\r\n3,Phum 1,\r\n4,,\r\n5,qqqzx,y\r\n');
    const { code, out, err } = await cli(['resolve', file, '--column', 'customer address']);
    assert.equal(code, 0, err);
    const rows = parseCsv(out);
    assert.deepEqual(rows[0], ['id', 'customer address', 'note', 'kh_code', 'kh_level', 'kh_chain', 'kh_chain_km', 'kh_postal_code', 'kh_confidence', 'kh_status', 'kh_warnings']);
    assert.deepEqual(rows[1]!.slice(0, 8), ['1', 'Sangkat Tonle Basak, Khan Chamkar Mon', 'x', '120101', 'commune', 'Phnom Penh > Chamkar Mon > Tonle Basak', 'ភ្នំពេញ > ចំការមន > ទន្លេបាសាក់', '120101']);
    assert.equal(rows[1]![9], 'resolved');
    assert.equal(rows[2]![3], '12010101');
    assert.deepEqual(rows[3]!.slice(9), ['ambiguous', 'AMBIGUOUS']);
    assert.deepEqual(rows[4]!.slice(3), ['', '', '', '', '', '', 'unresolved', '']);
    assert.equal(rows[5]![9], 'unresolved');
    assert.match(err, /5 rows: 2 resolved, 1 ambiguous, 2 unresolved/);
  });

  it('reads JSON lines from standard input, and streams: a record is written before the input ends', async () => {
    const input = new PassThrough();
    const out = new Sink();
    const err = new Sink();
    const done = run(['resolve', '--format', 'jsonl'], out, err, process.env, input);
    input.write(`${JSON.stringify({ id: 1, address: 'Krong Siem Reap' })}\n"ភូមិ១ សង្កាត់ទន្លេបាសាក់"\n`);
    // Many more lines, so that the output buffer is flushed while the input is still open.
    for (let i = 0; i < 3000; i++) input.write(`${JSON.stringify({ id: i, address: 'Kampot Province' })}\n`);
    for (let i = 0; i < 50 && out.text === ''; i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(out.text.length > 0, 'nothing written before the end of the input');
    input.end('{"address": "Sangkat Tonle Basak"}');
    assert.equal(await done, 0, err.text);
    const lines = out.text.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 3003);
    assert.equal(lines[0].id, 1);
    assert.equal(lines[0].kh.code, '1710');
    assert.equal(lines[1].address, 'ភូមិ១ សង្កាត់ទន្លេបាសាក់');
    assert.equal(lines[1].kh.code, '12010101');
    assert.equal(lines.at(-1).kh.code, '120101');
    assert.match(err.text, /3003 rows: 3003 resolved, 0 ambiguous, 0 unresolved/);
  });

  it('refuses bad options with usage', async () => {
    assert.equal((await cli(['resolve', '--format', 'xml'])).code, 2);
    const missing = join(dir, 'h.csv');
    writeFileSync(missing, 'a,b\n1,2\n');
    const noColumn = await cli(['resolve', missing, '--column', 'address2']);
    assert.equal(noColumn.code, 2);
    assert.match(noColumn.err, /no column named/);
  });
});
