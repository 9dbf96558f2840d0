/** `kh-address reverse`: a CSV of coordinates in, the same CSV with each row's commune out. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { run } from '../../src/cli/cli.js';
import { parseCsvRecords } from '../../src/lib/csv.js';
import { geography } from '../helper.js';

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

async function cli(...argv: string[]) {
  const out = new Sink();
  const err = new Sink();
  const code = await run(argv, out, err);
  return { code, out: out.text, err: err.text };
}

describe('kh-address reverse', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kh-reverse-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const [lng, lat] = geography().shape('120101')!.point;

  it('appends the commune of each row, keeping the input columns and order', async () => {
    const input = file('points.csv', `site,Latitude,LON,note\nA,${lat},${lng},"inside, Phnom Penh"\nB,13.75,100.5,Bangkok\nC,abc,104,bad\nD,12.85,104.10,lake\n`);
    const { code, out, err } = await cli('reverse', input);
    assert.equal(err, '');
    assert.equal(code, 0);
    const rows = parseCsvRecords(out);
    assert.deepEqual(rows.map((r) => r.site), ['A', 'B', 'C', 'D']);
    assert.equal(rows[0]!.note, 'inside, Phnom Penh');
    assert.equal(rows[0]!.commune_code, '120101');
    assert.equal(rows[0]!.province_code, '12');
    assert.match(rows[0]!.postal_code!, /^12\d{4}$/);
    assert.equal(rows[0]!.approximate, 'false');
    assert.equal(rows[0]!.distance_m, '0');
    assert.equal(rows[1]!.commune_code, '');
    assert.equal(rows[1]!.reason, 'outside_cambodia');
    assert.equal(rows[2]!.error, 'lat must be a decimal number');
    assert.equal(rows[3]!.approximate, 'true');
    assert.equal(rows[3]!.approximate_reasons, 'outside_polygons');
    assert.ok(Number(rows[3]!.distance_m) > 1000);
  });

  it('refuses a CSV without coordinate columns or a missing file, with a message and exit code 1', async () => {
    const noColumns = await cli('reverse', file('names.csv', 'name,x\nA,1\n'));
    assert.equal(noColumns.code, 1);
    assert.match(noColumns.err, /no lat or latitude column/);
    const missing = await cli('reverse', join(dir, 'nope.csv'));
    assert.equal(missing.code, 1);
    assert.match(missing.err, /ENOENT|no such file/);
    const tooMany = await cli('reverse', 'a.csv', 'b.csv');
    assert.equal(tooMany.code, 1);
    assert.match(tooMany.err, /at most one FILE/);
  });

  it('export: lat and lng are a point inside each province, district and commune, with its box and source', async () => {
    const { code, out } = await cli('export', '--format', 'json', '--level', 'commune');
    assert.equal(code, 0);
    const records = JSON.parse(out) as Record<string, string | number | null>[];
    const g = geography();
    let inside = 0;
    for (const r of records) {
      if (g.unshapedCommune(String(r.code))) {
        assert.ok(r.location_source === 'pumi' || r.location_source === null, String(r.code));
        continue;
      }
      assert.equal(r.location_source, 'boundaries', String(r.code));
      assert.equal(g.communeAt(Number(r.lng), Number(r.lat)), r.code, `${r.code}: its point is inside it`);
      assert.ok(Number(r.bbox_min_lat) < Number(r.lat) && Number(r.lat) < Number(r.bbox_max_lat));
      inside++;
    }
    assert.equal(inside, 1633);
    const villages = JSON.parse((await cli('export', '--format', 'json', '--level', 'village')).out) as Record<string, unknown>[];
    assert.ok(villages.every((v) => v.location_source === null || v.location_source === 'pumi'), 'villages keep the dataset\'s own location');
  });

  it('is in the usage', async () => {
    const { out } = await cli('help');
    assert.match(out, /kh-address reverse \[FILE\]/);
    rmSync(dir, { recursive: true, force: true });
  });
});
