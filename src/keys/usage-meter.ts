/**
 * Counts requests per key in memory and writes them to the store in one transaction about once a second (and on
 * shutdown), so a request costs no store write. Enforcement reads `used()` of the key's quota holder (its account,
 * or the key itself when it has none: see quotaHolderOf): the month's total as the store last reported it (all
 * replicas and all the account's keys included) plus what this process counted since.
 *
 * What a crash can lose: the counts of at most one flush interval (those not yet written); a failed write keeps its
 * counts for the next attempt, so a store outage loses nothing while the process lives.
 *
 * Replicas learn each other's counts at their flushes, so a quota can be overrun by what arrives between them. To
 * keep that small, a key that has used a tenth of its remaining quota since the last flush triggers one at once:
 * writes become more frequent as a key nears its limit (about 10 ln(quota) extra flushes a month per key).
 */
import { PeriodClock, type PeriodFacts } from './periods.js';
import type { KeyStore, UsageIncrement } from './store.js';

/** A key unused this long is dropped from the totals refreshed at every flush. */
const IDLE_MS = 10 * 60_000;
/** Share of a key's remaining quota that, counted since the last flush, triggers an early flush. */
const EARLY_FLUSH_SHARE = 0.1;
/** After a failed write, no early flush for this long (the interval timer keeps retrying). */
const FAILURE_BACKOFF_MS = 1000;

/** See UsageMeter.standing(). */
export interface HolderStanding {
  month: string;
  /** Whether the store's total of this month is known (else used() would need the store: load()). */
  loaded: boolean;
  storedTotal: number;
  /** Counted here this month and not yet confirmed stored. */
  unconfirmed: number;
  /** The holder's unconfirmed counts by month, as kept (undefined: none). */
  months: Map<string, number> | undefined;
}

export interface MeterStats {
  flushes: number;
  failures: number;
  lastFlushMs: number;
  /** When the last successful flush ended (epoch ms), 0 before the first. */
  lastSuccessAt: number;
}

export class UsageMeter {
  // Counts are kept in maps of maps, keyId then day or month: a request's lookups then use strings that already exist
  // (the key's id, the clock's day and month), where a `keyId|day` key had to be built and hashed on every request.

  /** keyId -> day -> requests not yet handed to the store. */
  private pending = new Map<string, Map<string, number>>();
  /** keyId -> its quota holder, for the keys in `pending`. */
  private pendingHolders = new Map<string, string>();
  /** The batch being written, if any (keyId -> day -> requests): still this process's to report. */
  private writing: Map<string, Map<string, number>> | undefined;
  /** keyId -> when it was last used (epoch ms), written as an ISO time at the flush. */
  private lastUsed = new Map<string, number>();
  private readonly clock = new PeriodClock();
  /** holder -> month -> requests counted here and not yet confirmed stored (pending plus the batch being written). */
  private readonly unconfirmed = new Map<string, Map<string, number>>();
  /** holder -> the store's monthly total (all its keys) at the last flush. */
  private readonly stored = new Map<string, { month: string; total: number; seenAt: number }>();
  private readonly loading = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  /** Bumped when a write starts and when it ends (usedByKey's consistency check). */
  private writes = 0;
  readonly stats: MeterStats = { flushes: 0, failures: 0, lastFlushMs: 0, lastSuccessAt: 0 };
  private lastFailureAt = 0;

  constructor(
    private readonly store: KeyStore,
    private readonly options: { flushIntervalMs: number; now?: () => Date; onError?: (error: unknown) => void },
  ) {}

  private nowMs(): number {
    return this.options.now?.().getTime() ?? Date.now();
  }

  private consecutiveFailures = 0;

  /**
   * Flushes every interval; after failures, waits twice as long each time (up to 30 s), because a failing write can
   * cost time (a SQLite lock wait blocks the process) and the counts are kept anyway.
   */
  start(): void {
    this.timer ??= setInterval(() => {
      const backoff = Math.min(30_000, this.options.flushIntervalMs * 2 ** this.consecutiveFailures);
      if (this.consecutiveFailures > 0 && Date.now() - this.lastFailureAt < backoff) return;
      void this.flush().catch(() => undefined);
    }, this.options.flushIntervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left; throws if that last write fails. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flushing?.catch(() => undefined);
    await this.flush();
  }

  /**
   * Makes sure the quota holder's stored monthly total is known; only the first request of a holder waits for the
   * store. `keyId`: a key id (a key without an account) or an account id.
   */
  async load(keyId: string): Promise<void> {
    const { month } = this.clock.at(this.nowMs());
    const known = this.stored.get(keyId);
    if (known && known.month === month) {
      known.seenAt = Date.now();
      return;
    }
    let loading = this.loading.get(keyId);
    if (!loading) {
      loading = this.store.holderUsage([keyId], month).then((totals) => {
        this.stored.set(keyId, { month, total: totals.get(keyId) ?? 0, seenAt: Date.now() });
      }).finally(() => this.loading.delete(keyId));
      this.loading.set(keyId, loading);
    }
    await loading;
  }

  /**
   * This meter's time at the moment `realMs` (a Date.now() the caller read): the same, unless the meter was given a
   * clock of its own (tests). The key gate reads the time once per request and passes it in: each Date.now() is a
   * call into the runtime (about 130 instructions, measured with callgrind), and a request made five.
   */
  timeAt(realMs: number): number {
    return this.options.now?.().getTime() ?? realMs;
  }

  /**
   * The period facts of now (or of the moment `realMs`), by this meter's clock: callers that need them too pass them
   * back in (one clock read).
   */
  period(realMs = Date.now()): PeriodFacts {
    return this.clock.at(this.timeAt(realMs));
  }

  /** Requests of this holder counted this month, everywhere the store knows of plus here. Call load() first. */
  used(keyId: string, { month } = this.period()): number {
    const known = this.stored.get(keyId);
    return (known?.month === month ? known.total : 0) + (this.unconfirmed.get(keyId)?.get(month) ?? 0);
  }

  /**
   * A holder's standing in the period `at` (the meter's facts of now), looked up once for one admission: whether its
   * stored total is loaded, what is used, and what countWith() needs to count without looking it up again. Valid
   * until the next await (a flush changes it).
   */
  standing(holderId: string, at: PeriodFacts): HolderStanding {
    const { month } = at;
    const stored = this.stored.get(holderId);
    const loaded = stored !== undefined && stored.month === month;
    const months = this.unconfirmed.get(holderId);
    const unconfirmed = months?.get(month) ?? 0;
    return { month, loaded, storedTotal: loaded ? stored.total : 0, unconfirmed, months };
  }

  /** used() from a standing. */
  usedOf(standing: HolderStanding): number {
    return standing.storedTotal + standing.unconfirmed;
  }

  /**
   * Whether this process has used up its block of the holder's quota: it may admit, between two writes, at most a
   * tenth of what the store last said was left (at least 1). Past that, admission waits for a write (sync()), which
   * also brings the other replicas' counts: so no replica runs ahead of the others by more than a shrinking block,
   * which bounds how far replicas together can overrun a quota (see the README). Never while the store is failing.
   */
  blockUsedOf(standing: HolderStanding, monthlyQuota: number): boolean {
    if (standing.unconfirmed === 0) return false;
    return standing.unconfirmed >= Math.max(1, Math.ceil((monthlyQuota - standing.storedTotal) * EARLY_FLUSH_SHARE))
      && Date.now() - this.lastFailureAt > FAILURE_BACKOFF_MS;
  }

  /**
   * countFor() with the holder's standing of this admission (no await since it was read): the same counts, fewer
   * lookups (the key gate's hot path).
   */
  countWith(keyId: string, holderId: string, standing: HolderStanding, monthlyQuota: number, nowMs: number): void {
    const { day, month } = this.clock.at(nowMs);
    if (month !== standing.month) {
      this.countFor(keyId, holderId, monthlyQuota, nowMs);
      return;
    }
    addTo(this.pending, keyId, day, 1);
    if (holderId !== keyId) this.pendingHolders.set(keyId, holderId);
    let { months } = standing;
    if (months === undefined) this.unconfirmed.set(holderId, (months = new Map()));
    const unconfirmed = standing.unconfirmed + 1;
    months.set(month, unconfirmed);
    this.lastUsed.set(keyId, nowMs);
    if (!this.flushing && Date.now() - this.lastFailureAt > FAILURE_BACKOFF_MS) {
      const remaining = monthlyQuota - standing.storedTotal;
      if (unconfirmed >= Math.max(1, Math.ceil(remaining * EARLY_FLUSH_SHARE))) void this.flush().catch(() => undefined);
    }
  }

  /** Counts one request of a key that is its own quota holder (an operator's key without an account). */
  count(keyId: string, monthlyQuota?: number, nowMs = this.nowMs()): void {
    this.countFor(keyId, keyId, monthlyQuota, nowMs);
  }

  /**
   * Counts one request of the key against its quota holder's total; with the holder's monthly quota, flushes early
   * when the holder nears it (see above).
   */
  countFor(keyId: string, holderId: string, monthlyQuota?: number, nowMs = this.nowMs()): void {
    const { day, month } = this.clock.at(nowMs);
    addTo(this.pending, keyId, day, 1);
    if (holderId !== keyId) this.pendingHolders.set(keyId, holderId);
    const unconfirmed = addTo(this.unconfirmed, holderId, month, 1);
    this.lastUsed.set(keyId, nowMs);
    if (monthlyQuota !== undefined && !this.flushing && Date.now() - this.lastFailureAt > FAILURE_BACKOFF_MS) {
      const stored = this.stored.get(holderId);
      const remaining = monthlyQuota - (stored?.month === month ? stored.total : 0);
      if (unconfirmed >= Math.max(1, Math.ceil(remaining * EARLY_FLUSH_SHARE))) void this.flush().catch(() => undefined);
    }
  }

  /**
   * One key's requests in `month` (`YYYY-MM`): the store's count plus what this process has not written yet. (Its
   * account's total, for the quota, is `used(accountId)`.) Asks the store.
   */
  async usedByKey(keyId: string, month: string): Promise<number> {
    // The store's count and ours must be of the same moment: read while no write is under way, and again if one
    // started or ended meanwhile (its batch would be counted twice, or not at all).
    for (let attempt = 0; ; attempt++) {
      if (this.flushing) await this.flushing.catch(() => undefined);
      if (this.flushing && attempt < 3) continue;
      const writes = this.writes;
      const stored = (await this.store.monthlyUsage([keyId], month)).get(keyId) ?? 0;
      if (writes === this.writes || attempt >= 3) return stored + this.unwrittenOf(keyId, { month });
    }
  }

  /** Requests of one key counted here in `month` and not yet written (its share beyond what the store says). */
  unwrittenOf(keyId: string, { month }: { month: string } = this.period()): number {
    let n = 0;
    for (const batch of [this.pending, this.writing]) {
      for (const [day, count] of batch?.get(keyId) ?? []) if (day.startsWith(month)) n += count;
    }
    return n;
  }

  /** Writes now (or joins the write under way), so that a holder at the end of its block may go on; false if it failed. */
  async sync(): Promise<boolean> {
    try {
      if (this.flushing) await this.flushing;
      else await this.flush();
      return true;
    } catch {
      return false;
    }
  }

  /** Requests counted but not yet written (what a crash now would lose). */
  get unflushed(): number {
    let n = 0;
    for (const days of this.pending.values()) for (const count of days.values()) n += count;
    return n;
  }

  /** Writes the pending counts in one transaction and refreshes the totals of the keys in use. One at a time. */
  flush(): Promise<void> {
    if (!this.flushing) {
      this.writes++;
      this.flushing = this.write().finally(() => {
        this.flushing = undefined;
        this.writes++;
      });
    }
    return this.flushing;
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    const holders = this.pendingHolders;
    const lastUsed = this.lastUsed;
    this.pending = new Map();
    this.pendingHolders = new Map();
    this.lastUsed = new Map();
    const holderOf = (keyId: string) => holders.get(keyId) ?? keyId;
    const increments: UsageIncrement[] = [...batch].flatMap(([keyId, days]) => [...days].map(([day, count]) => ({ keyId, day, count })));
    // From the meter's clock: the same string as the periods requests read (compared at once, not char by char).
    const { month } = this.clock.at(this.nowMs());
    const idleSince = Date.now() - IDLE_MS;
    const batchHolders = new Set([...batch.keys()].map(holderOf));
    for (const [holderId, entry] of this.stored) if (entry.seenAt < idleSince && !batchHolders.has(holderId)) this.stored.delete(holderId);
    const active = [...new Set([...this.stored.keys(), ...batchHolders])];
    if (increments.length === 0 && active.length === 0) return;
    const started = performance.now();
    let totals: Map<string, number>;
    try {
      const lastUsedIso = new Map([...lastUsed].map(([keyId, ms]) => [keyId, new Date(ms).toISOString()]));
      this.writing = batch;
      totals = await this.store.recordUsage(increments, lastUsedIso, month, active);
    } catch (error) {
      this.writing = undefined;
      // Nothing is lost: the batch is added back to whatever was counted meanwhile.
      for (const { keyId, day, count } of increments) addTo(this.pending, keyId, day, count);
      for (const [keyId, holderId] of holders) if (!this.pendingHolders.has(keyId)) this.pendingHolders.set(keyId, holderId);
      for (const [keyId, at] of lastUsed) if (!this.lastUsed.has(keyId)) this.lastUsed.set(keyId, at);
      this.stats.failures++;
      this.consecutiveFailures++;
      this.lastFailureAt = Date.now();
      this.options.onError?.(error);
      throw error;
    }
    this.writing = undefined;
    for (const { keyId, day, count } of increments) {
      const holderId = holderOf(keyId);
      const months = this.unconfirmed.get(holderId);
      if (!months) continue;
      const month = day.slice(0, 7);
      const left = (months.get(month) ?? 0) - count;
      if (left > 0) months.set(month, left);
      else if (months.delete(month) && months.size === 0) this.unconfirmed.delete(holderId);
    }
    const now = Date.now();
    for (const holderId of active) {
      this.stored.set(holderId, { month, total: totals.get(holderId) ?? 0, seenAt: batchHolders.has(holderId) ? now : this.stored.get(holderId)?.seenAt ?? now });
    }
    this.stats.flushes++;
    this.consecutiveFailures = 0;
    this.stats.lastFlushMs = performance.now() - started;
    this.stats.lastSuccessAt = now;
  }
}

/** Adds `n` to `counts[outer][inner]` and returns the new value. */
function addTo(counts: Map<string, Map<string, number>>, outer: string, inner: string, n: number): number {
  let inners = counts.get(outer);
  if (!inners) counts.set(outer, (inners = new Map()));
  const value = (inners.get(inner) ?? 0) + n;
  inners.set(inner, value);
  return value;
}
