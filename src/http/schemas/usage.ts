import { Type } from 'typebox';

/** The calling key's plan and this month's usage. */
export const UsageRecord = Type.Object({
  key_id: Type.String({ description: 'The key\'s public id.' }),
  key_prefix: Type.String({ description: 'The first characters of the key (not secret).' }),
  plan: Type.String(),
  monthly_quota: Type.Integer({ minimum: 0, description: 'Requests allowed per calendar month (UTC).' }),
  per_second: Type.Integer({ minimum: 1, description: 'Requests allowed per second (per server process).' }),
  used: Type.Integer({ minimum: 0, description: 'Requests counted this month, this one included.' }),
  remaining: Type.Integer({ minimum: 0 }),
  period: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$', description: 'The month counted, UTC.', examples: ['2026-11'] }),
  resets_at: Type.String({ format: 'date-time', description: 'When the quota resets: the first moment of next month, UTC.' }),
}, { additionalProperties: false });
