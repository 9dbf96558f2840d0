/**
 * Every integer parameter of every route (issue 14, item 2) takes only plain decimal digits. Before, `Infinity`,
 * `-Infinity`, `1e309` and `-1e309` were coerced by Ajv to ±Infinity and failed in the serializer (500), and `0x10`,
 * `1e3`, `+1`, ` 1` and `1.0` were read as numbers. The parameters are found in the app's own OpenAPI document,
 * so routes added later are checked too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { appOptions } from '../helper.js';

interface Parameter { name: string; in: string; required?: boolean; example?: unknown; examples?: unknown; schema?: { type?: string; examples?: unknown[]; minimum?: number; maximum?: number } }
interface OpenApiDocument { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }

const REFUSED = ['Infinity', '-Infinity', '1e309', '-1e309', '0x10', '1e3', '+1', ' 1', '1 ', '1.0', '-1', '', '0b1', '1_0', '١', '១', 'NaN', 'null',
  '1'.repeat(16)];

const exampleOf = (p: Parameter): string | undefined => {
  const example = p.example ?? p.schema?.examples?.[0] ?? (Object.values((p as { examples?: Record<string, { value?: unknown }> }).examples ?? {})[0]?.value as string | undefined);
  return example === undefined ? undefined : String(example);
};

describe('integer parameters', () => {
  let app: FastifyInstance;
  let doc: OpenApiDocument;
  before(async () => {
    app = await buildApp(appOptions());
    doc = (await app.inject('/openapi.json')).json<OpenApiDocument>();
  });
  after(() => app.close());

  /** Every GET operation with an integer parameter, with a URL builder that fills the others from their examples. */
  const operations = () => Object.entries(doc.paths).flatMap(([path, methods]) => {
    const parameters = methods.get?.parameters ?? [];
    const integers = parameters.filter((p) => p.schema?.type === 'integer');
    if (integers.length === 0) return [];
    const url = (name: string, value: string) => {
      let target = path;
      const query: string[] = [];
      for (const p of parameters) {
        const v = p.name === name ? value : exampleOf(p);
        if (v === undefined) {
          assert.ok(!p.required, `${path}: required parameter ${p.name} has no example`);
          continue;
        }
        if (p.in === 'path') target = target.replace(`{${p.name}}`, encodeURIComponent(v));
        else if (p.in === 'query') query.push(`${p.name}=${encodeURIComponent(v)}`);
      }
      return `${target}?${query.join('&')}`;
    };
    return integers.map((p) => ({ path, parameter: p, url }));
  });

  it('are found: /search and /v1/search take page and pageSize', () => {
    const found = operations().map((o) => `${o.path} ${o.parameter.name}`).sort();
    for (const expected of ['/search page', '/search pageSize', '/v1/search page', '/v1/search pageSize']) assert.ok(found.includes(expected), expected);
  });

  it('refuse anything but decimal digits with a 400 in the documented shape, naming the parameter', async () => {
    for (const { path, parameter, url } of operations()) {
      for (const value of REFUSED) {
        const response = await app.inject(url(parameter.name, value));
        const where = `${path} ${parameter.name}=${JSON.stringify(value)}: ${response.statusCode} ${response.body.slice(0, 300)}`;
        assert.equal(response.statusCode, 400, where);
        const body = response.json<{ status?: string; statusCode?: number; error: { code: string; details?: Array<{ in: string; parameter: string }> } }>();
        assert.equal(body.error.code, 'invalid_request', where);
        assert.equal(path.startsWith('/v1/') ? body.status : body.statusCode, path.startsWith('/v1/') ? 'error' : 400, where);
        assert.ok(body.error.details?.some((d) => d.parameter === parameter.name && d.in === parameter.in), where);
      }
    }
  });

  it('accept decimal digits (leading zeros too) within the documented range', async () => {
    for (const { path, parameter, url } of operations()) {
      for (const value of ['1', '2', '01', String(parameter.schema?.maximum ?? 100)]) {
        const response = await app.inject(url(parameter.name, value));
        assert.equal(response.statusCode, 200, `${path} ${parameter.name}=${value}: ${response.body.slice(0, 300)}`);
      }
      const over = await app.inject(url(parameter.name, String((parameter.schema?.maximum ?? 1e6) + 1)));
      assert.equal(over.statusCode, 400, `${path} ${parameter.name} over its maximum`);
    }
  });

  it('document the rule', () => {
    for (const { path, parameter } of operations()) {
      const described = (parameter as { description?: string }).description ?? '';
      assert.match(described, /digits/, `${path} ${parameter.name}`);
    }
  });
});
