/**
 * The OpenAPI document's examples and response headers (issue 14, item 18), on the full app (keys on):
 * - every example (of a response, of a parameter, and inside a schema) validates against its own schema;
 * - every error example has the code of its status, in the envelope of its path's shape, and differs by status;
 * - every path, with the examples of its parameters, answers 200 ("Try it out" works);
 * - the headers documented for a status are on the real responses with that status, and 405 is documented.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { createKey } from '../../src/keys/issue-keys.js';
import { dashboardApp, type DashboardApp } from '../dashboard/helper.js';

interface Parameter { name: string; in: string; required?: boolean; example?: unknown; examples?: Record<string, { value: unknown }>; schema: Record<string, unknown> }
interface Media { schema: Record<string, unknown>; example?: unknown; examples?: Record<string, { value: unknown }> }
interface Response { description: string; headers?: Record<string, { schema: Record<string, unknown>; example?: unknown }>; content?: Record<string, Media> }
interface Operation { parameters?: Parameter[]; security?: unknown[]; responses: Record<string, Response> }
interface OpenApiDocument { paths: Record<string, Record<string, Operation>>; components?: { headers?: Record<string, { schema: Record<string, unknown>; example?: unknown }> } }

const CODES_OF: Record<string, string[]> = {
  400: ['invalid_request'], 401: ['missing_api_key', 'invalid_api_key'], 404: ['not_found'], 405: ['method_not_allowed'],
  429: ['rate_limited', 'quota_exceeded'], 500: ['internal_error'], 503: ['service_unavailable'],
};

const examplesOf = (media: Media): unknown[] =>
  [...(media.example === undefined ? [] : [media.example]), ...Object.values(media.examples ?? {}).map((e) => e.value)];

/** Every `examples` array inside a schema, with the sub-schema it belongs to. */
function* nestedExamples(schema: unknown, where: string): Generator<[Record<string, unknown>, unknown, string]> {
  if (!schema || typeof schema !== 'object') return;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.examples)) for (const example of s.examples) yield [s, example, where];
  for (const [key, value] of Object.entries(s)) {
    if (key === 'examples' || key === 'example') continue;
    if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* nestedExamples(v, `${where}/${key}/${i}`);
    else if (value && typeof value === 'object') yield* nestedExamples(value, `${where}/${key}`);
  }
}

describe('OpenAPI examples and headers', () => {
  let dash: DashboardApp;
  let doc: OpenApiDocument;
  let apiKey: string;
  let limitedKey: string;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  let checked = 0;
  const check = (schema: Record<string, unknown>, value: unknown, where: string) => {
    checked++;
    const validate = ajv.compile(schema);
    assert.ok(validate(value), `${where}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 400)}`);
  };

  before(async () => {
    dash = await dashboardApp({ geo: true });
    await dash.store.createPlan({ name: 'docs-examples', monthlyQuota: 1_000_000, perSecond: 100_000 });
    await dash.store.createPlan({ name: 'one-a-second', monthlyQuota: 1_000_000, perSecond: 1 });
    ({ key: apiKey } = await createKey(dash.store, { plan: 'docs-examples' }));
    ({ key: limitedKey } = await createKey(dash.store, { plan: 'one-a-second' }));
    doc = (await dash.app.inject('/openapi.json')).json<OpenApiDocument>();
  });
  after(() => dash.close());

  const operations = () => Object.entries(doc.paths).map(([path, methods]) => ({ path, operation: methods.get! }));

  /** The path with the examples of its parameters: path parameters always, query parameters that have one. */
  const exampleUrl = (path: string, operation: Operation): string => {
    let url = path;
    const query: string[] = [];
    for (const p of operation.parameters ?? []) {
      const example = p.example ?? Object.values(p.examples ?? {})[0]?.value ?? (p.schema.examples as unknown[] | undefined)?.[0];
      if (example === undefined) {
        assert.ok(!p.required, `${path}: required parameter ${p.name} has no example`);
        continue;
      }
      if (p.in === 'path') url = url.replace(`{${p.name}}`, p.name === 'path' ? String(example) : encodeURIComponent(String(example)));
      else if (p.in === 'query') query.push(`${p.name}=${encodeURIComponent(String(example))}`);
    }
    return query.length ? `${url}?${query.join('&')}` : url;
  };

  it('validates every example against its own schema', () => {
    const before = checked;
    for (const { path, operation } of operations()) {
      for (const p of operation.parameters ?? []) {
        if (p.example !== undefined) check(p.schema, p.example, `${path} parameter ${p.name}`);
        for (const [schema, example, where] of nestedExamples(p.schema, `${path} parameter ${p.name}`)) check(schema, example, where);
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.['application/json'];
        for (const [name, header] of Object.entries(response.headers ?? {})) {
          if (header.example !== undefined) check(header.schema, header.example, `${path} ${status} header ${name}`);
        }
        if (!media) continue;
        for (const example of examplesOf(media)) check(media.schema, example, `${path} ${status}`);
        for (const [schema, example, where] of nestedExamples(media.schema, `${path} ${status}`)) check(schema, example, where);
      }
    }
    for (const [name, header] of Object.entries(doc.components?.headers ?? {})) {
      if (header.example !== undefined) check(header.schema, header.example, `header ${name}`);
    }
    assert.ok(checked - before > 200, `only ${checked - before} examples`);
  });

  it('gives each error status its own example: the code of that status, in the envelope of the path', () => {
    for (const { path, operation } of operations()) {
      const seen = new Set<string>();
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const media = response.content?.['application/json'];
        assert.ok(media, `${path} ${status} has a JSON body`);
        const examples = examplesOf(media);
        assert.ok(examples.length > 0, `${path} ${status} has an example`);
        for (const example of examples as Array<{ status?: string; statusCode?: number; error: { code: string; message: string } }>) {
          // The codes the status's description names (`code: meaning; other_code: ...`), and for the usual statuses the expected ones.
          const described = [...response.description.matchAll(/(?:^|;\s*)([a-z_]+):/g)].map((m) => m[1]!);
          assert.ok(described.includes(example.error.code), `${path} ${status}: example with code ${example.error.code}, described: ${described.join(', ')}`);
          if (CODES_OF[status]) assert.ok(CODES_OF[status].includes(example.error.code), `${path} ${status}: example with code ${example.error.code}`);
          if (path.startsWith('/v1/')) assert.equal(example.status, 'error', `${path} ${status}`);
          else assert.equal(example.statusCode, Number(status), `${path} ${status}`);
          seen.add(example.error.message);
        }
      }
      const statuses = Object.keys(operation.responses).filter((s) => Number(s) >= 400);
      assert.ok(seen.size >= statuses.length, `${path}: the same message under several statuses`);
    }
  });

  it('documents the 405 and the response headers on every data operation', () => {
    for (const { path, operation } of operations()) {
      const keyed = !(operation.security?.length === 0);
      if (!keyed) continue;
      const { responses } = operation;
      assert.ok(responses['405'], `${path} documents 405`);
      assert.ok(responses['405']!.headers?.Allow, `${path} 405 documents Allow`);
      for (const name of ['x-correlation-id', 'x-dataset-version', 'RateLimit', 'RateLimit-Policy']) assert.ok(responses['200']!.headers?.[name], `${path} 200 ${name}`);
      for (const name of ['Retry-After', 'RateLimit', 'RateLimit-Policy']) assert.ok(responses['429']!.headers?.[name], `${path} 429 ${name}`);
      assert.ok(responses['503']!.headers?.['Retry-After'], `${path} 503 Retry-After`);
      if (responses['304']) assert.ok(responses['200']!.headers?.ETag && responses['304'].headers?.ETag, `${path} ETag`);
    }
  });

  /** The headers documented for this status are on the real response. */
  const hasDocumentedHeaders = (path: string, operation: Operation, status: number, response: LightMyRequestResponse) => {
    assert.equal(response.statusCode, status, `${path}: ${response.body.slice(0, 300)}`);
    for (const name of Object.keys(operation.responses[String(status)]?.headers ?? {})) {
      assert.ok(response.headers[name.toLowerCase()] !== undefined, `${path} ${status}: documented header ${name} is missing`);
    }
  };

  it('answers every path with its examples with a 200 that matches the schema, with the documented headers', async () => {
    for (const { path, operation } of operations()) {
      const url = exampleUrl(path, operation);
      const response = await dash.app.inject({ url, headers: { 'x-api-key': apiKey } });
      hasDocumentedHeaders(url, operation, 200, response);
      // The documented media type the response has (application/json, application/geo+json, text/csv...), and its schema.
      const contentType = String(response.headers['content-type']);
      const documented = Object.entries(operation.responses['200']!.content!);
      const [type, media] = documented.find(([t]) => contentType.startsWith(t)) ?? [];
      assert.ok(type && media, `${url}: ${contentType}, documented ${documented.map(([t]) => t).join(', ')}`);
      // A body documented as a string (a file sent as bytes, e.g. /v1/dataset) is checked as text.
      check(media.schema, type.endsWith('json') && media.schema.type !== 'string' ? response.json() : response.body, `${url} 200`);
      if (operation.responses['304']) {
        const etag = String(response.headers.etag);
        hasDocumentedHeaders(url, operation, 304, await dash.app.inject({ url, headers: { 'x-api-key': apiKey, 'if-none-match': etag } }));
      }
    }
  });

  it('sends the documented headers with the errors too', async () => {
    for (const { path, operation } of operations()) {
      const url = exampleUrl(path, operation);
      const keyed = !(operation.security?.length === 0);
      const withBadParameter = `${url}${url.includes('?') ? '&' : '?'}unknown=1`;
      if (operation.responses['400']) hasDocumentedHeaders(path, operation, 400, await dash.app.inject({ url: withBadParameter, headers: { 'x-api-key': apiKey } }));
      if (operation.responses['405']) hasDocumentedHeaders(path, operation, 405, await dash.app.inject({ method: 'PUT', url }));
      if (!keyed) continue;
      hasDocumentedHeaders(path, operation, 401, await dash.app.inject({ url }));
      let limited: LightMyRequestResponse | undefined;
      for (let i = 0; i < 3 && limited?.statusCode !== 429; i++) limited = await dash.app.inject({ url, headers: { 'x-api-key': limitedKey } });
      hasDocumentedHeaders(path, operation, 429, limited!);
    }
  });
});
