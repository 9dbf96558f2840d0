/**
 * What one address may cost the address resolver (./resolve.ts): the work counters the tests bound (addressWork), and the
 * budget of spans, typo spans and mentions (MentionBudget) that keeps a hostile input near the cost of a real address.
 */
import type { MatchHow } from './candidate.js';
import type { Mention, SpanAt } from './reading.js';

const NONE: readonly number[] = [];

/** Work done by the resolver since the process started (tests bound it per input; see test/address/work.test.ts). */
export const addressWork = { spans: 0, mentions: 0, typoSpans: 0, readings: 0, comparisons: 0, pieces: 0 };

/** A name shared by more units than this (Thmei, Kandal, Phum 1) is read through the other names of the address. */
const MANY_NAMESAKES = 48;

/** Of such a name, this many units are kept anyway (so that AMBIGUOUS can say so). */
const NAMESAKES_KEPT = 8;

/** The same text read as names at most this many times (hostile repetitions). */
const SAME_TEXT = 3;

/**
 * Mentions per address, at most: readings try each, so this bounds most of the work. A real address makes under 300
 * (the evaluation set's most is 270, with every namesake of "Phum 1"-like names in it).
 */
export const MAX_MENTIONS = 300;

/**
 * Spans looked up per address, at most (Khmer and Latin): a real address needs under a hundred (the evaluation set's
 * most is 73); past the budget the rest of a hostile input is not read.
 */
const MAX_SPANS = 256;

/** Spans looked up for typos per address, at most (the evaluation set's most is 22). */
const MAX_TYPO_SPANS = 32;

/** Deferred namesakes looked at per address, at most (each list of a name shared by more than MANY_NAMESAKES). */
const MAX_DEFERRED_UNITS = 2000;

/**
 * Bounds the work of one address, so that no input costs much more than a real address: at most MAX_SPANS spans and
 * MAX_TYPO_SPANS typo spans are looked up, a span's text counts at most SAME_TEXT times, at most MAX_MENTIONS
 * mentions are made (readings try each), and a name with many namesakes is first kept for a
 * few of them only; the rest are added afterwards when one of their ancestors is named elsewhere in the address
 * ("Phum 1, Sangkat Tonle Basak" finds the Phum 1 of Tonle Basak among 169).
 */
export class MentionBudget {
  private readonly texts = new Map<string, number>();
  private readonly deferred: { units: readonly number[]; how: MatchHow; span: SpanAt; factor: number }[] = [];
  constructor(private readonly out: Mention[], private readonly parent: Int32Array,
    private readonly mentionOf: (u: number, how: MatchHow, span: SpanAt, factor: number) => Mention,
    private readonly named: { marks: Int32Array; stamp: number }) {}

  private spans = 0;
  private typoSpans = 0;
  private deferredUnits = 0;

  /** Whether one more span may be looked up (MAX_SPANS per address). */
  spanLookup(): boolean {
    if (this.spans >= MAX_SPANS) return false;
    this.spans++;
    addressWork.spans++;
    return true;
  }

  /** Whether one more span may be looked up for typos (MAX_TYPO_SPANS per address). */
  typoLookup(): boolean {
    if (this.typoSpans >= MAX_TYPO_SPANS) return false;
    this.typoSpans++;
    addressWork.typoSpans++;
    return true;
  }

  /** Whether a span with this text may add mentions. */
  span(text: string): boolean {
    const n = this.texts.get(text) ?? 0;
    this.texts.set(text, n + 1);
    return n < SAME_TEXT && this.out.length < MAX_MENTIONS;
  }

  /** The units to add now: all of a short list; of a long one the first few, the others deferred. */
  take(units: readonly number[] | undefined, how: MatchHow, span: SpanAt, factor: number): readonly number[] {
    const room = MAX_MENTIONS - this.out.length;
    if (!units || room <= 0) return NONE;
    if (units.length <= MANY_NAMESAKES) return units.length <= room ? units : units.slice(0, room);
    this.deferred.push({ units, how, span, factor });
    return units.slice(0, Math.min(NAMESAKES_KEPT, room));
  }

  full(): boolean {
    return this.out.length >= MAX_MENTIONS;
  }

  /** Adds the deferred namesakes that have an ancestor among the units mentioned. */
  release(): void {
    if (this.deferred.length === 0) return;
    // The units mentioned so far, marked with a stamp of their own (not those the loop below adds).
    const { named } = this;
    const stamp = ++named.stamp;
    for (const m of this.out) named.marks[m.u] = stamp;
    for (const { units, how, span, factor } of this.deferred) {
      for (let i = NAMESAKES_KEPT; i < units.length && this.out.length < MAX_MENTIONS && this.deferredUnits < MAX_DEFERRED_UNITS; i++) {
        this.deferredUnits++;
        const u = units[i]!;
        for (let a = this.parent[u]!; a >= 0; a = this.parent[a]!) {
          if (named.marks[a] === stamp) {
            this.out.push(this.mentionOf(u, how, span, factor));
            break;
          }
        }
      }
    }
  }
}
