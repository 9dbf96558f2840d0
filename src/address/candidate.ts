/**
 * What the address resolver answers (AddressResolver in ./resolve.ts): candidates, each a unit with its chain, how the
 * input's spans matched, warnings and the canonical address; and the checks of the input made before any work.
 */
import type { Level, Unit } from '../gazetteer/types.js';
import { type FormattedAddress, formatAddress } from './format.js';
import type { AddressParts } from './parts.js';

/** Longest address read, in UTF-16 code units; longer input is refused before any work. */
export const MAX_ADDRESS_LENGTH = 500;

/** Most candidates returned per address. */
export const MAX_CANDIDATES = 5;

export type MatchHow = 'exact' | 'alias' | 'variant' | 'typo' | 'former' | 'postal_code';

export const MATCH_HOWS: readonly MatchHow[] = ['exact', 'alias', 'variant', 'typo', 'former', 'postal_code'];

export type WarningCode = 'UNIT_NOT_IN_PARENT' | 'FORMER_PARENT' | 'POSTAL_CODE_MISMATCH' | 'AMBIGUOUS';

export const WARNING_CODES: readonly WarningCode[] = ['UNIT_NOT_IN_PARENT', 'FORMER_PARENT', 'POSTAL_CODE_MISMATCH', 'AMBIGUOUS'];

export interface Warning {
  code: WarningCode;
  message: string;
  message_km: string;
  /** NCDD codes the warning is about (the namesakes, the parent named, the postal code's owner...). */
  codes: string[];
}

export interface MatchedSpan {
  /** The text as written. */
  text: string;
  /** Offsets in the input (after NFC normalisation), end exclusive. */
  start: number;
  end: number;
  code: string;
  level: Level;
  how: MatchHow;
}

export interface Chain {
  province: Unit;
  district: Unit | null;
  commune: Unit | null;
  village: Unit | null;
}

export interface Candidate {
  /** The most specific unit recognised. */
  unit: Unit;
  chain: Chain;
  /** 0-1: see confidence() for how it is computed and the README for its calibration. */
  confidence: number;
  parts: AddressParts;
  unmatched: string[];
  matched: MatchedSpan[];
  warnings: Warning[];
  /** The canonical address in Khmer and in Latin script (made when first read). */
  readonly formatted: FormattedAddress;
  /** Internal: the reading's score (for ranking and tests). */
  score: number;
}

/** A Candidate whose formatted address is made when first read (the CLI never reads it). */
export class ResolvedCandidate implements Candidate {
  #formatted: FormattedAddress | undefined;
  constructor(readonly unit: Unit, readonly chain: Chain, readonly confidence: number, readonly parts: AddressParts,
    readonly unmatched: string[], readonly matched: MatchedSpan[], readonly warnings: Warning[], readonly score: number) {}

  get formatted(): FormattedAddress {
    return (this.#formatted ??= formatAddress(this.chain, this.parts));
  }
}

export interface Resolution {
  /** The input after NFC normalisation (offsets in `matched` refer to it). */
  input: string;
  parts: AddressParts;
  candidates: Candidate[];
}

export class AddressInputError extends Error {
  constructor(readonly reason: 'empty' | 'too_long' | 'no_text', message: string) {
    super(message);
  }
}

/** Checks the input and returns the trimmed text; throws AddressInputError. Costs O(1) for over-long input. */
export function checkAddressInput(raw: string): string {
  if (raw.length > MAX_ADDRESS_LENGTH) {
    throw new AddressInputError('too_long', `must be at most ${MAX_ADDRESS_LENGTH} characters`);
  }
  const text = raw.trim();
  if (!text) throw new AddressInputError('empty', 'must not be blank');
  // Only punctuation, symbols or emoji: nothing an address is made of.
  if (!/[\p{L}\p{N}]/u.test(text)) throw new AddressInputError('no_text', 'must contain letters or digits');
  return text;
}
