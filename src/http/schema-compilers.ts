/**
 * Fastify's compilers (fast-json-stringify for responses, Ajv for requests: its defaults), each distinct schema
 * compiled once. Fastify compiles one serializer per route and status: with the error envelope on every status of
 * every route, that was 543 compilations of about 40 distinct schemas, a sixth of the start-up (measured with
 * `--cpu-prof`: 250-350 ms of 2 s); and one validator per route and part, where most routes share their query or
 * parameter schema. The same schema and options make the same function, so one is shared. Schemas that differ only in
 * their annotations (description, title, examples: the error envelope's text per status) serialize and validate
 * alike: neither compiler reads annotations (and Ajv's errors, which the error handler turns into details, name the
 * keyword, path and parameters, never a description).
 */
import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;
type ValidatorFactory = ReturnType<typeof AjvCompiler>;
type Validator = ReturnType<ReturnType<ValidatorFactory>>;
/** What Fastify passes to a validator compiler. */
interface ValidatorRoute { schema: unknown; method: string; url: string; httpPart?: string; contentType?: string }

/** Counts of a factory's work (tests read them): schemas asked for, and how many were compiled. */
export interface CompilerStats { requested: number; compiled: number }

/** Keywords that only annotate a schema: they do not change what fast-json-stringify writes. */
const ANNOTATIONS = new Set(['description', 'title', '$comment', 'example', 'examples']);

/**
 * A schema's JSON text without its annotations. Only an annotation's own form is dropped (a string, or the examples'
 * array): a property that happens to be called `description` or `title` is a schema (an object) and stays.
 */
export function serializationKey(schema: unknown): string {
  return JSON.stringify(schema, function (this: unknown, name: string, value: unknown) {
    if (!ANNOTATIONS.has(name) || Array.isArray(this)) return value;
    if (typeof value === 'string' || (name === 'examples' && Array.isArray(value))) return undefined;
    if (name === 'example' && !isSchemaShaped(value)) return undefined;
    return value;
  });
}

/** An `example` that is itself a schema is a property of that name (a schema object with a type or a combinator). */
function isSchemaShaped(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    && ['type', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', '$ref', 'properties', 'items'].some((keyword) => keyword in value);
}

/**
 * A `buildSerializer` for Fastify's `schemaController.compilersFactory`: the default factory, with its compiled
 * functions shared between schemas alike but for annotations (by their JSON text: schemas here are plain JSON Schema,
 * no functions; the app adds no shared schemas, and the options are part of the factory, so the text decides the code).
 */
export function sharedSerializers(stats: CompilerStats = { requested: 0, compiled: 0 }): SerializerFactory {
  const build = SerializerSelector();
  // Fastify asks for a compiler per encapsulation context (each plugin scope with routes): the functions are shared
  // across them, by the shared schemas and options each compiler was made with as well as the route's schema.
  const compiled = new Map<string, Serializer>();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const context = JSON.stringify([externalSchemas, options]);
    return (route) => {
      stats.requested++;
      const key = `${context}\n${serializationKey(route.schema)}`;
      let serializer = compiled.get(key);
      if (!serializer) {
        stats.compiled++;
        serializer = compile(route);
        compiled.set(key, serializer);
      }
      return serializer;
    };
  };
}

/**
 * A `buildValidator` for Fastify's `schemaController.compilersFactory`: Fastify's default (@fastify/ajv-compiler, one
 * Ajv per set of options), with its validators shared between schemas alike but for annotations, per request part.
 * (A custom validator factory makes Fastify pass header schemas as they are instead of lower-casing their property
 * names: the routes here have no header schemas.)
 */
export function sharedValidators(stats: CompilerStats = { requested: 0, compiled: 0 }): ValidatorFactory {
  const build = AjvCompiler() as unknown as (externalSchemas: unknown, options: { customOptions?: unknown }) => (route: ValidatorRoute) => Validator;
  const compiled = new Map<string, Validator>();
  const factory = (externalSchemas: unknown, options: { customOptions?: unknown } = {}) => {
    const compile = build(externalSchemas, options);
    // As @fastify/ajv-compiler keys its own pool of Ajv instances: the shared schemas and Ajv's options.
    const context = JSON.stringify([externalSchemas, options.customOptions]);
    return (route: ValidatorRoute) => {
      stats.requested++;
      const key = `${context}\n${route.httpPart}\n${serializationKey(route.schema)}`;
      let validator = compiled.get(key);
      if (!validator) {
        stats.compiled++;
        validator = compile(route);
        compiled.set(key, validator);
      }
      return validator;
    };
  };
  return factory as unknown as ValidatorFactory;
}

/** Fastify's `schemaController` option with the shared serializers and validators. */
export function schemaController(stats?: { serializers?: CompilerStats; validators?: CompilerStats }): NonNullable<FastifyServerOptions['schemaController']> {
  return { compilersFactory: { buildSerializer: sharedSerializers(stats?.serializers) as never, buildValidator: sharedValidators(stats?.validators) as never } };
}
