/**
 * Integer parameters (query and path) are accepted only as plain decimal digits: `2`, `10`, `007`. Ajv would coerce
 * `Infinity`, `1e309` (both ±Infinity, which failed in the serializer: a 500), `0x10`, `1e3`, `+1`, ` 1` and `1.0`,
 * each a different reading of what the client meant. Every route whose querystring or params schema has an integer
 * property gets a check, before validation, that its raw text is 1 to 15 ASCII digits (15 keeps it an exact number);
 * anything else is a 400 in the documented shape. Ajv then checks the range. Routes added later are covered too.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { type ErrorDetail, invalidRequest } from '../errors.js';

export const INTEGER_TEXT = /^[0-9]{1,15}$/;
export const INTEGER_RULE = 'must be a whole number written in the digits 0-9 (no sign, exponent, decimal point or spaces)';

interface ObjectSchema {
  properties?: Record<string, { type?: unknown }>;
}

/** The names of a schema's integer properties. */
function integerProperties(schema: unknown): string[] {
  const properties = (schema as ObjectSchema | undefined)?.properties ?? {};
  return Object.keys(properties).filter((name) => {
    const type = properties[name]?.type;
    return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
  });
}

/** Whether a raw value (a string, or an array of them for a repeated parameter) is decimal digits only. */
function isDecimal(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.every(isDecimal);
  return typeof value === 'string' ? INTEGER_TEXT.test(value) : true;
}

export function registerIntegerParams(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const checks = ([['querystring', 'query'], ['params', 'path']] as const).flatMap(([part, where]) =>
      integerProperties(route.schema?.[part]).map((name) => ({ part, where, name })));
    if (checks.length === 0) return;
    const check = async (request: FastifyRequest) => {
      const details: ErrorDetail[] = [];
      for (const { part, where, name } of checks) {
        const values = (part === 'querystring' ? request.query : request.params) as Record<string, unknown> | undefined;
        if (values && !isDecimal(values[name])) details.push({ in: where, parameter: name, message: INTEGER_RULE });
      }
      if (details.length > 0) {
        const first = details[0]!;
        throw invalidRequest(`Invalid ${first.in === 'query' ? 'query' : 'path'} parameter ${first.parameter}: ${INTEGER_RULE}.`, details);
      }
    };
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [check] : [...(Array.isArray(existing) ? existing : [existing]), check];
  });
}
