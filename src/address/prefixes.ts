/**
 * Whether some key starts with a text: the question the resolver asks of every span it reads ("can a longer span
 * still match?"). Kept as the sorted 32-bit hashes (FNV-1a over UTF-16 code units) of every prefix of every key, so
 * that a question costs one pass over the text and a probe of a table of integers. A binary search over the sorted
 * keys themselves compared long Khmer strings and was about 6% of an address's time.
 *
 * Two texts can share a hash (with 200,000 prefixes, about 1 question in 20,000): the answer is then "yes" where the
 * keys say no, and the resolver reads a longer span than it needed to, which finds nothing more (a longer name's
 * prefixes are all in the set); for Latin words it may look for typos in a few spans fewer. Tests compare the two.
 *
 * Made from about 300,000 characters of keys: some 50 ms of CPU while the code is still cold at start, so
 * `npm run build` saves the hashes (./snapshot.ts) with a digest of the keys they were made from; a start
 * uses them when the digest of its own keys is the same, and makes them otherwise.
 */
import { createHash } from 'node:crypto';
import { typedToBase64, uint32FromBase64 } from '../lib/snapshot-file.js';

/** The resolver's sets (see AddressResolver), by the names the build's snapshot saves them under. */
export const PREFIX_SET_NAMES = ['khmer', 'khmerWhole', 'key', 'loose'] as const;
export type PrefixSetName = (typeof PREFIX_SET_NAMES)[number];

/** Hashes saved by the build (base64 of the sorted Uint32Array), with the digest of the keys they were made from. */
export interface SavedPrefixes {
  digest: string;
  hashes: string;
}

export class PrefixSet {
  /** Sorted, for saving; asked through `table`. */
  private readonly hashes: Uint32Array;
  /**
   * The hashes again in an open-addressing table (linear probing, at most about 60% full, 0 for an empty slot): one
   * or two reads per question where a binary search over the sorted hashes made about 15 (a few per cent of an
   * address's time). `zero`: whether the hash 0 is in the set.
   */
  private readonly table: Uint32Array;
  private readonly mask: number;
  /** 32 - log2 of the table's size: a slot is the top bits of the mixed hash. */
  private readonly shift: number;
  private readonly zero: boolean;
  private readonly empty: boolean;
  /** SHA-256 of the keys, in order: what `saved()` hashes belong to. */
  readonly digest: string;

  /**
   * From the keys, or from `saved` hashes when they were made from the same keys. `whole`: only the keys themselves,
   * not their shorter prefixes (a set that answers "is this text a key?": a "no" is certain, a "yes" is to be checked).
   */
  constructor(keys: readonly string[], saved?: SavedPrefixes, { whole = false } = {}) {
    this.digest = createHash('sha256').update(`${whole ? 'whole' : 'prefixes'}\n${keys.join('\n')}`).digest('hex');
    this.empty = keys.length === 0 || keys.every((key) => key.length === 0);
    let hashes: Uint32Array | undefined;
    try {
      if (saved?.digest === this.digest) hashes = uint32FromBase64(saved.hashes);
    } catch {
      // Not what saved() writes: made again below.
    }
    this.hashes = hashes ?? PrefixSet.make(keys, whole);
    let bits = 4;
    while ((1 << bits) * 0.6 < this.hashes.length) bits++;
    this.table = new Uint32Array(1 << bits);
    this.mask = (1 << bits) - 1;
    this.shift = 32 - bits;
    let zero = false;
    for (const h of this.hashes) {
      if (h === 0) {
        zero = true;
        continue;
      }
      let i = slot(h, this.shift);
      while (this.table[i] !== 0) i = (i + 1) & this.mask;
      this.table[i] = h;
    }
    this.zero = zero;
  }

  /** The hashes and the digest of their keys, for the build's snapshot. */
  saved(): SavedPrefixes {
    return { digest: this.digest, hashes: typedToBase64(this.hashes) };
  }

  private static make(list: readonly string[], whole: boolean): Uint32Array {
    let total = 0;
    for (const key of list) total += whole ? 1 : key.length;
    // Written straight into a typed array: hashes above 2^31 pushed to a JS array would each be a heap number.
    const all = new Uint32Array(total);
    let at = 0;
    for (const key of list) {
      let h = PrefixSet.START;
      for (let i = 0; i < key.length; i++) {
        h = PrefixSet.step(h, key.charCodeAt(i));
        if (!whole) all[at++] = h;
      }
      if (whole) all[at++] = h;
    }
    const sorted = radixSort(all);
    let n = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
    return sorted.slice(0, n);
  }

  /** The hash of the empty text; then step() for each UTF-16 code unit (a text can be hashed as it is read). */
  static readonly START = 0x811c9dc5;
  static step(hash: number, code: number): number {
    return Math.imul(hash ^ code, 0x01000193) >>> 0;
  }

  /** Whether some key starts with `prefix` (every key starts with the empty text). */
  has(prefix: string): boolean {
    if (prefix.length === 0) return !this.empty;
    let h = PrefixSet.START;
    for (let i = 0; i < prefix.length; i++) h = PrefixSet.step(h, prefix.charCodeAt(i));
    return this.hasHash(h);
  }

  /** has() for a non-empty text hashed with START and step(). */
  hasHash(h: number): boolean {
    if (h === 0) return this.zero;
    const { table, mask } = this;
    for (let i = slot(h, this.shift); ; i = (i + 1) & mask) {
      const found = table[i]!;
      if (found === h) return true;
      if (found === 0) return false;
    }
  }
}

/** Where a hash's probe starts: the top bits of the hash times 2^32 / golden ratio (Fibonacci hashing). */
const slot = (h: number, shift: number) => Math.imul(h, 0x9e3779b1) >>> shift;

/** Sorts 32-bit integers in two passes of 16 bits (TypedArray.prototype.sort took 30 ms for 300,000 at start). */
function radixSort(values: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  let from = values;
  let to = new Uint32Array(values.length);
  for (let shift = 0; shift < 32; shift += 16) {
    const counts = new Uint32Array(65_537);
    for (let i = 0; i < from.length; i++) counts[((from[i]! >>> shift) & 0xffff) + 1]!++;
    for (let b = 1; b < counts.length; b++) counts[b]! += counts[b - 1]!;
    for (let i = 0; i < from.length; i++) to[counts[(from[i]! >>> shift) & 0xffff]!++] = from[i]!;
    [from, to] = [to, from];
  }
  return from;
}

