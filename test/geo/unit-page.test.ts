/// <reference lib="dom" />
/**
 * The public unit page: over inject (HTML, errors, Khmer) and in a real browser (Debian's Chromium via
 * playwright-core): from the landing page's search to a unit page, the drawing of the unit with its neighbours and
 * parent, and a click on the drawing that finds the commune of that point, in English and Khmer. Screenshots go to
 * test-artifacts/geo/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { dashboardApp, type DashboardApp } from '../dashboard/helper.js';
import { throwawaySqlite, type ThrowawayDatabase } from '../keys/stores.js';
import { startServer, type ServerProcess } from '../server-process.js';
import { geography } from '../helper.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = new URL('../../test-artifacts/geo/', import.meta.url).pathname;

describe('unit page (inject)', () => {
  let dash: DashboardApp;
  before(async () => {
    dash = await dashboardApp();
  });
  after(() => dash.close());
  const get = (url: string) => dash.app.inject({ method: 'GET', url });

  it('draws the unit, its parent and neighbours as inline SVG, with the attribution, in English and Khmer', async () => {
    const en = await get('/places/1201?lang=en');
    assert.equal(en.statusCode, 200);
    assert.match(en.headers['content-security-policy'] as string, /script-src 'nonce-/);
    assert.match(en.body, /<svg id="map"/);
    assert.equal((en.body.match(/class="unit"/g) ?? []).length, 1);
    assert.equal((en.body.match(/class="parent"/g) ?? []).length, 1);
    assert.ok((en.body.match(/class="neighbour"/g) ?? []).length >= 3);
    assert.match(en.body, /Open Development Cambodia/);
    assert.match(en.body, /CC BY 4\.0/);
    assert.match(en.body, /Chamkar Mon/);
    const km = await get('/places/1201?lang=km');
    assert.match(km.body, /<html lang="km">/);
    assert.match(km.body, /ចំការមន/);
    assert.match(km.body, /លេខកូដប្រៃសណីយ៍ ១២០១០០|លេខកូដប្រៃសណីយ៍ ១២/);
    assert.match(km.body, /ព្រំប្រទល់/);
  });

  it('answers a point asked from the page; bad points are a 400 page, unknown codes a 404 page', async () => {
    const [lng, lat] = geography().shape('120101')!.point;
    const found = await get(`/places/1201?lat=${lat}&lng=${lng}`);
    assert.equal(found.statusCode, 200);
    assert.match(found.body, /class="point-commune"><a href="\/places\/120101/);
    assert.match(found.body, /<circle class="marker"/);
    const bangkok = await get('/places/12?lat=13.75&lng=100.5&lang=km');
    assert.match(bangkok.body, /មិនស្ថិតក្នុងប្រទេសកម្ពុជាទេ/);
    for (const query of ['lat=abc&lng=104', 'lat=91&lng=104', 'lat=1e3&lng=1', `lat=${'9'.repeat(300)}&lng=1`, 'lat=11']) {
      assert.equal((await get(`/places/12?${query}`)).statusCode, 400, query);
    }
    for (const code of ['99', '1299', '12010101', 'abc', '1']) assert.equal((await get(`/places/${code}`)).statusCode, 404, code);
    const split = await get('/places/120609');
    assert.equal(split.statusCode, 200);
    assert.match(split.body, /created after 2014/);
  });

  it('links the landing page\'s search results to the unit pages', async () => {
    const landing = await get('/?q=Chamkar+Mon&lang=en');
    assert.match(landing.body, /href="\/places\/1201\?lang=en"/);
  });
});

describe('unit page in Chromium', () => {
  let database: ThrowawayDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}`);
    mkdirSync(ARTIFACTS, { recursive: true });
    database = await throwawaySqlite();
    server = await startServer({ DATABASE_URL: database.url });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = await (await browser.newContext({ viewport: { width: 900, height: 1000 } })).newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
  });

  /** Clicks the drawing where the unit's own point on surface is, and waits for the answer. */
  async function clickPointOf(code: string): Promise<void> {
    const [lng, lat] = geography().shape(code)!.point;
    const at = await page.evaluate(([x, y]) => {
      const map = document.getElementById('map') as unknown as SVGSVGElement;
      const sx = Number(map.dataset.sx);
      const sy = Number(map.dataset.sy);
      const svgPoint = new DOMPoint((x! - Number(map.dataset.lng0)) * sx, (Number(map.dataset.lat0) - y!) * sy).matrixTransform(map.getScreenCTM()!);
      return { x: svgPoint.x, y: svgPoint.y };
    }, [lng, lat]);
    await page.mouse.click(at.x, at.y);
    await page.waitForURL(/lat=/);
    await page.locator('#point').waitFor();
  }

  it('goes from a search result to the unit page, draws it, and a click finds the commune (English)', async () => {
    await page.goto(`${server.url}/?lang=en`);
    await page.getByLabel('Search a place or a postal code').fill('Chamkar Mon');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Chamkar Mon' }).first().click();
    await page.waitForURL(/\/places\/1201/);
    await page.getByRole('heading', { name: /Chamkar Mon/ }).waitFor();
    const box = await page.locator('#map path.unit').boundingBox();
    assert.ok(box && box.width > 50 && box.height > 50, 'the unit is drawn at a visible size');
    assert.ok(await page.locator('#map path.neighbour').count() >= 3);
    assert.equal(await page.locator('#map path.parent').count(), 1);
    await shot('1-district-en');
    await clickPointOf('120101');
    assert.match(await page.locator('.point-commune').textContent() ?? '', /Tonle Basak/);
    assert.equal(await page.locator('#map circle.marker').count(), 1);
    await shot('2-clicked-en');
  });

  it('works in Khmer: the page, the drawing and the answer of a click', async () => {
    await page.goto(`${server.url}/places/17?lang=km`);
    await page.getByRole('heading', { name: /សៀមរាប/ }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'km');
    const target = geography().shapes('commune').find((c) => c.code.startsWith('17'))!;
    await clickPointOf(target.code);
    const answer = (await page.locator('.point-commune').textContent()) ?? '';
    assert.match(answer, /[\u1780-\u17FF]/, 'the commune is named in Khmer');
    assert.match(await page.locator('#point').textContent() ?? '', /លេខកូដប្រៃសណីយ៍ [០-៩]{6}/);
    await shot('3-province-km');
  });
});
