/** Calendar periods in UTC: quotas reset at the start of each month, usage is kept per day. */

/** `YYYY-MM-DD` of a moment, UTC. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** `YYYY-MM` of a moment, UTC. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** The first moment of the next month, UTC: when the monthly quota resets. */
export function nextMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** Whole seconds from `at` until the quota resets (at least 1). */
export function secondsToNextMonth(at: Date): number {
  return Math.max(1, Math.ceil((nextMonthStart(at).getTime() - at.getTime()) / 1000));
}

/** Length of the month of `at`, in seconds: the window of the monthly policy. */
export function monthSeconds(at: Date): number {
  const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
  return (nextMonthStart(at).getTime() - start) / 1000;
}

/** The first and last day (`YYYY-MM-DD`) of the month `YYYY-MM`. */
export function monthDays(month: string): { first: string; last: string } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return { first: `${month}-01`, last: dayOf(new Date(Date.UTC(year, m, 0))) };
}

/** Everything the quota needs to know about "now", to the second. */
export interface PeriodFacts {
  day: string;
  month: string;
  /** Seconds until the quota resets, and the length of this month, in seconds. */
  resetSeconds: number;
  windowSeconds: number;
  resetsAt: Date;
}

/**
 * The period facts of a moment, computed once per second and reused: formatting dates on every request cost a
 * tenth of the server's time (measured with --cpu-prof).
 */
export class PeriodClock {
  private second = Number.NaN;
  private facts: PeriodFacts | undefined;

  at(ms: number): PeriodFacts {
    const second = Math.floor(ms / 1000);
    if (second !== this.second || !this.facts) {
      const date = new Date(ms);
      this.second = second;
      // The same day and month keep the same strings: compared with those kept in the meter's maps, one string is
      // then equal to itself at once, not character by character.
      const before = this.facts;
      const day = dayOf(date);
      const month = monthOf(date);
      this.facts = {
        day: before?.day === day ? before.day : day, month: before?.month === month ? before.month : month,
        resetSeconds: secondsToNextMonth(date), windowSeconds: monthSeconds(date), resetsAt: nextMonthStart(date),
      };
    }
    return this.facts;
  }
}
