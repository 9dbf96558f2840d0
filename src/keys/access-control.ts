/**
 * Admission of a request by its API key: the key's form (checksum, no store lookup), the key itself (cached), the
 * monthly quota, then the per-second limit, both those of the key's quota holder (its account: see quotaHolderOf).
 * Every admitted request is counted; refused ones are not.
 *
 * Hot path: once a key is cached and its monthly total known, admission is synchronous and allocates little (no
 * hashing, no date formatting: measured as a quarter of the server's time before).
 */
import { hashKey, isWellFormedKey } from './key-format.js';
import { PeriodClock } from './periods.js';
import { RateLimiter } from './rate-limiter.js';
import { type KeyStore, type KeyWithPlan, quotaHolderOf, StoreUnavailableError } from './store.js';
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
  | { outcome: 'origin_not_allowed'; key: KeyWithPlan; origin: string | undefined }
  | { outcome: 'quota_exceeded' | 'rate_limited'; key: KeyWithPlan; limits: LimitState; retryAfter: number }
  | { outcome: 'admitted'; key: KeyWithPlan; limits: LimitState };

export interface AccessControlOptions {
  /** How long a key (or its absence) is trusted without asking the store: revocations elsewhere take this long. */
  keyCacheTtlMs: number;
  /**
   * While the store is unreachable, how long after the store last confirmed it a cached key keeps working (its last
   * known record is served). Default 10 minutes; 0: a key the store cannot confirm is refused (503) after the TTL.
   */
  keyStaleMs?: number;
  /** After a failed lookup, how long the last known record is served before the store is asked again. Default 1 s. */
  storeRetryMs?: number;
  /** Most keys (known and unknown) kept in the cache. */
  keyCacheSize?: number;
  now?: () => Date;
}

/** The origin of a request, asked only for browser keys (computing it costs a header parse). */
export type OriginOf = () => string | undefined;

/**
 * What a connection last presented (see AccessControl.admit): a request on a kept-alive connection that sends the same
 * key as the one before compares the two strings instead of hashing the key to look it up. Valid only while the
 * cache's `version` is the same (every change of the cache, a forgotten key included, bumps it).
 */
export interface KeyMemo {
  secret: string;
  entry: CachedKey;
  version: number;
}

const MISSING: Admission = { outcome: 'missing' };
const INVALID: Admission = { outcome: 'invalid' };

/** A browser key's refusal when the request's origin is not one of its origins; undefined when it is. */
function checkOrigin(key: KeyWithPlan, originOf: OriginOf | undefined): Admission | undefined {
  const origin = originOf?.();
  if (origin !== undefined && key.allowedOrigins!.includes(origin)) return undefined;
  return { outcome: 'origin_not_allowed', key, origin };
}

export interface CachedKey {
  key: KeyWithPlan | undefined;
  /** Until when (epoch ms) the entry is used without asking the store. */
  expires: number;
  /** When the store last confirmed it (epoch ms): a stale entry may be served until this plus keyStaleMs. */
  confirmedAt: number;
}

export class AccessControl {
  /**
   * Keys by their secret (in this process's memory only, which already holds every request's key): a cache hit
   * needs no hashing. The store itself keeps hashes only.
   */
  private readonly cache = new Map<string, CachedKey>();
  /** Lookups under way, by secret: however many requests wait for one uncached key, the store is asked once. */
  private readonly lookups = new Map<string, Promise<KeyWithPlan | undefined>>();
  /** Bumped by forgetKey: a lookup that started before must not put back what was just forgotten. */
  private generation = 0;
  /** Bumped by every change of the cache (an entry put, replaced or forgotten): connections' KeyMemos end. */
  private version = 0;
  private readonly limiter = new RateLimiter();
  private readonly clock = new PeriodClock();
  private admittedSincePrune = 0;

  constructor(
    private readonly store: KeyStore,
    readonly meter: UsageMeter,
    private readonly options: AccessControlOptions,
  ) {}

  /**
   * Forgets the cached secrets of one key, so that its revocation, rotation or plan change made in this process
   * applies here at once (other replicas: within KEY_CACHE_TTL_MS). Every other key stays cached.
   */
  forgetKey(keyId: string): void {
    this.generation++;
    this.version++;
    for (const [secret, entry] of this.cache) if (entry.key?.id === keyId) this.cache.delete(secret);
  }

  /** Forgets every cached key (an operator's change to a plan, which many keys share). */
  forgetCachedKeys(): void {
    this.generation++;
    this.version++;
    this.cache.clear();
  }

  /** How many store lookups are under way (tests: one per uncached key, whatever the number of requests). */
  get lookupsInFlight(): number {
    return this.lookups.size;
  }

  private remember(secret: string, key: KeyWithPlan | undefined): void {
    const now = Date.now();
    this.version++;
    this.cache.delete(secret);
    this.cache.set(secret, { key, expires: now + this.options.keyCacheTtlMs, confirmedAt: now });
    // Oldest first out: many made-up keys cannot grow the cache without bound.
    if (this.cache.size > (this.options.keyCacheSize ?? 50_000)) this.cache.delete(this.cache.keys().next().value!);
  }

  /** The key from the store, one lookup per secret at a time; cached unless forgotten meanwhile. */
  private lookUp(secret: string): Promise<KeyWithPlan | undefined> {
    let lookup = this.lookups.get(secret);
    if (!lookup) {
      const generation = this.generation;
      lookup = this.store.findKeyByHash(hashKey(secret)).then((found) => {
        const key = found && found.revokedAt === null ? found : undefined;
        if (generation === this.generation) this.remember(secret, key);
        return key;
      }).finally(() => this.lookups.delete(secret));
      this.lookups.set(secret, lookup);
    }
    return lookup;
  }

  /**
   * The key, from the store; if the store cannot answer, the last known record while it is recent enough (asked
   * again after storeRetryMs), else a StoreUnavailableError (503). Any store failure is one: never a 500.
   */
  private async fetchKey(secret: string): Promise<KeyWithPlan | undefined> {
    try {
      return await this.lookUp(secret);
    } catch (error) {
      const last = this.cache.get(secret);
      const now = Date.now();
      if (last && now - last.confirmedAt <= (this.options.keyStaleMs ?? 600_000)) {
        this.version++;
        last.expires = now + (this.options.storeRetryMs ?? 1000);
        return last.key;
      }
      throw new StoreUnavailableError(error);
    }
  }

  /**
   * Decides on a request's x-api-key header: synchronously when the key is cached and its usage known. A browser
   * key is admitted only when `originOf()` (the request's Origin, or its Referer's) is one of the key's origins; a
   * refusal is not counted. `memo`: the request's connection's (see KeyMemo), read and kept up to date here.
   */
  admit(header: string | string[] | undefined, originOf?: OriginOf, memo?: Partial<KeyMemo>): Admission | Promise<Admission> {
    if (header === undefined || header === '') return MISSING;
    if (typeof header !== 'string') return INVALID;
    // Only well-formed keys are cached, so a hit needs no checksum (a hash) either.
    let cached: CachedKey | undefined;
    if (memo !== undefined && memo.version === this.version && memo.secret === header) cached = memo.entry;
    else {
      cached = this.cache.get(header);
      if (memo !== undefined && cached !== undefined) {
        memo.secret = header;
        memo.entry = cached;
        memo.version = this.version;
      }
    }
    // The time, read once for the whole admission (the cache, the meter's period, the limiter, the count).
    const now = Date.now();
    if (cached && cached.expires > now) {
      if (!cached.key) return INVALID;
      const usagePeriod = this.meter.period(now);
      if (cached.key.allowedOrigins !== null) {
        const refused = checkOrigin(cached.key, originOf);
        if (refused) return refused;
      }
      const standing = this.meter.standing(quotaHolderOf(cached.key), usagePeriod);
      if (standing.loaded) return this.decide(cached.key, usagePeriod, true, now, standing);
      return this.admitSlowly(header, cached.key, originOf);
    }
    if (!isWellFormedKey(header)) return INVALID;
    return this.admitSlowly(header, undefined, originOf);
  }

  private async admitSlowly(secret: string, known: KeyWithPlan | undefined, originOf: OriginOf | undefined): Promise<Admission> {
    const key = known ?? (await this.fetchKey(secret));
    if (!key) return INVALID;
    if (key.allowedOrigins !== null) {
      const refused = checkOrigin(key, originOf);
      if (refused) return refused;
    }
    try {
      await this.meter.load(quotaHolderOf(key));
    } catch (error) {
      throw new StoreUnavailableError(error);
    }
    return this.decide(key);
  }

  /**
   * A bulk request (e.g. POST /v1/reverse) counts one request per item: the admitted request counted the first, this
   * counts `extra` more if the monthly quota allows all of them, else none (false). Synchronous: check and count
   * happen with no await between, so concurrent bulk requests cannot together overrun the quota.
   */
  admitMore(key: KeyWithPlan, extra: number): boolean {
    if (extra <= 0) return true;
    const quota = key.limits.monthlyQuota;
    const holder = quotaHolderOf(key);
    if (this.meter.used(holder) + extra > quota) return false;
    for (let i = 0; i < extra; i++) this.meter.countFor(key.id, holder, quota);
    return true;
  }

  /**
   * `usagePeriod`: the meter's moment (its clock may be another in tests), read once per request; `standing`: the
   * quota holder's in it, if the caller has read it (no await since). Synchronous except
   * when this process has used its block of the holder's quota (see UsageMeter.blockUsedOf): then it first waits for a
   * write, which brings the other replicas' counts, and decides again; if the write fails (the store is down), it
   * decides on what it knows (`blocks: false`), as known keys keep working during an outage.
   */
  private decide(key: KeyWithPlan, usagePeriod = this.meter.period(), blocks = true, realNow = Date.now(),
    standing = this.meter.standing(quotaHolderOf(key), usagePeriod)): Admission | Promise<Admission> {
    // An account's keys share its plan's quota and per-second limit; an operator's key without an account has its own.
    const holder = quotaHolderOf(key);
    const used = this.meter.usedOf(standing);
    const { monthlyQuota, perSecond } = key.limits;
    if (blocks && used < monthlyQuota && this.meter.blockUsedOf(standing, monthlyQuota)) {
      // Each write lets at least one more request through (a block is never empty): this ends.
      return this.meter.sync().then((synced) => this.decide(key, this.meter.period(), synced));
    }
    const nowMs = this.options.now?.().getTime() ?? realNow;
    const period = this.clock.at(nowMs);
    const monthly = {
      quota: monthlyQuota, remaining: Math.max(0, monthlyQuota - used), resetSeconds: period.resetSeconds,
      windowSeconds: period.windowSeconds, resetsAt: period.resetsAt,
    };
    if (used >= monthlyQuota) {
      const limits = { monthly, perSecond: { quota: perSecond, remaining: 0, resetSeconds: 1 }, used };
      return { outcome: 'quota_exceeded', key, limits, retryAfter: period.resetSeconds };
    }
    const rate = this.limiter.take(holder, perSecond, nowMs);
    const rateState = { quota: perSecond, remaining: rate.remaining, resetSeconds: rate.resetSeconds };
    if (!rate.allowed) return { outcome: 'rate_limited', key, limits: { monthly, perSecond: rateState, used }, retryAfter: rate.resetSeconds };

    this.meter.countWith(key.id, holder, standing, monthlyQuota, this.meter.timeAt(realNow));
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
    const holder = quotaHolderOf(key);
    const used = this.meter.used(holder, usagePeriod);
    const { monthlyQuota, perSecond } = key.limits;
    const monthly = {
      quota: monthlyQuota, remaining: Math.max(0, monthlyQuota - used), resetSeconds: period.resetSeconds,
      windowSeconds: period.windowSeconds, resetsAt: period.resetsAt,
    };
    const perSecondState = { quota: perSecond, remaining: 0, resetSeconds: 1 };
    if (used + extra > monthlyQuota) return { ok: false, limits: { monthly, perSecond: perSecondState, used }, retryAfter: period.resetSeconds };
    for (let i = 0; i < extra; i++) this.meter.countFor(key.id, holder, monthlyQuota);
    monthly.remaining -= extra;
    return { ok: true, limits: { monthly, perSecond: perSecondState, used: used + extra } };
  }
}
