/**
 * How the address resolver orders what it weighs (readings, mentions) and how sure an answer is (confidenceOf): pure
 * numeric helpers, apart from the resolver (./resolve.ts) so that they can be read and tested alone.
 */
import type { WarningCode } from './candidate.js';

/**
 * Indexes of `keys`, highest key first; equal keys by `tie` ascending, or else in index order (stable). A natural
 * merge sort of indexes: the runs already in order (a name's namesakes, with equal weights, come together; readings
 * come roughly in their bounds' order) are found first, then merged pairwise. Array.prototype.sort calling a
 * comparator was a tenth of an address's time (three sorts of about 80). Plain arrays, not typed ones: a typed array
 * of more than 64 bytes has its storage outside the heap, which costs more to make and to collect than these
 * short-lived lists are worth.
 */
export function descending(keys: readonly number[], tie: readonly number[] | null): number[] {
  const n = keys.length;
  let from: number[] = [];
  for (let i = 0; i < n; i++) from.push(i);
  if (n < 2) return from;
  const before = (a: number, b: number) => keys[a]! > keys[b]! || (keys[a] === keys[b] && (tie === null ? a < b : tie[a]! < tie[b]! || (tie[a] === tie[b] && a < b)));
  // Where each run in order starts, and n.
  let runs: number[] = [0];
  for (let i = 1; i < n; i++) if (before(i, i - 1)) runs.push(i);
  runs.push(n);
  let to = from.slice();
  while (runs.length > 2) {
    const merged: number[] = [0];
    for (let r = 0; r + 1 < runs.length; r += 2) {
      const lo = runs[r]!;
      const mid = runs[r + 1]!;
      const hi = r + 2 < runs.length ? runs[r + 2]! : mid;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) to[k++] = before(from[j]!, from[i]!) ? from[j++]! : from[i++]!;
      while (i < mid) to[k++] = from[i++]!;
      while (j < hi) to[k++] = from[j++]!;
      merged.push(hi);
    }
    runs = merged;
    [from, to] = [to, from];
  }
  return from;
}

/** Indexes in a given order, one at a time (see DescendingQueue). */
export class SortedOrder {
  private at = 0;
  constructor(private readonly order: readonly number[]) {}
  next(): number {
    return this.at < this.order.length ? this.order[this.at++]! : -1;
  }
}

/**
 * descending(keys, null)'s order, for a loop that can tell, once it has read the first, which of the others it would
 * pass over: the first, then the others that `keeping()` accepts (made after the first is read), in that order.
 */
export class FirstThenKept {
  private readonly first: number;
  /** The indexes after the first, once it has been taken and the others asked. */
  private rest: number[] | undefined;
  private taken = false;
  private at = 0;
  constructor(private readonly keys: readonly number[], private readonly keeping: () => (index: number) => boolean) {
    let first = -1;
    for (let i = 0; i < keys.length; i++) if (first < 0 || keys[i]! > keys[first]!) first = i;
    this.first = first;
  }

  /** The next index, or -1 when none is left. */
  next(): number {
    if (!this.taken) {
      this.taken = true;
      return this.first;
    }
    if (this.rest === undefined) {
      const keep = this.keeping();
      const kept: number[] = [];
      for (let i = 0; i < this.keys.length; i++) if (i !== this.first && keep(i)) kept.push(i);
      this.rest = descending(kept.map((i) => this.keys[i]!), null).map((k) => kept[k]!);
    }
    return this.at < this.rest.length ? this.rest[this.at++]! : -1;
  }
}

/** A margin (see confidenceOf) this large or larger counts fully. */
export const MARGIN_SATURATES = 0.25;

/**
 * Confidence, 0-1: an estimate of the probability that the candidate is the unit the address means. A raw score
 * from four features:
 * - coverage: the share of the input's name characters the reading explains (unit words, house numbers, streets and
 *   the other recognised parts excluded);
 * - quality: how the names matched (exact 1, alias 0.95, former 0.9, variant 0.9, typo 0.7);
 * - margin: how far ahead of the best reading that is neither its ancestor nor its descendant;
 * - warnings: a contradiction (UNIT_NOT_IN_PARENT, POSTAL_CODE_MISMATCH) lowers it;
 * then calibrated: 1 - (1 - raw)^2, the curve that brought the mean confidence of each band closest to the hit@1
 * observed in it on the evaluation set (see the README, Confidence); finally shared equally among namesakes the input
 * cannot tell apart (AMBIGUOUS: one of n is right about 1/n of the time), and halved below the first candidate.
 * (AddressResolver.resolve also keeps it at or below the candidate before: the candidates are best first.)
 */
export function confidenceOf(f: {
  coverage: number; quality: number; margin: number; rank: number; levels: number; warnings: readonly WarningCode[]; namesakes: number;
}): number {
  let raw = f.quality * (0.3 + 0.7 * f.coverage);
  raw *= 0.45 + 0.55 * Math.min(1, f.margin / MARGIN_SATURATES);
  if (f.levels === 1 && f.coverage < 1) raw *= 0.9;
  if (f.warnings.includes('UNIT_NOT_IN_PARENT') || f.warnings.includes('POSTAL_CODE_MISMATCH')) raw *= 0.8;
  let c = 1 - (1 - Math.max(0, Math.min(1, raw))) ** 2;
  if (f.namesakes > 0) c /= f.namesakes + 1;
  if (f.rank > 0) c *= 0.5;
  return Math.round(c * 100) / 100;
}
