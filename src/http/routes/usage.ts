/** GET /usage and GET /v1/usage: the calling key's plan, quota, used and remaining this month, and reset time. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { monthOf } from '../../keys/periods.js';
import { TAGS } from '../plugins/openapi.js';
import { errorResponses, IdentifierError, NoQuery, V1Error } from '../schemas/common.js';
import { Envelope } from '../schemas/identifier.js';
import { UsageRecord } from '../schemas/usage.js';

function usageOf(request: FastifyRequest): Static<typeof UsageRecord> {
  const { key, limits } = request.apiKey!;
  return {
    key_id: key.id, key_prefix: key.prefix, plan: key.limits.name, monthly_quota: limits.monthly.quota,
    per_second: limits.perSecond.quota, used: limits.used, remaining: limits.monthly.remaining,
    period: monthOf(new Date(limits.monthly.resetsAt.getTime() - 1)), resets_at: limits.monthly.resetsAt.toISOString(),
  };
}

const description = 'This request is counted too. Not cached: the numbers change with every request.';

export async function usageRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get('/usage', {
    schema: {
      operationId: 'usage', tags: [TAGS.account], summary: 'Your key\'s plan and this month\'s usage', description,
      querystring: NoQuery,
      response: { 200: Envelope(UsageRecord, 'Plan and usage of the calling key.'), ...errorResponses(IdentifierError) },
    },
  }, async (request) => ({ statusCode: 200 as const, data: usageOf(request), metadata: { correlationId: request.id } }));

  typed.get('/v1/usage', {
    schema: {
      operationId: 'v1Usage', tags: [TAGS.account], summary: 'Your key\'s plan and this month\'s usage (data: a one-element array)', description,
      querystring: NoQuery,
      response: {
        200: Type.Object({ status: Type.Literal('success'), data: Type.Array(UsageRecord) }, { additionalProperties: false, description: 'Plan and usage of the calling key.' }),
        ...errorResponses(V1Error),
      },
    },
  }, async (request) => ({ status: 'success' as const, data: [usageOf(request)] }));
}
