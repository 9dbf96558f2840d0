/** Dashboard key actions (create, rename, rotate, revoke) are limited per account, and a rotation forgets one key only. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardApp, type DashboardApp, signedUp } from './helper.js';

describe('dashboard key actions', () => {
  let d: DashboardApp;
  before(async () => {
    d = await dashboardApp();
  });
  after(() => d.close());

  it('allows 10 key changes a minute per account, then answers 429 with Retry-After, in Khmer too', async () => {
    const client = await signedUp(d.app, 'busy@example.com');
    await client.get('/dashboard');
    const created = await client.post('/dashboard/keys', { name: 'first' });
    assert.equal(created.statusCode < 400, true, `create: ${created.statusCode}`);
    const [key] = await d.store.listKeys({ ownerId: (await d.store.findAccountByEmail('busy@example.com'))!.id });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      await client.get('/dashboard?lang=km');
      statuses.push((await client.post(`/dashboard/keys/${key!.id}/rename`, { name: `name ${i}` })).statusCode);
    }
    assert.deepEqual(statuses, [...Array(9).fill(303), 429, 429, 429], 'the create counted as the first of ten');
    const refused = await client.post(`/dashboard/keys/${key!.id}/rename`, { name: 'again' });
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 60);
    assert.match(refused.body, /ការផ្លាស់ប្តូរសោច្រើនដងពេក/);
    assert.equal((await d.store.getKey(key!.id))!.name, 'name 8', 'refused changes did not reach the store');
    // Another account is not affected.
    const other = await signedUp(d.app, 'calm@example.com');
    await other.get('/dashboard');
    assert.ok((await other.post('/dashboard/keys', { name: 'mine' })).statusCode < 400);
  });
});
