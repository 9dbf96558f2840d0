/** Validates response bodies against the schema the app's own OpenAPI document gives for that route and status. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
}

export async function openApiValidator(app: FastifyInstance) {
  const doc = (await app.inject('/openapi.json')).json() as OpenApiDocument;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const cache = new Map<string, ValidateFunction>();

  /** Throws with Ajv's errors if `body` does not match the documented response of GET `path` with `status`. */
  return (path: string, status: number, body: unknown): void => {
    const key = `${path} ${status}`;
    let validate = cache.get(key);
    if (!validate) {
      const schema = doc.paths[path]?.get?.responses[String(status)]?.content?.['application/json']?.schema;
      if (!schema) throw new Error(`the OpenAPI document has no JSON response ${status} for GET ${path}`);
      validate = ajv.compile(schema);
      cache.set(key, validate);
    }
    if (!validate(body)) {
      throw new Error(`GET ${path} ${status}: body does not match the OpenAPI schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
    }
  };
}
