/// <reference lib="dom" />
/**
 * <kh-address-picker> in a real browser (Debian's Chromium, driven by playwright-core) against the real server on a
 * fresh store: the demo page works out of the box with the demo browser key; keyboard-only walks through both
 * modes; Khmer renders (screenshot in test-artifacts/picker/); the form submits the right fields; reset; required;
 * an axe-core scan; 320 px; and the browser-key origin check from an allowed and a refused origin.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import ts from 'typescript';
import { throwawaySqlite, type ThrowawayDatabase } from '../keys/stores.js';
import { startServer, type ServerProcess } from '../server-process.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = new URL('../../test-artifacts/picker/', import.meta.url).pathname;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Waits until a select inside a picker is enabled (its list has loaded). */
async function enabled(page: Page, label: string | RegExp): Promise<void> {
  const select = page.getByLabel(label, { exact: typeof label === 'string' });
  await select.first().waitFor();
  for (let i = 0; i < 200 && !(await select.first().isEnabled()); i++) await page.waitForTimeout(50);
  assert.ok(await select.first().isEnabled(), `${String(label)} stays disabled`);
}

/**
 * Waits until the select labelled `label` holds `code`: after the picker's value is set, its selects still show the
 * previous lists (enabled) until the new ones have loaded, so waiting for "enabled" alone can pass too early.
 */
async function holds(page: Page, label: string, code: string): Promise<void> {
  const select = page.getByLabel(label, { exact: true }).first();
  for (let i = 0; i < 200 && (await select.inputValue()) !== code; i++) await page.waitForTimeout(50);
  assert.equal(await select.inputValue(), code, `${label} never held ${code}`);
}

/** The fields the submitted page lists. */
async function submittedFields(page: Page): Promise<Record<string, string>> {
  await page.locator('#submitted').waitFor();
  return page.evaluate(() => {
    const out: Record<string, string> = {};
    const terms = [...document.querySelectorAll('#submitted dt')];
    for (const dt of terms) out[dt.textContent!] = dt.nextElementSibling!.textContent!;
    return out;
  });
}

async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (no inline scripts) stays on.
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

describe('<kh-address-picker> in Chromium', () => {
  let database: ThrowawayDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let elsewhere: Server;
  let elsewhereUrl: string;
  const shot = (name: string, target: Page = page) => target.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
    mkdirSync(ARTIFACTS, { recursive: true });
    database = await throwawaySqlite();
    // A fresh start, as a new user runs it: the demo key is made at start (DEMO_KEY defaults to on).
    server = await startServer({ DATABASE_URL: database.url });
    for (let i = 0; i < 100 && !/widget demo key ready/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    page = await context.newPage();
    // Another origin (another port) that embeds the picker with the demo key, which does not list it.
    elsewhere = createServer(async (_request, response) => {
      const demo = await (await fetch(`${server.url}/widget/demo`)).text();
      const key = /api-key="(khp_\w+)"/.exec(demo)![1]!;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="en"><title>Elsewhere</title><body><form><script type="module" src="${server.url}/widget/kh-address-picker.js"></script>
        <kh-address-picker api-key="${key}"></kh-address-picker></form></body></html>`);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const address = elsewhere.address();
    elsewhereUrl = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
  });
  after(async () => {
    await browser?.close();
    elsewhere?.close();
    await server?.stop();
    await database?.drop();
  });

  it('walks the cascade by keyboard only, shows the postal code and submits one field per level', async () => {
    await page.goto(`${server.url}/widget/demo`);
    await enabled(page, 'Province');
    await page.getByLabel('Full name').focus();
    await page.keyboard.type('Sok Dara');
    await page.keyboard.press('Tab');
    await page.keyboard.type('012345678');
    await page.keyboard.press('Tab');
    // Focus is now in the picker's province select (shadow DOM); type-ahead picks an option, as a user would.
    await page.keyboard.type('Phnom');
    await enabled(page, 'Khan (district)');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Tuol');
    await enabled(page, 'Sangkat (commune)');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Boeng Kak Ti Muoy');
    await enabled(page, 'Village');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    const picker = page.locator('#cascade-picker');
    await page.waitForFunction(() => (document.querySelector('#cascade-picker') as unknown as { postalCode: string }).postalCode !== '');
    const selection = await picker.evaluate((el) => (el as unknown as { selection: unknown }).selection) as
      { province: { code: string }; district: { code: string; unit_type: { km: string } }; commune: { code: string; name_km: string }; village: { code: string }; postalCode: string; formatted: { km: string; en: string } };
    assert.equal(selection.province.code, '12');
    assert.equal(selection.district.code, '1204');
    assert.equal(selection.district.unit_type.km, 'ខណ្ឌ');
    assert.match(selection.commune.code, /^1204\d\d$/);
    assert.match(selection.village.code, new RegExp(`^${selection.commune.code}\\d\\d$`));
    assert.match(selection.postalCode, /^1204\d\d$/);
    assert.match(selection.formatted.en, /^Phum .*, Sangkat Boeng Kak Ti Muoy, Khan Tuol Kouk, Phnom Penh 1204\d\d$/);
    assert.match(selection.formatted.km, /^ភូមិ[^ភ]+ សង្កាត់បឹងកក់ទី ?១ ខណ្ឌទួលគោក រាជធានីភ្នំពេញ ១២០៤[០-៩]{2}$/, 'unit words once each');
    assert.equal(await page.locator('#cascade-picker').getByText(selection.postalCode).count(), 1, 'the postal code is shown');
    assert.match((await page.locator('#last-event').textContent())!, /"postalCode": "1204\d\d"/, 'kh-change reached the page');
    await shot('1-cascade-chosen');

    // To the submit button and press it, still by keyboard.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/widget/demo/submitted**');
    const fields = await submittedFields(page);
    assert.deepEqual(fields, {
      full_name: 'Sok Dara', phone: '012345678', province_code: '12', district_code: '1204', commune_code: selection.commune.code,
      village_code: selection.village.code, postal_code: selection.postalCode,
    });
  });

  it('refuses to submit while required levels are empty, and reset clears the picker', async () => {
    await page.goto(`${server.url}/widget/demo`);
    await enabled(page, 'Province');
    const valid = await page.evaluate(() => (document.querySelector('#cascade-form') as HTMLFormElement).checkValidity());
    assert.equal(valid, false);
    assert.equal(await page.locator('#cascade-picker').evaluate((el) => (el as unknown as { validationMessage: string }).validationMessage), 'Choose the province.');
    await page.locator('#cascade-picker').evaluate((el) => { (el as unknown as { value: string }).value = '02030101'; });
    await page.waitForFunction(() => (document.querySelector('#cascade-picker') as unknown as { value: string }).value === '02030101');
    await enabled(page, 'Village');
    assert.equal(await page.getByLabel('District').first().inputValue(), '0203');
    assert.match(await page.getByLabel('District').first().locator('option:checked').textContent() ?? '', /Battambang \(Krong\)/);
    const formData = () => page.evaluate(() => [...new FormData(document.querySelector('#cascade-form') as HTMLFormElement)].filter(([k]) => k.endsWith('_code')));
    assert.deepEqual(await formData(), [['province_code', '02'], ['district_code', '0203'], ['commune_code', '020301'], ['village_code', '02030101'], ['postal_code', '020301']]);
    assert.equal(await page.evaluate(() => (document.querySelector('#cascade-form') as HTMLFormElement).checkValidity()), true);
    await page.locator('#cascade-form button[type=reset]').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.querySelector('#cascade-picker') as unknown as { value: string }).value === '');
    assert.deepEqual(await formData(), []);
    assert.equal(await page.getByLabel('Province').first().inputValue(), '');
    assert.equal(await page.getByLabel('District').first().isDisabled(), true);
  });

  it('walks the search combobox by keyboard only: type, arrows, Enter, Escape; submits the configured field names', async () => {
    await page.goto(`${server.url}/widget/demo`);
    const box = page.getByRole('combobox', { name: 'Search a village, commune, district or province' });
    await box.focus();
    await page.keyboard.type('Kampot');
    const listbox = page.getByRole('listbox');
    await listbox.waitFor();
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('ArrowDown');
    const first = await box.getAttribute('aria-activedescendant');
    assert.ok(first, 'an option is active');
    assert.equal(await page.locator(`[id="${first}"]`).getAttribute('aria-selected'), 'true');
    await page.keyboard.press('ArrowDown');
    const second = await box.getAttribute('aria-activedescendant');
    assert.notEqual(second, first);
    await page.keyboard.press('ArrowUp');
    assert.equal(await box.getAttribute('aria-activedescendant'), first);
    await shot('2-search-open');
    await page.keyboard.press('Escape');
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    await page.keyboard.press('Escape');
    assert.equal(await box.inputValue(), '', 'a second Escape clears');

    await page.keyboard.type('Kampot');
    await listbox.waitFor();
    await page.keyboard.press('ArrowDown');
    const optionText = await page.locator(`[id="${await box.getAttribute('aria-activedescendant')}"]`).textContent();
    assert.match(optionText ?? '', /Kampot \(Khaet\)/);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.querySelector('#search-picker') as unknown as { value: string }).value === '07');
    assert.equal(await box.getAttribute('aria-expanded'), 'false');

    // Not required yet: this picker asks down to the commune (levels="province district commune").
    assert.equal(await page.locator('#search-picker').evaluate((el) => (el as unknown as { validationMessage: string }).validationMessage), 'Choose the district.');
    // A commune by name: every level above it is filled.
    await box.fill('');
    await page.keyboard.type('Boeng Kak Ti Muoy');
    await listbox.waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.querySelector('#search-picker') as unknown as { value: string }).value.length === 6);
    const summary = await page.locator('#search-picker').evaluate((el) => (el as unknown as { formatted: { en: string } }).formatted.en);
    assert.match(summary, /^Sangkat Boeng Kak Ti Muoy, Khan Tuol Kouk, Phnom Penh 1204\d\d$/);
    // A whole address: search finds the village, below this picker's levels, so the picker resolves it and offers its commune.
    await box.fill('');
    await page.keyboard.type('Phum 1, Sangkat Phsar Depou Ti Bei, Khan Tuol Kouk');
    await listbox.waitFor();
    await page.keyboard.press('ArrowDown');
    assert.match(await page.locator(`[id="${await box.getAttribute('aria-activedescendant')}"]`).textContent() ?? '', /Phsar Depou Ti Bei \(Sangkat\)/);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.querySelector('#search-picker') as unknown as { value: string }).value === '120403');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/widget/demo/submitted**');
    const fields = await submittedFields(page);
    assert.equal(fields.commune, '120403');
    assert.equal(fields.province, '12');
    assert.equal(fields.district, '1204');
    assert.equal(fields.village, undefined, 'levels stop at the commune: no village');
    assert.match(fields.postcode!, /^1204\d\d$/);
  });

  it('renders Khmer with the right unit words and a real Khmer font (no tofu)', async () => {
    await page.goto(`${server.url}/widget/demo?lang=km`);
    await enabled(page, 'ខេត្ត/រាជធានី');
    await page.locator('#cascade-picker').evaluate((el) => { (el as unknown as { value: string }).value = '120401'; });
    await holds(page, 'សង្កាត់', '120401');
    await enabled(page, 'ភូមិ');
    assert.equal(await page.getByLabel('ខណ្ឌ', { exact: true }).first().inputValue(), '1204');
    assert.equal(await page.getByLabel('សង្កាត់', { exact: true }).first().inputValue(), '120401');
    await shot('3-khmer-phnom-penh');
    await page.locator('#cascade-picker').evaluate((el) => { (el as unknown as { value: string }).value = '020101'; });
    await holds(page, 'ឃុំ', '020101');
    await enabled(page, 'ភូមិ');
    assert.equal(await page.getByLabel('ស្រុក/ក្រុង', { exact: true }).first().inputValue(), '0201');
    assert.equal(await page.getByLabel('ឃុំ', { exact: true }).first().inputValue(), '020101');
    assert.ok(await page.getByLabel('ស្រុក/ក្រុង', { exact: true }).first().locator('option', { hasText: 'ក្រុងបាត់ដំបង' }).count() === 1);
    // Tofu (a missing glyph) draws every character as the same box: Khmer text must not measure like unassigned code points.
    const widths = await page.locator('#cascade-picker').evaluate((el) => {
      const label = el.shadowRoot!.querySelector('label')!;
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = getComputedStyle(label).font;
      const khmer = 'ខេត្តបាត់ដំបង';
      return { khmer: context.measureText(khmer).width, tofu: context.measureText('\u0378'.repeat([...khmer].length)).width, ka: context.measureText('ក').width, aa: context.measureText('ា').width };
    });
    assert.notEqual(widths.khmer, widths.tofu, JSON.stringify(widths));
    assert.notEqual(widths.ka, widths.aa, JSON.stringify(widths));
    await shot('4-khmer-battambang');
  });

  it('has no accessibility violations (axe-core), in English and Khmer, with the combobox open', async () => {
    await page.goto(`${server.url}/widget/demo`);
    await enabled(page, 'Province');
    await page.locator('#cascade-picker').evaluate((el) => { (el as unknown as { value: string }).value = '12010101'; });
    await enabled(page, 'Village');
    await page.getByRole('combobox', { name: 'Search a village, commune, district or province' }).focus();
    await page.keyboard.type('Siem');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('ArrowDown');
    assert.deepEqual(await axeViolations(page), []);
    await page.goto(`${server.url}/widget/demo?lang=km`);
    await enabled(page, 'ខេត្ត/រាជធានី');
    assert.deepEqual(await axeViolations(page), []);
  });

  it('fires native input and change with kh-change, follows disabled (its own and its fieldset\'s), and takes theming', async () => {
    await page.goto(`${server.url}/widget/demo`);
    await enabled(page, 'Province');
    await page.evaluate(() => {
      const picker = document.querySelector('#cascade-picker')!;
      (window as unknown as { heard: string[] }).heard = [];
      for (const type of ['input', 'change', 'kh-change']) picker.addEventListener(type, () => (window as unknown as { heard: string[] }).heard.push(type));
      // A page's theme (a constructed sheet: the page's CSP allows no inline style).
      const sheet = new CSSStyleSheet();
      sheet.replaceSync('kh-address-picker { --kh-control-border: 3px solid rgb(200, 0, 0); } kh-address-picker::part(legend) { color: rgb(0, 128, 0); }');
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    });
    await page.getByLabel('Province').first().selectOption('17');
    await page.waitForFunction(() => (window as unknown as { heard: string[] }).heard.length >= 3);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { heard: string[] }).heard), ['input', 'change', 'kh-change']);
    const styles = await page.locator('#cascade-picker').evaluate((el) => ({
      border: getComputedStyle(el.shadowRoot!.querySelector('select')!).borderTopWidth + ' ' + getComputedStyle(el.shadowRoot!.querySelector('select')!).borderTopColor,
      legend: getComputedStyle(el.shadowRoot!.querySelector('legend')!).color,
    }));
    assert.deepEqual(styles, { border: '3px rgb(200, 0, 0)', legend: 'rgb(0, 128, 0)' });
    await enabled(page, 'District');
    await page.locator('#cascade-picker').evaluate((el) => el.setAttribute('disabled', ''));
    assert.equal(await page.getByLabel('Province').first().isDisabled(), true);
    assert.equal(await page.getByLabel('District').first().isDisabled(), true);
    await page.locator('#cascade-picker').evaluate((el) => el.removeAttribute('disabled'));
    assert.equal(await page.getByLabel('District').first().isDisabled(), false);
    await page.evaluate(() => {
      const fieldset = document.createElement('fieldset');
      const picker = document.querySelector('#search-picker')!;
      picker.replaceWith(fieldset);
      fieldset.append(picker);
      fieldset.disabled = true;
    });
    assert.equal(await page.getByRole('combobox', { name: 'Search a village, commune, district or province' }).isDisabled(), true);
  });

  it('fits a 320 px wide phone', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 320, height: 700 });
    await phone.goto(`${server.url}/widget/demo?lang=km`);
    await enabled(phone, 'ខេត្ត/រាជធានី');
    const { scrollWidth, pickerWidth } = await phone.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      pickerWidth: document.querySelector('#cascade-picker')!.getBoundingClientRect().right,
    }));
    assert.ok(scrollWidth <= 320, `page ${scrollWidth} px wide`);
    assert.ok(pickerWidth <= 320, `picker ends at ${pickerWidth} px`);
    await shot('5-phone-320', phone);
    await phone.close();
  });

  it('runs the typed client in the browser, with a browser key, from its allowed origin', async () => {
    // The client's sources as the package's build makes them (TypeScript to JavaScript), served from the service's origin.
    const source = (name: string) => ts.transpileModule(readFileSync(new URL(`../../packages/client/src/${name}.ts`, import.meta.url), 'utf8'),
      { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    const demo = await (await fetch(`${server.url}/widget/demo`)).text();
    const key = /api-key="(khp_\w+)"/.exec(demo)![1]!;
    const files: Record<string, string> = { 'index.js': source('index'), 'operations.js': source('operations'), 'openapi.js': 'export {};' };
    await page.route(`${server.url}/client-test/**`, (route) => {
      const name = new URL(route.request().url()).pathname.split('/').pop()!;
      if (name === 'harness.html') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="en"><title>client</title></html>' });
      return route.fulfill({ contentType: 'text/javascript', body: files[name] ?? '' });
    });
    await page.goto(`${server.url}/client-test/harness.html`);
    const result = await page.evaluate(async ([base, apiKey]) => {
      const { KhAddressClient, KhAddressError } = await import(`${base}/client-test/index.js`);
      const kh = new KhAddressClient({ apiKey });
      const districts = await kh.v1ListDistricts({ path: { province_code: '12' } });
      let code = '';
      try {
        await kh.v1GetProvince({ path: { province_code: '99' } });
      } catch (error) {
        code = error instanceof KhAddressError ? (error as { code: string }).code : 'not a KhAddressError';
      }
      return { baseUrl: kh.baseUrl, districts: districts.data.length, code };
    }, [server.url, key]);
    assert.deepEqual(result, { baseUrl: server.url, districts: 14, code: 'not_found' });
    await page.unroute(`${server.url}/client-test/**`);
  });

  it('is served to the demo key\'s own origin and refused from another origin (403 origin_not_allowed, shown)', async () => {
    const other = await context.newPage();
    const failures: number[] = [];
    other.on('response', (response) => {
      if (response.url().includes('/v1/')) failures.push(response.status());
    });
    await other.goto(elsewhereUrl);
    const alert = other.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.textContent(), 'This API key is not allowed on this site.');
    assert.deepEqual(failures, [403]);
    await shot('6-refused-origin', other);
    await other.close();
    // The same key from the service's own origin (the demo page) is served.
    await page.goto(`${server.url}/widget/demo`);
    await enabled(page, 'Province');
    assert.ok(await page.getByLabel('Province').first().locator('option').count() > 25);
  });
});
