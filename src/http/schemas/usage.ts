import { Type } from './type.js';

/** The calling key's plan and this month's usage. */
export const UsageRecord = Type.Object({
  key_id: Type.String({ description: 'The key\'s public id.' }),
  key_prefix: Type.String({ description: 'The first characters of the key (not secret).' }),
  plan: Type.String(),
  monthly_quota: Type.Integer({ minimum: 0, description: 'Requests allowed per calendar month (UTC).' }),
  per_second: Type.Integer({ minimum: 1, description: 'Requests allowed per second (per server process).' }),
  quota_scope: Type.Union([Type.Literal('account'), Type.Literal('key')], {
    description: '`account`: the quota and per-second limit are the account\'s, shared by all its keys (dashboard keys); '
      + '`key`: this key\'s own (a key the operator made without an account).',
  }),
  used: Type.Integer({ minimum: 0, description: 'Requests counted this month against the quota, this one included: all the account\'s keys together (revoked ones too) when `quota_scope` is `account`.' }),
  key_used: Type.Integer({ minimum: 0, description: 'This key\'s share of `used` (equal to it when `quota_scope` is `key`).' }),
  remaining: Type.Integer({ minimum: 0 }),
  period: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$', description: 'The month counted, UTC.', examples: ['2026-11'] }),
  resets_at: Type.String({ format: 'date-time', description: 'When the quota resets: the first moment of next month, UTC.' }),
}, { additionalProperties: false });
