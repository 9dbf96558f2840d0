/**
 * The address resolver's working types (./resolve.ts): a mention (a unit a span of the input names, and how), the span
 * it was read from, and a reading (a unit as the answer, with the mentions of its chain).
 */
import type { Level } from '../gazetteer/types.js';
import type { MatchHow } from './candidate.js';

export interface Mention {
  u: number;
  /** Span in the working text; -1 for a postal code pseudo-mention (overlaps nothing). */
  start: number;
  end: number;
  how: MatchHow;
  hint: Level | null;
  weight: number;
  /** Name characters explained (for coverage). */
  chars: number;
  /** For coverage: Khmer run index and normalised span, or Latin word range. */
  khmer?: { run: number; from: number; to: number };
  latin?: { from: number; to: number };
  /**
   * The span follows two unit words (ភូមិ និងឃុំស្វាយចេក, Khum-Srok Takhmao, ក្រុង/ខេត្តព្រះសីហនុ): one name written
   * once for two levels, so a reading may use it for a unit and for its ancestor (see overlaps).
   */
  twice: boolean;
}

/** A span of the input that names units: where it is, the unit words around it, and what it weighs. */
export interface SpanAt {
  start: number;
  end: number;
  /** The level the unit word before the span (or an English one after it) announces. */
  hint: Level | null;
  /** Unit words in a row (ក្រុង/ខេត្តព្រះសីហនុ): the level the first announces, taken for a unit of that level. */
  other: Level | null;
  /** Those two joined by a sign or "and": the name is written for both (see Mention.twice). */
  twice: boolean;
  /** Before the match's base weight (see AddressResolver.mention). */
  weight: number;
  chars: number;
  khmer: Mention['khmer'];
  latin: Mention['latin'];
}

export interface Reading {
  top: Mention;
  mentions: Mention[];
  /** Former parents used: [unit, its former parent]. */
  former: [number, number][];
  postal: 'agrees' | 'disagrees' | 'none';
  score: number;
  /**
   * Children of `top` that one span of the input fits equally (see aboutTheParent), and that span: the children said in
   * an AMBIGUOUS warning, the span counted as read (it names them), in no matched span (it names none of them alone).
   * Always present (undefined for most), so that every reading has the same shape.
   */
  tied: { units: readonly number[]; span: Mention } | undefined;
}
