/**
 * `kh-address keys ...` and `kh-address plans ...`: the operator's commands, on the store DATABASE_URL names (the
 * same as the server's).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig } from '../config.js';
import { createKey, rotateKey } from '../keys/issue-keys.js';
import { openStore } from '../keys/open-store.js';
import { parseOrigins } from '../keys/origins.js';
import { dayOf, monthDays, monthOf, nextMonthStart } from '../keys/periods.js';
import { type KeyStore, type Plan, quotaHolderOf, StoreError } from '../keys/store.js';

/** A mistake in the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export const STORE_USAGE = `  kh-address keys create [--plan NAME] [--name LABEL] [--origin ORIGIN]... [--json]
      Make a key (the free plan unless --plan). The key is printed once: store it now.
      With --origin (repeatable, e.g. --origin https://shop.example.com --origin http://localhost:5173): a browser
      key (khp_...), served only to requests from those origins, safe to put in a web page. Without: a secret key.
  kh-address keys origins ID --origin ORIGIN...   Replace a browser key's allowed origins.
  kh-address keys list [--json]
  kh-address keys revoke ID
  kh-address keys rotate ID            New secret, same id, plan and usage; printed once.
  kh-address keys set-plan ID PLAN
  kh-address keys usage ID [--json]    This month's usage against the quota, per day.
  kh-address plans list [--json]
  kh-address plans create NAME --monthly-quota N --per-second N
  kh-address plans update NAME [--monthly-quota N] [--per-second N]
  All use DATABASE_URL, like the server (default sqlite:./var/kh-address.db).`;

const PLAN_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

type Write = (text: string) => void;

function wholeNumber(value: string | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`${flag} must be a whole number of at least ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/** --origin values as a browser key's canonical origins, or a usage error that says what an origin looks like. */
function originList(values: string[]): string[] {
  const parsed = parseOrigins(values);
  if ('problem' in parsed) throw new UsageError(`--origin: ${parsed.problem}`);
  return parsed.origins;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

function args<const T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, positionals: number) {
  const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(`expected ${positionals} argument(s), got ${parsed.positionals.length}`);
  }
  return parsed;
}

async function keysCommand(store: KeyStore, [sub, ...rest]: string[], out: Write): Promise<void> {
  switch (sub) {
    case 'create': {
      const { values } = args(rest, { plan: { type: 'string' }, name: { type: 'string' }, origin: { type: 'string', multiple: true }, json: { type: 'boolean' } }, 0);
      const plan = values.plan ?? 'free';
      const origins = values.origin === undefined ? null : originList(values.origin);
      if (!(await store.getPlan(plan))) throw new UsageError(`no plan named ${plan} (see: kh-address plans list)`);
      const { record, key } = await createKey(store, { plan, name: values.name ?? null, origins });
      out(values.json
        ? JSON.stringify({ id: record.id, key, prefix: record.prefix, plan: record.plan, name: record.name, createdAt: record.createdAt,
          type: origins ? 'browser' : 'secret', allowedOrigins: record.allowedOrigins })
        : origins
          ? `Created browser key ${record.id} on plan ${record.plan}, served only to ${origins.join(', ')}. It may be put in a web page of those origins; it is shown this once:\n\n  ${key}\n`
          : `Created key ${record.id} on plan ${record.plan}. The key is shown this once; store it now:\n\n  ${key}\n`);
      return;
    }
    case 'origins': {
      const { values, positionals: [id] } = args(rest, { origin: { type: 'string', multiple: true } }, 1);
      const origins = originList(values.origin ?? []);
      if (!(await store.setKeyOrigins(id!, origins))) throw new StoreError(`no browser key ${id}`, 'not_found');
      out(`Browser key ${id} is now served to ${origins.join(', ')} (other servers within KEY_CACHE_TTL_MS).`);
      return;
    }
    case 'list': {
      const { values } = args(rest, { json: { type: 'boolean' } }, 0);
      const keys = await store.listKeys();
      if (values.json) return out(JSON.stringify(keys));
      out(keys.length === 0 ? 'No keys. Make one: kh-address keys create' : table([
        ['ID', 'PREFIX', 'NAME', 'PLAN', 'CREATED', 'LAST USED', 'STATUS', 'ORIGINS'],
        ...keys.map((k) => [k.id, k.prefix, k.name ?? '', k.plan, k.createdAt.slice(0, 10), k.lastUsedAt?.slice(0, 16) ?? 'never', k.revokedAt ? 'revoked' : 'active',
          k.allowedOrigins?.join(' ') ?? '(secret key)']),
      ]));
      return;
    }
    case 'revoke': {
      const { positionals: [id] } = args(rest, {}, 1);
      if (!(await store.revokeKey(id!, new Date().toISOString()))) throw new StoreError(`no active key ${id}`, 'not_found');
      out(`Revoked ${id}. Servers refuse it within KEY_CACHE_TTL_MS (default 10 s).`);
      return;
    }
    case 'rotate': {
      const { positionals: [id] } = args(rest, {}, 1);
      const { record, key } = await rotateKey(store, id!);
      out(`Rotated ${record.id}: the old secret stops working within KEY_CACHE_TTL_MS. The new key is shown this once:\n\n  ${key}\n`);
      return;
    }
    case 'set-plan': {
      const { positionals: [id, plan] } = args(rest, {}, 2);
      if (!(await store.setKeyPlan(id!, plan!))) throw new StoreError(`no key ${id}`, 'not_found');
      const owner = (await store.getKey(id!))?.ownerId;
      out(owner ? `Account ${owner} and all its keys (${id} among them) are now on plan ${plan}: they share its quota.` : `Key ${id} is now on plan ${plan}.`);
      return;
    }
    case 'usage': {
      const { values, positionals: [id] } = args(rest, { json: { type: 'boolean' } }, 1);
      const key = await store.getKey(id!);
      if (!key) throw new StoreError(`no key ${id}`, 'not_found');
      const plan = (await store.getPlan(key.plan))!;
      const now = new Date();
      const month = monthOf(now);
      // An account's keys share its quota: `used` is the account's total, `keyUsed` this key's share.
      const holder = quotaHolderOf(key);
      const used = (await store.holderUsage([holder], month)).get(holder) ?? 0;
      const keyUsed = (await store.monthlyUsage([key.id], month)).get(key.id) ?? 0;
      const days = await store.dailyUsage(key.id, monthDays(month).first, dayOf(now));
      const usage = { id: key.id, plan: plan.name, month, quotaScope: key.ownerId ? 'account' : 'key', monthlyQuota: plan.monthlyQuota, used, keyUsed,
        remaining: Math.max(0, plan.monthlyQuota - used), resetsAt: nextMonthStart(now).toISOString(), days };
      out(values.json ? JSON.stringify(usage) : [
        key.ownerId
          ? `${key.id} (${key.prefix}...) of account ${key.ownerId} on plan ${plan.name}: the account used ${used} of ${plan.monthlyQuota} requests in ${month} (this key ${keyUsed}), ${usage.remaining} left; resets ${usage.resetsAt}.`
          : `${key.id} (${key.prefix}...) on plan ${plan.name}: ${used} of ${plan.monthlyQuota} requests in ${month}, ${usage.remaining} left; resets ${usage.resetsAt}.`,
        ...days.map((d) => `  ${d.day}  ${d.count}`),
        '(Counts reach the store about once a second; a running server may hold the last second.)',
      ].join('\n'));
      return;
    }
    default:
      throw new UsageError(sub === undefined ? 'keys needs a subcommand' : `unknown keys subcommand: ${sub}`);
  }
}

function planLimits(values: { 'monthly-quota'?: string; 'per-second'?: string }) {
  return { monthlyQuota: wholeNumber(values['monthly-quota'], '--monthly-quota', 0), perSecond: wholeNumber(values['per-second'], '--per-second', 1) };
}

async function plansCommand(store: KeyStore, [sub, ...rest]: string[], out: Write): Promise<void> {
  const limitOptions = { 'monthly-quota': { type: 'string' }, 'per-second': { type: 'string' } } as const;
  const show = (p: Plan) => `${p.name}: ${p.monthlyQuota} requests a month, ${p.perSecond} a second`;
  switch (sub) {
    case 'list': {
      const { values } = args(rest, { json: { type: 'boolean' } }, 0);
      const plans = await store.listPlans();
      out(values.json ? JSON.stringify(plans) : table([['NAME', 'MONTHLY QUOTA', 'PER SECOND'], ...plans.map((p) => [p.name, String(p.monthlyQuota), String(p.perSecond)])]));
      return;
    }
    case 'create': {
      const { values, positionals: [name] } = args(rest, limitOptions, 1);
      if (!PLAN_NAME.test(name!)) throw new UsageError('a plan name is 1-40 lowercase letters, digits, - or _, starting with a letter or digit');
      const { monthlyQuota, perSecond } = planLimits(values);
      if (monthlyQuota === undefined || perSecond === undefined) throw new UsageError('plans create needs --monthly-quota and --per-second');
      out(`Created plan ${show(await store.createPlan({ name: name!, monthlyQuota, perSecond }))}.`);
      return;
    }
    case 'update': {
      const { values, positionals: [name] } = args(rest, limitOptions, 1);
      const change = planLimits(values);
      if (change.monthlyQuota === undefined && change.perSecond === undefined) throw new UsageError('plans update needs --monthly-quota or --per-second');
      const plan = await store.updatePlan(name!, change);
      if (!plan) throw new StoreError(`no plan named ${name}`, 'not_found');
      out(`Updated plan ${show(plan)}. Servers apply it within KEY_CACHE_TTL_MS.`);
      return;
    }
    default:
      throw new UsageError(sub === undefined ? 'plans needs a subcommand' : `unknown plans subcommand: ${sub}`);
  }
}

/** Runs `keys ...` or `plans ...` against the configured store, closing it after. */
export async function storeCommand(command: 'keys' | 'plans', argv: string[], out: Write, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const store = await openStore(loadConfig(env).databaseUrl);
  try {
    await (command === 'keys' ? keysCommand : plansCommand)(store, argv, out);
  } finally {
    await store.close();
  }
}
