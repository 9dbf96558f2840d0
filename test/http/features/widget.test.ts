/** The picker's script and demo page over HTTP (the picker itself is tested in Chromium: test/widget/). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/http/app.js';
import { pickerFile } from '../../../src/http/features/widget/routes.js';
import { appOptions, gazetteer } from '../../helper.js';

const DEMO_KEY = 'khp_demoDemoDemoDemoDemoDemoDemoDe';

describe('/widget', () => {
  let app: FastifyInstance;
  const { source, name } = pickerFile();
  before(async () => {
    app = await buildApp({ ...appOptions(), widget: { demoKey: () => DEMO_KEY } });
  });
  after(() => app.close());

  it('serves the picker at a versioned immutable URL and a short alias, with ETag, compressed by Accept-Encoding, no key needed', async () => {
    assert.match(name, /^kh-address-picker\.0\.1\.0-[0-9a-f]{10}\.js$/);
    const versioned = await app.inject(`/widget/${name}`);
    assert.equal(versioned.statusCode, 200);
    assert.equal(versioned.body, source);
    assert.match(String(versioned.headers['content-type']), /^text\/javascript/);
    assert.equal(versioned.headers['cache-control'], 'public, max-age=31536000, immutable');
    const alias = await app.inject({ url: '/widget/kh-address-picker.js', headers: { 'accept-encoding': 'br', origin: 'https://shop.example.com' } });
    assert.equal(alias.headers['cache-control'], 'public, max-age=300');
    assert.equal(alias.headers['content-encoding'], 'br');
    assert.equal(alias.headers['access-control-allow-origin'], '*', 'a module script from another origin needs CORS');
    assert.equal(zlib.brotliDecompressSync(alias.rawPayload).toString(), source);
    const again = await app.inject({ url: '/widget/kh-address-picker.js', headers: { 'if-none-match': String(versioned.headers.etag) } });
    assert.equal(again.statusCode, 304);
    const old = await app.inject('/widget/kh-address-picker.0.0.9-0000000000.js');
    assert.equal(old.statusCode, 404);
    assert.match(old.json().error.message, new RegExp(name.replaceAll('.', '\\.')));
  });

  it('keeps the picker under 15 KB gzipped', () => {
    const gzipped = zlib.gzipSync(source, { level: 9 }).length;
    assert.ok(gzipped < 15 * 1024, `${gzipped} bytes gzipped`);
  });

  it('knows every krong (the unit words come from the code): the picker\'s list is the dataset\'s', () => {
    const list = /const KRONG = new Set\(\(([\s\S]*?)\)\.split/.exec(source)![1]!.replace(/['+\s]+/g, ' ').trim().split(' ').sort();
    const krongs = gazetteer().units.filter((u) => u.level === 'district' && u.unit_type_latin === 'Krong').map((u) => u.code).sort();
    assert.deepEqual(list, krongs);
    // And the rules it applies: Khan in Phnom Penh only, Sangkat exactly under a Khan or a Krong.
    for (const unit of gazetteer().units) {
      if (unit.level === 'district') assert.equal(unit.unit_type_latin === 'Khan', unit.code.startsWith('12'), unit.code);
      if (unit.level === 'commune') {
        const district = gazetteer().byCode(unit.parent_code!)!;
        assert.equal(unit.unit_type_latin === 'Sangkat', district.unit_type_latin !== 'Srok', unit.code);
      }
    }
  });

  it('serves the demo page with the demo key, the versioned script, a strict CSP and the snippet, in English and Khmer', async () => {
    const page = await app.inject('/widget/demo');
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, new RegExp(`api-key="${DEMO_KEY}"`));
    assert.match(page.body, new RegExp(`src="/widget/${name.replaceAll('.', '\\.')}"`));
    assert.match(page.body, /&lt;kh-address-picker api-key=&quot;khp_YOUR_BROWSER_KEY&quot;/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /script-src 'self' 'nonce-[^']+'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    const km = await app.inject('/widget/demo?lang=km');
    assert.match(km.body, /<html lang="km">[\s\S]*ការបង្ហាញឧបករណ៍ជ្រើសរើសអាសយដ្ឋាន[\s\S]*lang="km" required/);
    assert.equal((await app.inject('/widget/demo?lang=fr')).statusCode, 400);
  });

  it('says the demo key is off when there is none', async () => {
    const bare = await buildApp(appOptions());
    try {
      assert.match((await bare.inject('/widget/demo')).body, /DEMO_KEY=off/);
    } finally {
      await bare.close();
    }
  });

  it('shows what a form submitted, escaped and bounded', async () => {
    const page = await app.inject(`/widget/demo/submitted?province_code=12&full_name=${encodeURIComponent('<b>Dara</b>')}&x=${'y'.repeat(500)}`);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<dt>province_code<\/dt><dd>12<\/dd>/);
    assert.match(page.body, /&lt;b&gt;Dara&lt;\/b&gt;/);
    assert.doesNotMatch(page.body, /y{201}/);
  });

  it('ships the package files it declares', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../packages/picker/package.json', import.meta.url), 'utf8')) as { files: string[]; dependencies?: object };
    assert.equal(pkg.dependencies, undefined, 'no runtime dependencies');
    for (const file of pkg.files) assert.ok(readFileSync(new URL(`../../../packages/picker/${file}`, import.meta.url)).length > 0, file);
  });
});
