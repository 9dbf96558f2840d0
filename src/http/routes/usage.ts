/**
 * GET /usage and GET /v1/usage: the calling key's plan, quota, used and remaining this month, and reset time; for a
 * key of an account, the account's total (its quota) and this key's share.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { Type } from '../schemas/type.js';
import type { AccessControl } from '../../keys/access-control.js';
import { monthOf } from '../../keys/periods.js';
import { TAGS } from '../plugins/openapi.js';
import { errorResponses, IdentifierError, NoQuery, V1Error } from '../schemas/common.js';
import { Envelope } from '../schemas/identifier.js';
import { UsageRecord } from '../schemas/usage.js';

/** The key's plan and usage; for an account's key, the account's total and this key's share (one store read). */
async function usageOf(request: FastifyRequest, access: AccessControl): Promise<Static<typeof UsageRecord>> {
  const { key, limits } = request.apiKey!;
  const period = monthOf(new Date(limits.monthly.resetsAt.getTime() - 1));
  const shared = key.ownerId !== null;
  let keyUsed = limits.used;
  if (shared) keyUsed = Math.min(limits.used, await access.meter.usedByKey(key.id, period));
  return {
    key_id: key.id, key_prefix: key.prefix, plan: key.limits.name, monthly_quota: limits.monthly.quota,
    per_second: limits.perSecond.quota, quota_scope: shared ? 'account' : 'key', used: limits.used, key_used: keyUsed,
    remaining: limits.monthly.remaining, period, resets_at: limits.monthly.resetsAt.toISOString(),
  };
}

const description = 'This request is counted too. Not cached: the numbers change with every request.';

export async function usageRoutes(app: FastifyInstance, { access }: { access: AccessControl }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get('/usage', {
    schema: {
      operationId: 'usage', tags: [TAGS.account], summary: 'Your key\'s plan and this month\'s usage', description,
      querystring: NoQuery,
      response: { 200: Envelope(UsageRecord, 'Plan and usage of the calling key.'), ...errorResponses(IdentifierError) },
    },
  }, async (request) => ({ statusCode: 200 as const, data: await usageOf(request, access), metadata: { correlationId: request.id } }));

  typed.get('/v1/usage', {
    schema: {
      operationId: 'v1Usage', tags: [TAGS.account], summary: 'Your key\'s plan and this month\'s usage (data: a one-element array)', description,
      querystring: NoQuery,
      response: {
        200: Type.Object({ status: Type.Literal('success'), data: Type.Array(UsageRecord) }, { additionalProperties: false, description: 'Plan and usage of the calling key.' }),
        ...errorResponses(V1Error),
      },
    },
  }, async (request) => ({ status: 'success' as const, data: [await usageOf(request, access)] }));
}
