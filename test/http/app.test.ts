import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/http/app.js';
import { appOptions, gazetteer } from '../helper.js';

describe('buildApp', async () => {
  const app = await buildApp(appOptions());
  after(() => app.close());

  it('answers GET /health with the dataset version', async () => {
    const response = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'ok', datasetVersion: gazetteer().version });
  });
});
