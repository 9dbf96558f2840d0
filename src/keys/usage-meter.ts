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

/**
 * Counts by period (a day or a month): the period counted last in two fields, any other in a map made only when a
 * second period appears (across midnight, or a month's turn before the last month's counts are written). A request
 * then adds to a field, with no Map lookup.
 */
class PeriodCounts {
  period = '';
  count = 0;
  others: Map<string, number> | undefined;

  get(period: string): number {
    return period === this.period ? this.count : this.others?.get(period) ?? 0;
  }

  /** Adds `n` (> 0) to `period` and returns its new count. */
  add(period: string, n: number): number {
    if (period === this.period) return (this.count += n);
    // Another period becomes the current one; the current one's count, if any, moves to the map.
    const others = this.others;
    const before = others?.get(period) ?? 0;
    if (this.count > 0) (this.others ??= new Map()).set(this.period, this.count);
    if (before > 0) others!.delete(period);
    if (this.others?.size === 0) this.others = undefined;
    this.period = period;
    return (this.count = before + n);
  }

  /** Takes `n` off `period` (never below zero). */
  subtract(period: string, n: number): void {
    if (period === this.period) {
      this.count = Math.max(0, this.count - n);
      return;
    }
    const left = (this.others?.get(period) ?? 0) - n;
    if (left > 0) this.others!.set(period, left);
    else if (this.others?.delete(period) && this.others.size === 0) this.others = undefined;
  }

  get empty(): boolean {
    return this.count === 0 && this.others === undefined;
  }

  /** Every period with a count, and the count. */
  *entries(): Generator<[string, number]> {
    if (this.count > 0) yield [this.period, this.count];
    if (this.others) yield* this.others;
  }
}

/** One key's requests not yet handed to the store, by day, its quota holder and when it was last used. */
class Tally extends PeriodCounts {
  constructor(public holderId: string, public lastUsed: number) {
    super();
  }
}

/**
 * One quota holder's standing: the store's monthly total (all its keys, all replicas) as last read, and the requests
 * counted here and not yet confirmed stored (pending plus the batch being written), by month.
 */
class Ledger {
  /** The month of `storedTotal`; undefined while the store's total is not known (not loaded, or forgotten idle). */
  storedMonth: string | undefined;
  storedTotal = 0;
  /** When a request of the holder last needed the stored total (idle holders are forgotten). */
  seenAt = 0;
  readonly unconfirmed = new PeriodCounts();
}

/** See UsageMeter.standing(). */
export interface HolderStanding {
  month: string;
  /** Whether the store's total of this month is known (else used() would need the store: load()). */
  loaded: boolean;
  storedTotal: number;
  /** Counted here this month and not yet confirmed stored. */
  unconfirmed: number;
  /** The holder's ledger, as kept (undefined: none yet). */
  ledger: Ledger | undefined;
}

export interface MeterStats {
  flushes: number;
  failures: number;
  lastFlushMs: number;
  /** When the last successful flush ended (epoch ms), 0 before the first. */
  lastSuccessAt: number;
}

export class UsageMeter {
  // A request looks up its quota holder's ledger and its key's tally, one Map lookup each, and adds to fields of
  // theirs: the day and month strings come from the meter's clock (the same strings while the day is), so the
  // comparisons are of a string with itself.

  /** keyId -> its requests not yet handed to the store (with its holder and last use). */
  private pending = new Map<string, Tally>();
  /** The batch being written, if any: still this process's to report. */
  private writing: Map<string, Tally> | undefined;
  private readonly clock = new PeriodClock();
  /** holder -> its stored total and unconfirmed counts (see Ledger). */
  private readonly ledgers = new Map<string, Ledger>();
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
    const known = this.ledgers.get(keyId);
    if (known?.storedMonth === month) {
      known.seenAt = Date.now();
      return;
    }
    let loading = this.loading.get(keyId);
    if (!loading) {
      loading = this.store.holderUsage([keyId], month).then((totals) => {
        const ledger = this.ledgerOf(keyId);
        ledger.storedMonth = month;
        ledger.storedTotal = totals.get(keyId) ?? 0;
        ledger.seenAt = Date.now();
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
  used(keyId: string, { month }: { month: string } = this.period()): number {
    const ledger = this.ledgers.get(keyId);
    if (ledger === undefined) return 0;
    return (ledger.storedMonth === month ? ledger.storedTotal : 0) + ledger.unconfirmed.get(month);
  }

  /** The holder's ledger, made if it has none. */
  private ledgerOf(holderId: string): Ledger {
    let ledger = this.ledgers.get(holderId);
    if (ledger === undefined) this.ledgers.set(holderId, (ledger = new Ledger()));
    return ledger;
  }

  /** Counts one request of `keyId` on `day`. */
  private tally(keyId: string, holderId: string, day: string, nowMs: number): void {
    let tally = this.pending.get(keyId);
    if (tally === undefined) this.pending.set(keyId, (tally = new Tally(holderId, nowMs)));
    else {
      tally.holderId = holderId;
      tally.lastUsed = nowMs;
    }
    tally.add(day, 1);
  }

  /**
   * A holder's standing in the period `at` (the meter's facts of now), looked up once for one admission: whether its
   * stored total is loaded, what is used, and what countWith() needs to count without looking it up again. Valid
   * until the next await (a flush changes it).
   */
  standing(holderId: string, at: PeriodFacts): HolderStanding {
    const { month } = at;
    const ledger = this.ledgers.get(holderId);
    if (ledger === undefined) return { month, loaded: false, storedTotal: 0, unconfirmed: 0, ledger };
    const loaded = ledger.storedMonth === month;
    return { month, loaded, storedTotal: loaded ? ledger.storedTotal : 0, unconfirmed: ledger.unconfirmed.get(month), ledger };
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
    this.tally(keyId, holderId, day, nowMs);
    const unconfirmed = (standing.ledger ?? this.ledgerOf(holderId)).unconfirmed.add(month, 1);
    // The clock is read only when the block is used up (each Date.now() is a call into the runtime).
    if (!this.flushing && unconfirmed >= Math.max(1, Math.ceil((monthlyQuota - standing.storedTotal) * EARLY_FLUSH_SHARE))
      && Date.now() - this.lastFailureAt > FAILURE_BACKOFF_MS) void this.flush().catch(() => undefined);
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
    this.tally(keyId, holderId, day, nowMs);
    const ledger = this.ledgerOf(holderId);
    const unconfirmed = ledger.unconfirmed.add(month, 1);
    if (monthlyQuota !== undefined && !this.flushing && Date.now() - this.lastFailureAt > FAILURE_BACKOFF_MS) {
      const remaining = monthlyQuota - (ledger.storedMonth === month ? ledger.storedTotal : 0);
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
      for (const [day, count] of batch?.get(keyId)?.entries() ?? []) if (day.startsWith(month)) n += count;
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
    for (const tally of this.pending.values()) for (const [, count] of tally.entries()) n += count;
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
    this.pending = new Map();
    const increments: UsageIncrement[] = [];
    const lastUsedIso = new Map<string, string>();
    const batchHolders = new Set<string>();
    for (const [keyId, tally] of batch) {
      for (const [day, count] of tally.entries()) increments.push({ keyId, day, count });
      batchHolders.add(tally.holderId);
    }
    // From the meter's clock: the same string as the periods requests read (compared at once, not char by char).
    const { month } = this.clock.at(this.nowMs());
    const idleSince = Date.now() - IDLE_MS;
    const active: string[] = [];
    for (const [holderId, ledger] of this.ledgers) {
      if (ledger.storedMonth === undefined || batchHolders.has(holderId)) continue;
      if (ledger.seenAt >= idleSince) active.push(holderId);
      else {
        // An idle holder's stored total is forgotten (read again when it comes back).
        ledger.storedMonth = undefined;
        if (ledger.unconfirmed.empty) this.ledgers.delete(holderId);
      }
    }
    active.push(...batchHolders);
    if (increments.length === 0 && active.length === 0) return;
    const started = performance.now();
    let totals: Map<string, number>;
    try {
      for (const [keyId, tally] of batch) lastUsedIso.set(keyId, new Date(tally.lastUsed).toISOString());
      this.writing = batch;
      totals = await this.store.recordUsage(increments, lastUsedIso, month, active);
    } catch (error) {
      this.writing = undefined;
      // Nothing is lost: the batch is added back to whatever was counted meanwhile (whose holder and last use are
      // the newer).
      for (const [keyId, tally] of batch) {
        const now = this.pending.get(keyId);
        if (now === undefined) this.pending.set(keyId, tally);
        else for (const [day, count] of tally.entries()) now.add(day, count);
      }
      this.stats.failures++;
      this.consecutiveFailures++;
      this.lastFailureAt = Date.now();
      this.options.onError?.(error);
      throw error;
    }
    this.writing = undefined;
    for (const [, tally] of batch) {
      const ledger = this.ledgers.get(tally.holderId);
      if (ledger) for (const [day, count] of tally.entries()) ledger.unconfirmed.subtract(day.slice(0, 7), count);
    }
    const now = Date.now();
    for (const holderId of active) {
      const ledger = this.ledgerOf(holderId);
      const known = ledger.storedMonth !== undefined;
      ledger.storedMonth = month;
      ledger.storedTotal = totals.get(holderId) ?? 0;
      if (batchHolders.has(holderId) || !known) ledger.seenAt = now;
    }
    this.stats.flushes++;
    this.consecutiveFailures = 0;
    this.stats.lastFlushMs = performance.now() - started;
    this.stats.lastSuccessAt = now;
  }
}
