/**
 * One error model for every route, in the envelope of the shape the URL belongs to:
 *   identifier-based: { statusCode, error: { code, message, details? }, metadata: { correlationId } }
 *   code-based (/v1): { status: 'error', error: { code, message, details? } }
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreUnavailable } from '../keys/store.js';
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import type { Level, Unit } from '../gazetteer/types.js';
import type { ErrorCode } from './schemas/common.js';

/** A unit that replaced a retired code, as a 410 body lists it. */
export interface SuccessorRef {
  code: string;
  id: string;
  level: Level;
  name_en: string;
  name_km: string;
  href: string;
}

export interface ErrorDetail {
  in: 'path' | 'query' | 'header' | 'body';
  parameter: string;
  message: string;
}

/** An error the API means to return: a status, a stable code and a message safe to show. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly successors?: SuccessorRef[],
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new ApiError(404, 'not_found', message);
/** 410 for a retired code, listing the units that replaced it. */
export function gone(gazetteer: Gazetteer, code: string, asked: string): ApiError {
  const successors = gazetteer.successorsOf(code).map((c) => gazetteer.byCode(c)!).map((u) => ({
    code: u.code, id: u.id, level: u.level, name_en: u.name_latin, name_km: u.name_km, href: u.href,
  }));
  const retired = gazetteer.retired(code);
  const name = retired ? ` (${retired.name_latin})` : '';
  return new ApiError(410, 'gone', `${asked}${name} no longer exists; it was replaced by ${successors.map((s) => s.code).join(', ')}. ` +
    `See GET /v1/units/${code}/history.`, undefined, successors);
}

/**
 * The current unit of this level with this code; a retired code is a 410 with its successors, anything else a 404.
 * Every code-based route finds its unit through this.
 */
export function unitByCode(gazetteer: Gazetteer, code: string, level: Level): Unit {
  const unit = gazetteer.byCode(code);
  if (unit && unit.level === level) return unit;
  if (!unit && gazetteer.isRetired(code)) throw gone(gazetteer, code, `The ${level} with code ${code}`);
  throw notFound(`No ${level} has code ${code}.`);
}

/** The current unit of this level with this id; the id of a retired unit is a 410, anything else a 404. */
export function unitById(gazetteer: Gazetteer, id: string, level: Level): Unit {
  const unit = gazetteer.byId(id);
  if (unit && unit.level === level) return unit;
  const retired = unit ? undefined : gazetteer.retiredCodeOfId(id);
  if (retired !== undefined && retired.length === { province: 2, district: 4, commune: 6, village: 8 }[level]) {
    throw gone(gazetteer, retired, `The ${level} with id ${id} (code ${retired})`);
  }
  throw notFound(`No ${level} has id ${id}.`);
}

export const invalidRequest = (message: string, details?: ErrorDetail[]) => new ApiError(400, 'invalid_request', message, details);

/** Whether a path belongs to the code-based shape. */
export function isV1(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v1?');
}

/**
 * The path that decides a request's shape: the matched route's pattern, else the decoded path without any
 * absolute-form `http://host` prefix. (The raw URL is not enough: `/%761/provinces` is routed to `/v1/provinces`.)
 */
export function requestPath(request: FastifyRequest): string {
  const route = request.routeOptions?.url;
  if (route) return route;
  const path = request.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, '').split('?', 1)[0]!;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** A path shortened for a message, so that a 5,000-character URL is not echoed back whole. */
export function quotePath(path: string): string {
  return path.length > 120 ? `${path.slice(0, 120)}...` : path;
}

/** What an error response says; an ApiError is one, and hooks pass plain objects (no stack trace to build). */
export interface ErrorInfo {
  statusCode: number;
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  successors?: SuccessorRef[];
}

/** The error body for this request's shape. */
export function errorEnvelope(request: FastifyRequest, error: ErrorInfo) {
  const body = {
    code: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
    ...(error.successors ? { successors: error.successors } : {}),
  };
  return isV1(requestPath(request))
    ? { status: 'error' as const, error: body }
    : { statusCode: error.statusCode, error: body, metadata: { correlationId: request.id } };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ErrorInfo): FastifyReply {
  return reply.code(error.statusCode).send(errorEnvelope(request, error));
}

const CONTEXT: Record<string, ErrorDetail['in']> = { querystring: 'query', params: 'path', headers: 'header', body: 'body' };
const WHERE: Record<ErrorDetail['in'], string> = { query: 'query parameter', path: 'path parameter', header: 'header', body: 'body' };

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Turns one Ajv error into a detail a person can act on. */
function validationDetail(where: ErrorDetail['in'], error: AjvError): ErrorDetail {
  const fromPath = error.instancePath.split('/').filter(Boolean)[0];
  switch (error.keyword) {
    case 'additionalProperties':
      return { in: where, parameter: String(error.params.additionalProperty), message: `unknown ${WHERE[where]}` };
    case 'required':
      return { in: where, parameter: String(error.params.missingProperty), message: 'is required' };
    case 'enum':
      return { in: where, parameter: fromPath ?? '', message: `must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}` };
    case 'pattern': {
      const digits = /^\^\[0-9\]\{(\d+)\}\$$/.exec(String(error.params.pattern));
      return { in: where, parameter: fromPath ?? '', message: digits ? `must be ${digits[1]} digits` : `must match ${String(error.params.pattern)}` };
    }
    case 'format':
      return { in: where, parameter: fromPath ?? '', message: error.params.format === 'uuid' ? 'must be a UUID' : `must be a ${String(error.params.format)}` };
    default:
      return { in: where, parameter: fromPath ?? '', message: error.message ?? 'is invalid' };
  }
}

/** `anyOf` of literals reports one error per branch; a single "must be one of" is clearer. */
function collapseLiteralUnions(errors: AjvError[]): AjvError[] {
  const constErrors = errors.filter((e) => e.keyword === 'const');
  if (constErrors.length === 0) return errors;
  const rest = errors.filter((e) => e.keyword !== 'const' && e.keyword !== 'anyOf');
  const byPath = new Map<string, unknown[]>();
  for (const e of constErrors) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e.params.allowedValue]);
  return [...[...byPath].map(([instancePath, allowedValues]) => ({ keyword: 'enum', instancePath, params: { allowedValues } })), ...rest];
}

/** The key store is down: a 503 the client may retry (Retry-After), not a 500. */
export const STORE_UNAVAILABLE = new ApiError(503, 'service_unavailable', 'The key store is unavailable for a moment; retry shortly.');
export const RETRY_AFTER_SECONDS = 5;

const STATUS_CODES: Record<number, ErrorCode> = {
  403: 'forbidden',
  404: 'not_found',
  410: 'gone',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  431: 'request_header_too_large',
};

/** Maps anything thrown in a request to an ApiError; unknown failures become a bare internal_error. */
export function toApiError(error: FastifyError | ApiError | Error): ApiError {
  if (error instanceof ApiError) return error;
  if (isStoreUnavailable(error)) return STORE_UNAVAILABLE;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const where = CONTEXT[fastifyError.validationContext ?? ''] ?? 'query';
    const details = collapseLiteralUnions(fastifyError.validation as AjvError[]).map((e) => validationDetail(where, e));
    const first = details[0]!;
    return invalidRequest(`Invalid ${WHERE[first.in]} ${first.parameter}: ${first.message}.`, details);
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const code = STATUS_CODES[status];
    return code ? new ApiError(status, code, fastifyError.message) : invalidRequest(fastifyError.message);
  }
  return new ApiError(500, 'internal_error', 'The server failed to answer this request. Quote the correlation id when reporting it.');
}
