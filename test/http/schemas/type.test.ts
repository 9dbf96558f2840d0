/** The schema builders (src/http/schemas/type.ts) make what typebox makes: keywords, order and hidden markers. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type as TypeBox } from 'typebox';
import { Type } from '../../../src/http/schemas/type.js';

/** Every own key (hidden ones and symbols too), in order, with its descriptor; nested schemas alike. */
function shape(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(shape);
  return Reflect.ownKeys(value).map((key) => {
    const { value: inner, ...descriptor } = Object.getOwnPropertyDescriptor(value, key)!;
    return [String(key), descriptor, shape(inner)];
  });
}

/** The same schemas built with either `Type`. */
function samples(T: typeof Type): Record<string, unknown> {
  const record = T.Object({ code: T.String({ pattern: '^[0-9]{2}$' }), name: T.Optional(T.String()) });
  return {
    string: T.String(),
    stringOptions: T.String({ minLength: 1, maxLength: 20, description: 'A name.', examples: ['Kampot'], format: 'date' }),
    integer: T.Integer({ minimum: 1, maximum: 100, default: 10 }),
    number: T.Number({ minimum: -90 }),
    boolean: T.Boolean({ description: 'Yes or no.' }),
    null: T.Null(),
    literals: [T.Literal('ok'), T.Literal(200), T.Literal(true), T.Literal('error', { description: 'Always error.' })],
    enum: T.Enum(['json', 'csv', 'geojson'], { default: 'json', description: 'The format.' }),
    union: T.Union([T.String(), T.Null()], { description: 'null when absent.' }),
    unionBare: T.Union([T.Literal('account'), T.Literal('key')]),
    array: T.Array(record, { maxItems: 100, description: 'Units.' }),
    arrayBare: T.Array(T.String()),
    object: record,
    objectOptions: T.Object({ a: T.Optional(T.Integer()), b: T.Optional(T.Array(T.String())) }, { additionalProperties: false, description: 'All optional.' }),
    objectEmpty: T.Object({}),
    objectSpread: T.Object({ ...record.properties, level: T.Literal('province') }, { additionalProperties: false }),
    optionalOfOptions: T.Optional(T.String({ description: 'Kept.' })),
    optionalTwice: T.Optional(T.Optional(T.Integer())),
    unsafe: T.Unsafe({ type: 'string', format: 'binary' }),
    unsafeOfType: T.Unsafe(T.Object({ x: T.Number() })),
  };
}

describe('schema builders', () => {
  it('make the same schemas as typebox: JSON, keys in order, hidden markers and descriptors', () => {
    const ours = samples(Type);
    const theirs = samples(TypeBox as unknown as typeof Type);
    for (const name of Object.keys(theirs)) {
      assert.equal(JSON.stringify(ours[name]), JSON.stringify(theirs[name]), name);
      assert.deepEqual(shape(ours[name]), shape(theirs[name]), name);
    }
  });

  it('are recognised by typebox as its own (the hidden kind and optional markers)', () => {
    const schema = Type.Object({ a: Type.Optional(Type.String()), b: Type.Integer() });
    assert.equal((schema as unknown as Record<string, unknown>)['~kind'], 'Object');
    assert.deepEqual(schema.required, ['b']);
    assert.ok(TypeBox.IsObject(schema));
    assert.ok(TypeBox.IsOptional(schema.properties.a));
  });

  it('refuse what typebox refuses, and what these builders do not take', () => {
    assert.throws(() => Type.Literal({} as never), /Invalid Literal value/);
    assert.throws(() => Type.Enum({ A: 'a' } as never), /array/);
  });
});
