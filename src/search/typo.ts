/** Typo tolerance: a deletion-neighbourhood index (as in SymSpell) with a bounded Damerau-Levenshtein check. */

/** Edits allowed in a word of this length: one from 5 letters, two from 9. */
export function typoBudget(length: number): number {
  return length >= 9 ? 2 : length >= 5 ? 1 : 0;
}

/** Optimal string alignment distance (substitution, insertion, deletion, adjacent transposition), capped at max+1. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  // Three rows of the table, in one scratch array reused by every call (rows rotate by offset: no allocation).
  if (scratch.length < 3 * width) scratch = new Int32Array(3 * width * 2);
  const rows = scratch;
  let beforePrev = 0;
  let prev = width;
  let cur = 2 * width;
  for (let j = 0; j <= b.length; j++) rows[prev + j] = j;
  for (let i = 1; i <= a.length; i++) {
    rows[cur] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ai === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(rows[prev + j]! + 1, rows[cur + j - 1]! + 1, rows[prev + j - 1]! + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, rows[beforePrev + j - 2]! + 1);
      rows[cur + j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    const oldest = beforePrev;
    beforePrev = prev;
    prev = cur;
    cur = oldest;
  }
  return Math.min(rows[prev + b.length]!, max + 1);
}

/** editDistance's table rows (grown when a longer word comes). */
let scratch = new Int32Array(3 * 64);

/** Every string reachable from `word` by deleting up to `depth` letters (the word itself included). */
export function deletions(word: string, depth: number): Set<string> {
  const out = new Set([word]);
  let frontier = [word];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const w of frontier) {
      for (let i = 0; i < w.length; i++) {
        const shorter = w.slice(0, i) + w.slice(i + 1);
        if (!out.has(shorter)) {
          out.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return out;
}

/** Deletions made by `TypoIndex.near` since the process started: the work typo matching costs (tests bound it). */
export const typoWork = { deletions: 0 };

/** 32-bit FNV-1a hash of a string's UTF-16 code units. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The first position in an ascending array whose value is at least `value`. */
function lowerBound(sorted: Uint32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Words of a vocabulary within the typo budget of a query word. Each word is indexed by its deletions up to the
 * budget its own length would allow a query of similar length, so lookups are a few binary searches.
 *
 * A deletion is kept as its 32-bit hash, in a sorted typed array, not as a string in a Map: for the 130,000
 * deletions of the gazetteer's words that is about 1 MB of heap instead of 11 MB. Two deletions may share a hash;
 * that only adds a candidate, and every candidate is checked with editDistance.
 */
export class TypoIndex {
  /** Length of the longest indexed word: a query word longer than this plus its budget can match none. */
  readonly longest: number;

  /**
   * `words`: the indexed words; `hashes`: the hash of every deletion of every word, ascending, and `wordAt` the
   * position in `words` of the word it comes from (as `TypoIndex.of` builds them); `maxDepth` caps the edits indexed
   * (and so the memory) below what the budget would allow.
   */
  constructor(readonly words: readonly string[], readonly hashes: Uint32Array, readonly wordAt: Int32Array, readonly maxDepth: number) {
    let longest = 0;
    for (const word of words) if (word.length > longest) longest = word.length;
    this.longest = longest;
  }

  /** Indexes a vocabulary. */
  static of(vocabulary: Iterable<string>, maxDepth = 2): TypoIndex {
    const words: string[] = [];
    const hashes: number[] = [];
    const wordAt: number[] = [];
    for (const word of vocabulary) {
      // A word of length L can be the target of a query of length L+2 at most (two insertions).
      const depth = Math.min(typoBudget(word.length + 2), maxDepth);
      if (depth === 0) continue;
      for (const deleted of deletions(word, depth)) {
        hashes.push(hash32(deleted));
        wordAt.push(words.length);
      }
      words.push(word);
    }
    const order = new Int32Array(hashes.length).map((_, i) => i).sort((a, b) => hashes[a]! - hashes[b]! || wordAt[a]! - wordAt[b]!);
    return new TypoIndex(words, Uint32Array.from(order, (i) => hashes[i]!), Int32Array.from(order, (i) => wordAt[i]!), maxDepth);
  }

  /**
   * Vocabulary words within the query word's budget, the word itself excluded. A word longer than the longest
   * indexed word plus the budget is within no word's reach and is not looked at: the deletions of a word of length L
   * number about L²/2, so without this bound a 700-letter word (a query of 200 characters that each fold to several
   * letters, e.g. ﬃ or ㎉) cost seconds. With it, at most (longest + 2)²/2 deletions are made.
   */
  near(word: string): string[] {
    const budget = Math.min(typoBudget(word.length), this.maxDepth);
    if (budget === 0 || word.length - budget > this.longest) return [];
    const found = new Set<string>();
    const neighbourhood = deletions(word, budget);
    typoWork.deletions += neighbourhood.size;
    for (const deleted of neighbourhood) {
      const hash = hash32(deleted);
      for (let i = lowerBound(this.hashes, hash); i < this.hashes.length && this.hashes[i] === hash; i++) {
        const candidate = this.words[this.wordAt[i]!]!;
        if (candidate !== word && !found.has(candidate) && editDistance(word, candidate, budget) <= budget) found.add(candidate);
      }
    }
    return [...found];
  }
}
