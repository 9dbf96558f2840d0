/** Shared response serializers (src/http/schema-compilers.ts): one compilation per schema alike but for annotations. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/http/app.js';
import {
  type CompilerStats, compilePending, fasterFormats, isUuidText, pendingCompilations, serializationKey, sharedSerializers, sharedValidators,
} from '../../src/http/schema-compilers.js';
import { appOptions, gazetteer } from '../helper.js';

const envelope = (description: string) => ({
  type: 'object', description, required: ['error'],
  properties: {
    error: { type: 'object', title: 'The error', examples: [{ code: 'x' }], properties: { code: { type: 'string', description: 'A code.' } } },
    // Properties called like annotations are data, not annotations: they stay in the key.
    description: { type: 'string' },
    title: { type: 'integer' },
  },
});

describe('shared response serializers', () => {
  it('keys schemas by their JSON text without annotations, keeping properties of those names', () => {
    assert.equal(serializationKey(envelope('Not found.')), serializationKey(envelope('Too many requests.')));
    const key = JSON.parse(serializationKey(envelope('Not found.'))) as { description?: unknown; properties: Record<string, unknown> };
    assert.equal(key.description, undefined);
    assert.deepEqual(key.properties.description, { type: 'string' });
    assert.deepEqual(key.properties.title, { type: 'integer' });
    assert.notEqual(serializationKey({ type: 'string' }), serializationKey({ type: 'integer' }));
    assert.notEqual(serializationKey({ type: 'object', properties: { a: { type: 'string' } } }), serializationKey({ type: 'object', properties: { b: { type: 'string' } } }));
  });

  it('compiles a schema once for every route, status and scope that has it, and each serializes as the schema says', () => {
    const stats: CompilerStats = { requested: 0, compiled: 0 };
    const factory = sharedSerializers(stats);
    const one = factory({}, {})({ schema: envelope('Not found.'), method: 'GET', url: '/a', httpStatus: '404' });
    const two = factory({}, {})({ schema: envelope('Gone.'), method: 'GET', url: '/b', httpStatus: '410' });
    const other = factory({}, {})({ schema: { type: 'object', properties: { n: { type: 'integer' } } }, method: 'GET', url: '/c', httpStatus: '200' });
    assert.equal(one, two);
    assert.notEqual(one, other);
    assert.deepEqual(stats, { requested: 3, compiled: 0 }, 'compiled on first use, not when asked for');
    assert.equal(one({ error: { code: 'x', extra: 1 }, description: 'd', title: 3, dropped: true }), '{"error":{"code":"x"},"description":"d","title":3}');
    assert.equal(other({ n: '7' }), '{"n":7}');
    assert.deepEqual(stats, { requested: 3, compiled: 2 });
    assert.equal(one({ error: { code: 'y' } }), '{"error":{"code":"y"}}');
    assert.equal(stats.compiled, 2, 'compiled once');
  });

  it('does not share across different serializer options', () => {
    const stats: CompilerStats = { requested: 0, compiled: 0 };
    const factory = sharedSerializers(stats);
    const route = { schema: { type: 'object', properties: { n: { type: 'integer' } } }, method: 'GET', url: '/c', httpStatus: '200' };
    factory({}, {})(route);
    factory({}, { rounding: 'ceil' })(route);
    compilePending();
    assert.equal(stats.compiled, 2);
  });

  it('shares a validator between routes with the same schema for the same part, and it validates as Ajv does', () => {
    const stats: CompilerStats = { requested: 0, compiled: 0 };
    const factory = sharedValidators(stats) as unknown as (externals: unknown, options: unknown) => (route: unknown) => (data: unknown) => boolean;
    const options = { customOptions: { removeAdditional: false, allErrors: true } };
    const query = (description: string) => ({ type: 'object', properties: { lang: { type: 'string', enum: ['en', 'km'], description } }, additionalProperties: false });
    const a = factory({}, options)({ schema: query('Language.'), method: 'GET', url: '/a', httpPart: 'querystring' });
    const b = factory({}, options)({ schema: query('The language.'), method: 'GET', url: '/b', httpPart: 'querystring' });
    const params = factory({}, options)({ schema: query('Language.'), method: 'GET', url: '/c', httpPart: 'params' });
    assert.equal(a, b);
    assert.notEqual(a, params);
    assert.deepEqual(stats, { requested: 3, compiled: 0 }, 'compiled on first use, not when asked for');
    assert.equal(a({ lang: 'km' }), true);
    assert.equal(a({ lang: 'fr' }), false);
    // Fastify reads the errors of a failed validation from the function it called.
    assert.equal((a as unknown as { errors: { keyword: string }[] }).errors[0]!.keyword, 'enum');
    assert.equal(a({ lang: 'en', other: 1 }), false);
    assert.equal((a as unknown as { errors: { keyword: string }[] }).errors[0]!.keyword, 'additionalProperties');
    assert.equal(params({ lang: 'km' }), true);
    assert.deepEqual(stats, { requested: 3, compiled: 2 });
    factory({}, { customOptions: { removeAdditional: true } })({ schema: query('Language.'), method: 'GET', url: '/a', httpPart: 'querystring' });
    compilePending();
    assert.equal(stats.compiled, 3, 'other Ajv options: compiled anew');
  });

  it('gives Ajv\'s schemaEnv, so that Fastify lets Ajv coerce a root value in place', () => {
    const factory = sharedValidators() as unknown as (externals: unknown, options: unknown) => (route: unknown) => ((data: unknown, context?: unknown) => boolean) & { schemaEnv?: unknown };
    const validate = factory({}, { customOptions: { coerceTypes: 'array' } })({ schema: { type: 'array', items: { type: 'string' } }, method: 'POST', url: '/d', httpPart: 'body' });
    assert.ok(validate.schemaEnv, 'schemaEnv present (compiles the schema)');
    const request = { body: 'x' as unknown };
    assert.equal(validate(request.body, { parentData: request, parentDataProperty: 'body' }), true);
    assert.deepEqual(request.body, ['x'], 'the root value coerced in its parent');
  });

  it('compiles every schema of the app (as the server does after it listens): none fails', async () => {
    const app = await buildApp(appOptions());
    try {
      await app.ready();
      assert.ok(pendingCompilations() > 30, `${pendingCompilations()} compilations pending after buildApp`);
      assert.ok(compilePending() > 30);
      assert.equal(pendingCompilations(), 0);
    } finally {
      await app.close();
    }
  });

  it('leaves the app\'s answers as they were: a 404 and a 400 in each envelope', async () => {
    const app = await buildApp(appOptions());
    try {
      const missing = await app.inject({ url: '/v1/districts/99' });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().status, 'error');
      const bad = await app.inject({ url: '/provinces?nope=1' });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().statusCode, 400);
      assert.equal(typeof bad.json().metadata.correlationId, 'string');
    } finally {
      await app.close();
    }
  });

  it('reads a UUID as the uuid format of ajv-formats does (its regular expression), on random and edge strings', () => {
    const AJV_FORMATS_UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
    const alphabet = '0123456789abcdefABCDEFgG-:urnUUIDz ';
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const valid = 'be7c3096-3b6a-5be0-8dc7-54c73b31c9d0';
    const cases = [valid, valid.toUpperCase(), `urn:uuid:${valid}`, `URN:UUID:${valid}`, `urn:uuid:${valid}x`, `${valid} `, valid.slice(1),
      valid.replace(/-/g, ''), `urn:uuiq:${valid}`, valid.replace('5be0', '5bg0'), valid.replace('-3b6a', '_3b6a'), '', '-'.repeat(36)];
    for (let n = 0; n < 20_000; n++) {
      // Mostly near-misses of a valid id (one or two characters changed), some fully random.
      const chars = [...(random() < 0.2 ? `urn:uuid:${valid}` : valid)];
      for (let k = random() < 0.5 ? 1 : 2; k > 0; k--) chars[Math.floor(random() * chars.length)] = alphabet[Math.floor(random() * alphabet.length)]!;
      cases.push(random() < 0.1 ? Array.from({ length: 36 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('') : chars.join(''));
    }
    let accepted = 0;
    for (const text of cases) {
      assert.equal(isUuidText(text), AJV_FORMATS_UUID.test(text), JSON.stringify(text));
      if (AJV_FORMATS_UUID.test(text)) accepted++;
    }
    assert.ok(accepted > 1000 && accepted < cases.length - 1000, `both outcomes tried (${accepted} of ${cases.length} valid)`);
  });

  it('tries the units\' ids first: each one is a UUID, so the format accepts exactly what isUuidText() does', () => {
    const units = gazetteer().units;
    assert.ok(units.length > 16_000);
    for (const unit of units) {
      assert.ok(isUuidText(unit.id), unit.id);
      assert.ok(gazetteer().hasId(unit.id));
    }
    let validate: ((text: string) => boolean) | undefined;
    fasterFormats((id) => gazetteer().hasId(id))({ addFormat: (_name, format) => { validate = format.validate; } });
    const known = units[100]!.id;
    for (const text of [known, known.toUpperCase(), `urn:uuid:${known}`, 'be7c3096-3b6a-5be0-8dc7-54c73b31c9d1', known.slice(1), `${known}x`, '',
      known.repeat(300)]) {
      assert.equal(validate!(text), isUuidText(text), text);
    }
    assert.equal(gazetteer().hasId(known.toUpperCase()), false, 'exactly as written: other spellings go through the check');
  });

  it('answers a malformed id with the same 400 as before, and a valid id in capitals', async () => {
    const app = await buildApp(appOptions());
    try {
      const bad = await app.inject({ url: '/districts/be7c3096-3b6a-5be0-8dc7-54c73b31c9dz' });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().error.message, /UUID/);
      // The id of Chamkar Mon (1201): ids are derived from codes, the same in every build.
      const id = 'be7c3096-3b6a-5be0-8dc7-54c73b31c9d0';
      const upper = await app.inject({ url: `/districts/${id.toUpperCase()}` });
      assert.equal(upper.statusCode, 200);
      assert.equal(upper.json().data.code, '1201');
    } finally {
      await app.close();
    }
  });
});
