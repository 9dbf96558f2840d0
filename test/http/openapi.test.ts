/**
 * The OpenAPI document served at /openapi.json: its version information, that every route the app serves is in
 * it with an operationId and its documented responses, and that it passes Spectral's `oas` ruleset without errors.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import spectralCore, { type RulesetDefinition } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { appOptions, gazetteer } from '../helper.js';

// The Spectral packages are CommonJS whose named exports Node cannot detect: take them from the default export.
const { Spectral, Document } = spectralCore;

const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The wildcard route `/locations/*`, documented with a named parameter (src/http/plugins/openapi.ts). */
const LOCATIONS_PATH = '/locations/{path}';

/** The hierarchy routes, in OpenAPI form: all of them answer 200, 304, 400, 404 and 500. */
const DATA_PATHS = [
  '/provinces',
  '/provinces/{id}',
  '/provinces/{id}/districts',
  '/districts/{id}',
  '/districts/{id}/communes',
  '/communes/{id}',
  '/communes/{id}/villages',
  '/villages/{id}',
  LOCATIONS_PATH,
  '/v1/provinces',
  '/v1/provinces/{province_code}',
  '/v1/districts/{province_code}',
  '/v1/communes/{district_code}',
  '/v1/villages/{commune_code}',
  '/search',
  '/lookup/{postcode}',
  '/v1/search',
  '/resolve',
  '/v1/resolve',
  '/v1/validate',
];
/** Open routes about the service itself, not its data. */
const SERVICE_PATHS = ['/health', '/ready'];
/** The geography routes (src/http/features/geo): reverse geocoding (GET, and POST for a batch) and boundaries (GeoJSON). */
const GEO_PATHS = ['/reverse', '/v1/reverse', '/v1/boundaries/{code}'];
const ALL_PATHS = [...DATA_PATHS, ...SERVICE_PATHS, ...GEO_PATHS];
/** Operations besides GET, by path. */
const OTHER_METHODS: Record<string, string[]> = { '/v1/resolve': ['post'], '/v1/reverse': ['post'] };
/** Responses that are not JSON, by path (200 only). */
const OTHER_TYPES: Record<string, string> = { '/v1/boundaries/{code}': 'application/geo+json' };

interface Operation {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; 'x-dataset-version'?: string };
  paths: Record<string, Record<string, Operation>>;
}

/** `/provinces/{id}` -> `/provinces/:id`, `/locations/{path}` -> `/locations/*`: the route as Fastify knows it. */
const toFastifyPath = (path: string) => (path === LOCATIONS_PATH ? '/locations/*' : path.replace(/\{([^}]+)\}/g, ':$1'));

describe('GET /openapi.json', async () => {
  let app: FastifyInstance;
  let body: string;
  let doc: OpenApiDocument;
  const datasetVersion = gazetteer().version;

  before(async () => {
    app = await buildApp(appOptions());
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    body = response.body;
    doc = response.json<OpenApiDocument>();
  });
  after(() => app.close());
  /** Every documented path but the service ones: the listed hierarchy routes and any added since (e.g. search). */
  const dataPaths = () => Object.keys(doc.paths).filter((path) => !SERVICE_PATHS.includes(path));

  it('is an OpenAPI 3.1 document', () => {
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(doc.info.title, 'kh-address');
    assert.equal(typeof doc.paths, 'object');
  });

  it('has the package version as info.version', () => {
    assert.equal(doc.info.version, packageVersion);
  });

  it('names the dataset version in info.x-dataset-version and in the description', () => {
    assert.equal(doc.info['x-dataset-version'], datasetVersion);
    assert.ok(doc.info.description?.includes(datasetVersion), 'info.description does not mention the dataset version');
  });

  it('documents every hierarchy route and /health, and the app serves every documented path', () => {
    const documented = Object.keys(doc.paths);
    for (const path of ALL_PATHS) assert.ok(documented.includes(path), `${path} is not documented`);
    for (const path of documented) {
      assert.ok(app.hasRoute({ method: 'GET', url: toFastifyPath(path) }), `${path} is documented but the app has no route GET ${toFastifyPath(path)}`);
    }
  });

  it('leaves the documentation routes and the CORS preflight route out, and documents only GET (and the listed POSTs)', () => {
    for (const path of Object.keys(doc.paths)) {
      assert.ok(!path.startsWith('/docs') && path !== '/openapi.json' && path !== '/*' && path !== '/{*}', `${path} is documented`);
    }
    for (const [path, item] of Object.entries(doc.paths)) {
      // The non-GET routes: batches that do not fit in a URL (POST /v1/resolve, POST /v1/reverse); they only read.
      assert.deepEqual(Object.keys(item), ['get', ...(OTHER_METHODS[path] ?? [])], `${path} documents ${Object.keys(item).join(', ')}`);
    }
    const batch = (doc.paths['/v1/resolve'] as { post: { description: string } }).post;
    assert.match(batch.description, /reads, never writes/);
  });

  it('gives every data operation a unique operationId, a 200 and the 400/404/500 errors', () => {
    const operationIds = new Set<string>();
    for (const path of dataPaths()) {
      const operation = doc.paths[path]?.get;
      assert.ok(operation, `no GET ${path}`);
      assert.ok(operation.operationId, `GET ${path} has no operationId`);
      assert.ok(!operationIds.has(operation.operationId), `operationId ${operation.operationId} is used twice`);
      operationIds.add(operation.operationId);
      const responses = operation.responses ?? {};
      for (const status of ['200', '400', '404', '500']) {
        assert.ok(responses[status]?.description, `GET ${path} does not document ${status} (with a description)`);
        const type = (status === '200' && OTHER_TYPES[path]) || 'application/json';
        assert.ok(responses[status].content?.[type]?.schema, `GET ${path} ${status} has no ${type} schema`);
      }
    }
  });

  it('documents 304 Not Modified on the cacheable hierarchy routes', () => {
    for (const path of DATA_PATHS) assert.ok(doc.paths[path]?.get?.responses?.['304']?.description, `GET ${path} does not document 304`);
  });

  it('documents each error in the envelope of its shape', () => {
    for (const path of dataPaths()) {
      const responses = doc.paths[path]!.get!.responses!;
      for (const status of ['400', '404', '500']) {
        const schema = responses[status]!.content!['application/json']!.schema as { required?: string[] };
        const expected = path.startsWith('/v1/') ? ['error', 'status'] : ['error', 'metadata', 'statusCode'];
        assert.deepEqual([...(schema.required ?? [])].sort(), expected, `GET ${path} ${status}`);
      }
    }
  });

  it('documents path parameters as required and as used in the path', () => {
    for (const path of dataPaths()) {
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const pathParams = (doc.paths[path]!.get!.parameters ?? []).filter((p) => p.in === 'path');
      assert.deepEqual(pathParams.map((p) => p.name).sort(), templated.sort(), `GET ${path}`);
      for (const p of pathParams) assert.equal(p.required, true, `GET ${path} parameter ${p.name}`);
    }
  });

  it('documents GET /ready with its 200 and its 503, and no key needed', () => {
    const operation = doc.paths['/ready']?.get as Operation & { security?: unknown[] };
    assert.equal(operation?.operationId, 'ready');
    assert.ok(operation.responses?.['200']?.content?.['application/json']);
    assert.ok(operation.responses?.['503']?.content?.['application/json']);
    assert.deepEqual(operation.security, []);
  });

  it('documents GET /health with an operationId and a 200', () => {
    const operation = doc.paths['/health']?.get;
    assert.ok(operation?.operationId);
    assert.ok(operation.responses?.['200']?.content?.['application/json']?.schema);
  });

  it('passes Spectral\'s oas ruleset with no errors', async (t) => {
    const spectral = new Spectral();
    // The ruleset object's inferred literal types are narrower than RulesetDefinition; the value is what it expects.
    spectral.setRuleset({ extends: [[spectralRulesets.oas as RulesetDefinition, 'recommended']] });
    const results = await spectral.run(new Document(body, spectralParsers.Json, '/openapi.json'));

    const show = (r: (typeof results)[number]) => `${r.code} at ${r.path.join('.') || '(root)'}: ${r.message}`;
    const errors = results.filter((r) => r.severity === 0);
    const warnings = results.filter((r) => r.severity === 1);
    const others = results.filter((r) => r.severity > 1);
    const byCode = new Map<string, number>();
    for (const r of warnings) byCode.set(String(r.code), (byCode.get(String(r.code)) ?? 0) + 1);
    t.diagnostic(`Spectral oas: ${errors.length} error(s), ${warnings.length} warning(s), ${others.length} info/hint(s)`);
    for (const [code, count] of byCode) t.diagnostic(`warning ${code} x${count}`);
    for (const r of warnings) t.diagnostic(`warning ${show(r)}`);
    for (const r of errors) t.diagnostic(`ERROR ${show(r)}`);

    assert.deepEqual(errors.map(show), []);
  });
});
