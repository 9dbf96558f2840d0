/// <reference lib="dom" />
/**
 * The dashboard in a real browser (Debian's Chromium, driven by playwright-core): sign up, create a key, copy it,
 * call the API with it, see the usage rise, rotate, revoke and see the key refused. Screenshots of each page go to
 * test-artifacts/dashboard/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { throwawaySqlite, type ThrowawayDatabase } from '../keys/stores.js';
import { startServer, type ServerProcess } from '../server-process.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = new URL('../../test-artifacts/dashboard/', import.meta.url).pathname;

describe('dashboard in Chromium', () => {
  let database: ThrowawayDatabase;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
    mkdirSync(ARTIFACTS, { recursive: true });
    database = await throwawaySqlite();
    server = await startServer({ DATABASE_URL: database.url, USAGE_FLUSH_MS: '200', OPERATOR_CONTACT: 'api@example.org' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
  });

  it('takes a developer from the landing page to a working key, usage, rotation and revocation', async () => {
    await page.goto(`${server.url}/`);
    await page.getByLabel('Search a place or a postal code').fill('Battambang');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Battambang', { exact: true }).first().waitFor();
    await shot('1-landing');

    await page.getByRole('link', { name: 'Get a free API key' }).click();
    await page.getByLabel('Email').fill('dara@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await shot('2-signup');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.waitForURL('**/dashboard');
    await shot('3-dashboard-empty');

    await page.getByLabel('Name (optional)', { exact: true }).fill('my shop');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const key = (await page.locator('#new-key').textContent())!;
    assert.match(key, /^khk_\w{30}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
    await shot('4-key-created');

    for (let i = 0; i < 3; i++) {
      assert.equal((await fetch(`${server.url}/search?q=Kampot`, { headers: { 'x-api-key': key } })).status, 200);
    }
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await page.getByText('3 of 1000 requests used').waitFor();
    assert.equal(await page.locator('.chart svg rect').count(), 30);
    // Today's bar holds the 3 requests (and is the tallest).
    assert.equal(await page.locator('.chart svg rect').last().locator('title').textContent(), `${new Date().toISOString().slice(0, 10)}: 3`);
    await shot('5-dashboard-usage');

    await page.getByRole('link', { name: 'Rotate' }).click();
    await shot('6-rotate-confirm');
    await page.getByRole('button', { name: 'Rotate' }).click();
    const rotated = (await page.locator('#new-key').textContent())!;
    assert.notEqual(rotated, key);
    assert.equal((await fetch(`${server.url}/provinces`, { headers: { 'x-api-key': key } })).status, 401);
    assert.equal((await fetch(`${server.url}/provinces`, { headers: { 'x-api-key': rotated } })).status, 200);

    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await page.getByRole('link', { name: 'Revoke' }).click();
    await shot('7-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('revoked', { exact: true }).waitFor();
    await shot('8-dashboard-revoked');
    const refused = await fetch(`${server.url}/provinces`, { headers: { 'x-api-key': rotated } });
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'invalid_api_key');
  });

  /** Whether the page is wider than the 390 px screen (something would need a sideways scroll). */
  const overflows = () => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

  it('switches to Khmer, rendered with a Khmer-capable font stack, without overflowing a phone screen', async () => {
    await page.goto(`${server.url}/?lang=km`);
    assert.equal(await page.getAttribute('html', 'lang'), 'km');
    await page.getByText('សាកល្បង').first().waitFor();
    const fontFamily = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
    assert.match(fontFamily, /Noto Sans Khmer/);
    await shot('9-landing-khmer');
    // A Khmer search: the example command (long when percent-encoded) wraps inside the page.
    await page.getByLabel('ស្វែងរកទីកន្លែង ឬលេខកូដប្រៃសណីយ៍').fill('សង្កាត់បឹងកក់ទី១');
    await page.getByRole('button', { name: 'ស្វែងរក', exact: true }).click();
    await page.locator('pre.command').waitFor();
    assert.equal(await overflows(), false, 'the Khmer results page fits 390 px');
    await shot('10-landing-khmer-results');
  });

  it('shows the signed-in pages in Khmer at 390 px: dashboard, new key, usage chart, revoke', async () => {
    // A new visitor (the first test signed its browser in).
    page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await page.goto(`${server.url}/signup?lang=km`);
    await page.getByLabel('អ៊ីមែល').fill('sophea@example.com');
    await page.getByLabel('ពាក្យសម្ងាត់').fill('a long enough password');
    await page.getByRole('button', { name: 'បង្កើតគណនី' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('មិនទាន់មានសោទេ', { exact: false }).waitFor();
    await page.getByLabel('ឈ្មោះ (ស្រេចចិត្ត)', { exact: true }).fill('ហាងរបស់ខ្ញុំ');
    await page.getByRole('button', { name: 'បង្កើតសោ', exact: true }).click();
    await page.waitForURL('**/dashboard/keys/new/*');
    const key = (await page.locator('#new-key').textContent())!;
    assert.equal(await overflows(), false, 'the new-key page fits 390 px');
    await shot('11-key-created-khmer');
    // Reloading the page that showed the key neither shows it again nor makes another key.
    await page.reload();
    assert.equal(await page.locator('#new-key').count(), 0);
    await shot('12-key-already-shown-khmer');
    assert.equal((await fetch(`${server.url}/search?q=Kampot`, { headers: { 'x-api-key': key } })).status, 200);
    await page.getByRole('link', { name: 'ត្រឡប់ទៅផ្ទាំងគ្រប់គ្រង' }).click();
    await page.locator('tr[data-key-id]').first().waitFor();
    assert.equal(await page.locator('tr[data-key-id]').count(), 1, 'one key, however often the page was reloaded');
    await page.getByText('បានប្រើ ១ ក្នុងចំណោម ១.០០០ សំណើ').waitFor();
    assert.equal(await overflows(), false, 'the dashboard fits 390 px');
    await shot('13-dashboard-khmer');
    await page.getByRole('link', { name: 'ដកហូត' }).click();
    await page.getByRole('button', { name: 'ដកហូត' }).waitFor();
    await shot('14-revoke-confirm-khmer');
  });

  it('has labelled form fields and a language attribute on every page (basic accessibility checks)', async () => {
    for (const path of ['/', '/signup', '/signin']) {
      await page.goto(`${server.url}${path}?lang=en`);
      const unlabelled = await page.evaluate(() => [...document.querySelectorAll('input:not([type=hidden])')]
        .filter((input) => !(input as HTMLInputElement).labels?.length && !input.getAttribute('aria-label')).length);
      assert.equal(unlabelled, 0, path);
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      assert.ok(await page.locator('main').count());
    }
  });
});
