/**
 * Admission of a request by its API key: the key's form (checksum, no store lookup), the key itself (cached), the
 * monthly quota, then the per-second limit. Every admitted request is counted; refused ones are not.
 *
 * Hot path: once a key is cached and its monthly total known, admission is synchronous and allocates little (no
 * hashing, no date formatting: measured as a quarter of the server's time before).
 */
import { hashKey, isWellFormedKey } from './key-format.js';
import { PeriodClock } from './periods.js';
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

const MISSING: Admission = { outcome: 'missing' };
const INVALID: Admission = { outcome: 'invalid' };

export class AccessControl {
  /**
   * Keys by their secret (in this process's memory only, which already holds every request's key): a cache hit
   * needs no hashing. The store itself keeps hashes only.
   */
  private readonly cache = new Map<string, { key: KeyWithPlan | undefined; expires: number }>();
  private readonly limiter = new RateLimiter();
  private readonly clock = new PeriodClock();
  private admittedSincePrune = 0;

  constructor(
    private readonly store: KeyStore,
    readonly meter: UsageMeter,
    private readonly options: AccessControlOptions,
  ) {}

  /** Forget cached keys, so a revocation or plan change made in this process applies at once. */
  forgetCachedKeys(): void {
    this.cache.clear();
  }

  private async fetchKey(secret: string): Promise<KeyWithPlan | undefined> {
    const found = await this.store.findKeyByHash(hashKey(secret));
    const key = found && found.revokedAt === null ? found : undefined;
    this.cache.delete(secret);
    this.cache.set(secret, { key, expires: Date.now() + this.options.keyCacheTtlMs });
    // Oldest first out: many made-up keys cannot grow the cache without bound.
    if (this.cache.size > (this.options.keyCacheSize ?? 50_000)) this.cache.delete(this.cache.keys().next().value!);
    return key;
  }

  /** Decides on a request's x-api-key header: synchronously when the key is cached and its usage known. */
  admit(header: string | string[] | undefined): Admission | Promise<Admission> {
    if (header === undefined || header === '') return MISSING;
    if (typeof header !== 'string') return INVALID;
    // Only well-formed keys are cached, so a hit needs no checksum (a hash) either.
    const cached = this.cache.get(header);
    if (cached && cached.expires > Date.now()) {
      if (!cached.key) return INVALID;
      const usagePeriod = this.meter.period();
      if (this.meter.isLoaded(cached.key.id, usagePeriod)) return this.decide(cached.key, usagePeriod);
      return this.admitSlowly(header, cached.key);
    }
    if (!isWellFormedKey(header)) return INVALID;
    return this.admitSlowly(header, undefined);
  }

  private async admitSlowly(secret: string, known: KeyWithPlan | undefined): Promise<Admission> {
    const key = known ?? (await this.fetchKey(secret));
    if (!key) return INVALID;
    await this.meter.load(key.id);
    return this.decide(key);
  }

  /** `usagePeriod`: the meter's moment (its clock may be another in tests), read once per request. */
  private decide(key: KeyWithPlan, usagePeriod = this.meter.period()): Admission {
    const nowMs = this.options.now?.().getTime() ?? Date.now();
    const period = this.clock.at(nowMs);
    const used = this.meter.used(key.id, usagePeriod);
    const { monthlyQuota, perSecond } = key.limits;
    const monthly = {
      quota: monthlyQuota, remaining: Math.max(0, monthlyQuota - used), resetSeconds: period.resetSeconds,
      windowSeconds: period.windowSeconds, resetsAt: period.resetsAt,
    };
    if (used >= monthlyQuota) {
      const limits = { monthly, perSecond: { quota: perSecond, remaining: 0, resetSeconds: 1 }, used };
      return { outcome: 'quota_exceeded', key, limits, retryAfter: period.resetSeconds };
    }
    const rate = this.limiter.take(key.id, perSecond, nowMs);
    const rateState = { quota: perSecond, remaining: rate.remaining, resetSeconds: rate.resetSeconds };
    if (!rate.allowed) return { outcome: 'rate_limited', key, limits: { monthly, perSecond: rateState, used }, retryAfter: rate.resetSeconds };

    this.meter.count(key.id, monthlyQuota);
    if (++this.admittedSincePrune >= 10_000) {
      this.admittedSincePrune = 0;
      this.limiter.prune(nowMs);
    }
    monthly.remaining -= 1;
    return { outcome: 'admitted', key, limits: { monthly, perSecond: rateState, used: used + 1 } };
  }

  /**
   * Charges `extra` more requests to a key this request already admitted (a batch counts each of its items against
   * the monthly quota): all or nothing, checked and counted synchronously (no await between), so concurrent batches
   * cannot overrun the quota. The per-second limit counted the request once.
   */
  chargeMore(key: KeyWithPlan, extra: number): { ok: true; limits: LimitState } | { ok: false; limits: LimitState; retryAfter: number } {
    const usagePeriod = this.meter.period();
    const period = this.clock.at(this.options.now?.().getTime() ?? Date.now());
    const used = this.meter.used(key.id, usagePeriod);
    const { monthlyQuota, perSecond } = key.limits;
    const monthly = {
      quota: monthlyQuota, remaining: Math.max(0, monthlyQuota - used), resetSeconds: period.resetSeconds,
      windowSeconds: period.windowSeconds, resetsAt: period.resetsAt,
    };
    const perSecondState = { quota: perSecond, remaining: 0, resetSeconds: 1 };
    if (used + extra > monthlyQuota) return { ok: false, limits: { monthly, perSecond: perSecondState, used }, retryAfter: period.resetSeconds };
    for (let i = 0; i < extra; i++) this.meter.count(key.id, monthlyQuota);
    monthly.remaining -= extra;
    return { ok: true, limits: { monthly, perSecond: perSecondState, used: used + extra } };
  }
}
