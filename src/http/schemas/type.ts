/**
 * The JSON Schema builders the routes' schemas are written with (`Type.Object`, `Type.String`...), as typebox makes
 * them, without loading typebox at run time. typebox is an ES module of 709 files: importing it cost 120-180 ms of a
 * 2 s start (measured, `--cpu-prof` and import timings, Node 20), for twelve functions that each build a plain object.
 * The types are typebox's own (a type-only import), so routes keep their static types through the type provider.
 * Each builder makes what typebox 1.x makes, hidden markers included (`~kind`, `~optional`, `~unsafe`: non-enumerable,
 * so not in JSON): test/http/schemas/type.test.ts compares them, keys, order and property descriptors, with typebox's.
 */
import type { Type as TypeBox } from 'typebox';

type Builders = Pick<typeof TypeBox, 'Array' | 'Boolean' | 'Enum' | 'Integer' | 'Literal' | 'Null' | 'Number' | 'Object' | 'Optional'
  | 'String' | 'Union' | 'Unsafe'>;
type Schema = Record<PropertyKey, unknown>;

const UNSAFE_KEYS = new Set<PropertyKey>(['__proto__', 'constructor', 'prototype']);

function defineHidden(target: Schema, hidden: Schema): Schema {
  for (const key of Object.keys(hidden)) {
    if (UNSAFE_KEYS.has(key)) continue;
    Object.defineProperty(target, key, { configurable: true, writable: true, enumerable: false, value: hidden[key] });
  }
  return target;
}

/** A new schema: its own keywords, then the options (which may override them), then the hidden kind. */
function create(kind: string, keywords: Schema, options: object = {}): Schema {
  return defineHidden({ ...keywords, ...options }, { '~kind': kind });
}

/** A copy of a schema (its properties as they are, hidden or not) with hidden markers and keywords set anew. */
function update(current: Schema, hidden: Schema, keywords: Schema): Schema {
  const result: Schema = {};
  const replaced = new Set<PropertyKey>([...Object.keys(hidden), ...Object.keys(keywords)]);
  for (const key of [...Object.getOwnPropertyNames(current), ...Object.getOwnPropertySymbols(current)]) {
    if (UNSAFE_KEYS.has(key) || replaced.has(key)) continue;
    Object.defineProperty(result, key, Object.getOwnPropertyDescriptor(current, key)!);
  }
  defineHidden(result, hidden);
  for (const key of Object.keys(keywords)) {
    if (UNSAFE_KEYS.has(key)) continue;
    Object.defineProperty(result, key, { configurable: true, enumerable: true, writable: true, value: keywords[key] });
  }
  return result;
}

const isOptional = (schema: unknown) => typeof schema === 'object' && schema !== null && '~optional' in schema;

function literalType(value: unknown): string {
  switch (typeof value) {
    case 'bigint': return 'bigint';
    case 'boolean': return 'boolean';
    case 'number': return 'number';
    case 'string': return 'string';
    default: throw new Error('Invalid Literal value');
  }
}

const builders = {
  Array: (items: unknown, options?: object) => create('Array', { type: 'array', items }, options),
  Boolean: (options?: object) => create('Boolean', { type: 'boolean' }, options),
  Enum: (values: unknown, options?: object) => {
    // typebox also takes a TypeScript enum; the schemas here list their values.
    if (!Array.isArray(values)) throw new TypeError('Type.Enum takes an array of values here');
    return create('Enum', { enum: values }, options);
  },
  Integer: (options?: object) => create('Integer', { type: 'integer' }, options),
  Literal: (value: unknown, options?: object) => create('Literal', { type: literalType(value), const: value }, options),
  Null: (options?: object) => create('Null', { type: 'null' }, options),
  Number: (options?: object) => create('Number', { type: 'number' }, options),
  Object: (properties: Schema, options: object = {}) => {
    const required = Object.getOwnPropertyNames(properties).filter((key) => !isOptional(properties[key]));
    return create('Object', { type: 'object', ...(required.length > 0 ? { required } : {}), properties }, options);
  },
  Optional: (schema: Schema) => update(schema, { '~optional': true }, {}),
  String: (options?: object) => create('String', { type: 'string' }, options),
  Union: (anyOf: unknown[], options: object = {}) => create('Union', { anyOf }, options),
  Unsafe: (schema: Schema) => update(schema, { '~unsafe': null }, {}),
};

/** typebox's `Type`, for the builders the schemas use. */
export const Type = builders as unknown as Builders;
