/**
 * Admission of a request by its API key: the key's form (checksum, no store lookup), the key itself (cached), the
 * monthly quota, then the per-second limit. Every admitted request is counted; refused ones are not.
 */
import { hashKey, isWellFormedKey } from './key-format.js';
import { monthSeconds, nextMonthStart, secondsToNextMonth } from './periods.js';
import { RateLimiter } from './rate-limiter.js';
import type { KeyStore, KeyWithPlan } from './store.js';
import type { UsageMeter } from './usage-meter.js';

/** The state of a key's limits after this request, for the RateLimit headers and /usage. */
export interface LimitState {
  monthly: { quota: number; remaining: number; resetSeconds: number; windowSeconds: number; resetsAt: Date };
  perSecond: { quota: number; remaining: number; resetSeconds: number };
  used: number;
}

export type Admission =
  | { outcome: 'missing' }
  | { outcome: 'invalid' }
  | { outcome: 'quota_exceeded' | 'rate_limited'; key: KeyWithPlan; limits: LimitState; retryAfter: number }
  | { outcome: 'admitted'; key: KeyWithPlan; limits: LimitState };

export interface AccessControlOptions {
  /** How long a key (or its absence) is trusted without asking the store: revocations elsewhere take this long. */
  keyCacheTtlMs: number;
  /** Most keys (known and unknown) kept in the cache. */
  keyCacheSize?: number;
  now?: () => Date;
}

export class AccessControl {
  private readonly cache = new Map<string, { key: KeyWithPlan | undefined; expires: number }>();
  private readonly limiter = new RateLimiter();
  private admittedSincePrune = 0;

  constructor(
    private readonly store: KeyStore,
    readonly meter: UsageMeter,
    private readonly options: AccessControlOptions,
  ) {}

  /** Finds a key by its secret, through the cache; undefined for unknown and revoked keys. */
  private async lookup(secret: string): Promise<KeyWithPlan | undefined> {
    const hash = hashKey(secret);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expires > now) return cached.key;
    const found = await this.store.findKeyByHash(hash);
    const key = found && found.revokedAt === null ? found : undefined;
    this.cache.delete(hash);
    this.cache.set(hash, { key, expires: now + this.options.keyCacheTtlMs });
    // Oldest first out: many made-up keys cannot grow the cache without bound.
    if (this.cache.size > (this.options.keyCacheSize ?? 50_000)) this.cache.delete(this.cache.keys().next().value!);
    return key;
  }

  /** Forget cached keys, so a revocation or plan change made in this process applies at once. */
  forgetCachedKeys(): void {
    this.cache.clear();
  }

  async admit(header: string | string[] | undefined): Promise<Admission> {
    if (header === undefined || header === '') return { outcome: 'missing' };
    if (typeof header !== 'string' || !isWellFormedKey(header)) return { outcome: 'invalid' };
    const key = await this.lookup(header);
    if (!key) return { outcome: 'invalid' };
    await this.meter.load(key.id);

    const now = this.options.now?.() ?? new Date();
    const used = this.meter.used(key.id);
    const monthly = {
      quota: key.limits.monthlyQuota,
      remaining: Math.max(0, key.limits.monthlyQuota - used),
      resetSeconds: secondsToNextMonth(now),
      windowSeconds: monthSeconds(now),
      resetsAt: nextMonthStart(now),
    };
    if (used >= key.limits.monthlyQuota) {
      const limits = { monthly, perSecond: { quota: key.limits.perSecond, remaining: 0, resetSeconds: 1 }, used };
      return { outcome: 'quota_exceeded', key, limits, retryAfter: monthly.resetSeconds };
    }
    const rate = this.limiter.take(key.id, key.limits.perSecond, now.getTime());
    const perSecond = { quota: key.limits.perSecond, remaining: rate.remaining, resetSeconds: rate.resetSeconds };
    if (!rate.allowed) return { outcome: 'rate_limited', key, limits: { monthly, perSecond, used }, retryAfter: rate.resetSeconds };

    this.meter.count(key.id, key.limits.monthlyQuota);
    if (++this.admittedSincePrune >= 10_000) {
      this.admittedSincePrune = 0;
      this.limiter.prune(now.getTime());
    }
    return { outcome: 'admitted', key, limits: { monthly: { ...monthly, remaining: monthly.remaining - 1 }, perSecond, used: used + 1 } };
  }
}
