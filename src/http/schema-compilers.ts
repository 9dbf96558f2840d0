/**
 * Fastify's compilers (fast-json-stringify for responses, Ajv for requests: its defaults), each distinct schema
 * compiled once. Fastify compiles one serializer per route and status: with the error envelope on every status of
 * every route, that was 543 compilations of about 40 distinct schemas, a sixth of the start-up (measured with
 * `--cpu-prof`: 250-350 ms of 2 s); and one validator per route and part, where most routes share their query or
 * parameter schema. The same schema and options make the same function, so one is shared. Schemas that differ only in
 * their annotations (description, title, examples: the error envelope's text per status) serialize and validate
 * alike: neither compiler reads annotations (and Ajv's errors, which the error handler turns into details, name the
 * keyword, path and parameters, never a description).
 *
 * Each distinct schema is also compiled only when first used (or by `compilePending()`, which the server runs in idle
 * turns of the event loop once it listens, and a test runs over the whole app): compiling them at registration was
 * about 150 ms of CPU before the server could answer (`--cpu-prof` of the start, 2026-11-23), a tenth of the start.
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

/**
 * Compilations not run yet, each a function that runs it (once; running it again returns the same function). A
 * schema's function runs its compilation on its first call otherwise.
 */
const pending = new Set<() => unknown>();

/**
 * Runs every pending compilation now (synchronously) and returns how many ran; throws the first compilation error.
 * `slice`: at most this many, for callers that spread the work over turns of the event loop.
 */
export function compilePending(slice = Infinity): number {
  let ran = 0;
  for (const compile of pending) {
    if (ran >= slice) break;
    compile();
    ran++;
  }
  return ran;
}

/** How many compilations are still pending. */
export function pendingCompilations(): number {
  return pending.size;
}

/** A function that compiles with `compile` on its first call (or from compilePending()) and then calls the result. */
function deferred<F extends (data: never, context?: never) => unknown>(compile: () => F): { call: F; compiled: () => F } {
  let fn: F | undefined;
  const compiled = (): F => {
    if (fn === undefined) {
      fn = compile();
      pending.delete(compiled);
    }
    return fn;
  };
  pending.add(compiled);
  const call = ((data: never, context?: never) => (fn ?? compiled())(data, context)) as F;
  return { call, compiled };
}

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
    let compile: ReturnType<SerializerFactory> | undefined;
    const context = JSON.stringify([externalSchemas, options]);
    return (route) => {
      stats.requested++;
      const key = `${context}\n${serializationKey(route.schema)}`;
      let serializer = compiled.get(key);
      if (!serializer) {
        serializer = deferred(() => {
          stats.compiled++;
          compile ??= build(externalSchemas, options);
          return compile(route);
        }).call;
        compiled.set(key, serializer);
      }
      return serializer;
    };
  };
}

/**
 * Whether `text` is a UUID as the `uuid` format of ajv-formats reads one (`/^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}
 * [0-9a-f]{12}$/i`), checked character by character: the regular expression cost about 1,080 instructions on every
 * request with an id in its path (callgrind), this a third of that. A test compares the two on random strings.
 */
export function isUuidText(text: string): boolean {
  let at = 0;
  if (text.length === 45) {
    if (text.slice(0, 9).toLowerCase() !== 'urn:uuid:') return false;
    at = 9;
  } else if (text.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = text.charCodeAt(at + i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return false;
      continue;
    }
    const lower = c | 0x20;
    if (!((c >= 0x30 && c <= 0x39) || (lower >= 0x61 && lower <= 0x66))) return false;
  }
  return true;
}

/**
 * Ajv's `onCreate`: the `uuid` format checked by isUuidText() (same strings accepted; the schemas say `format: uuid`).
 * `known`, when given, is tried first: a check that is true only of strings isUuidText() accepts (the ids of the
 * gazetteer's units, each a lower-case UUID). Most ids asked for are such ids, and looking one up is cheaper than
 * reading its 36 characters; its hash, once computed, is kept by the string, so the route's own lookup of the same id
 * then costs less too.
 */
export function fasterFormats(known?: (text: string) => boolean) {
  // Only a string of an id's length is looked up: hashing a long one would cost in proportion to it.
  const validate = known ? (text: string) => (text.length === 36 && known(text)) || isUuidText(text) : isUuidText;
  return (ajv: { addFormat(name: string, format: { type: 'string'; validate: (text: string) => boolean }): unknown }): void => {
    ajv.addFormat('uuid', { type: 'string', validate });
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
    let compile: ((route: ValidatorRoute) => Validator) | undefined;
    // As @fastify/ajv-compiler keys its own pool of Ajv instances: the shared schemas and Ajv's options.
    const context = JSON.stringify([externalSchemas, options.customOptions]);
    return (route: ValidatorRoute) => {
      stats.requested++;
      const key = `${context}\n${route.httpPart}\n${serializationKey(route.schema)}`;
      let validator = compiled.get(key);
      if (!validator) {
        validator = deferredValidator(() => {
          stats.compiled++;
          compile ??= build(externalSchemas, options);
          return compile(route);
        });
        compiled.set(key, validator);
      }
      return validator;
    };
  };
  return factory as unknown as ValidatorFactory;
}

/**
 * A deferred Ajv validator. Fastify reads two properties of a validator besides calling it: `schemaEnv` before each
 * call (when present, it passes the parent object so that Ajv can coerce a root value) and `errors` after a failure.
 * Here both come from the compiled function: `schemaEnv` compiles it (and is then a plain property, as Ajv's), and
 * `errors` is read through (Ajv sets it on its function at each call).
 */
function deferredValidator(compile: () => Validator): Validator {
  const { call, compiled } = deferred<Validator>(() => {
    const validate = compile();
    Object.defineProperty(call, 'schemaEnv', { value: (validate as { schemaEnv?: unknown }).schemaEnv, configurable: true });
    return validate;
  });
  Object.defineProperties(call, {
    schemaEnv: { get: () => (compiled() as { schemaEnv?: unknown }).schemaEnv, configurable: true },
    errors: { get: () => (compiled() as { errors?: unknown }).errors },
  });
  return call;
}

/** Fastify's `schemaController` option with the shared serializers and validators. */
export function schemaController(stats?: { serializers?: CompilerStats; validators?: CompilerStats }): NonNullable<FastifyServerOptions['schemaController']> {
  return { compilersFactory: { buildSerializer: sharedSerializers(stats?.serializers) as never, buildValidator: sharedValidators(stats?.validators) as never } };
}
