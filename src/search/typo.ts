/** Typo tolerance: a deletion-neighbourhood index (as in SymSpell) with a bounded Damerau-Levenshtein check. */

/** Edits allowed in a word of this length: one from 5 letters, two from 9. */
export function typoBudget(length: number): number {
  return length >= 9 ? 2 : length >= 5 ? 1 : 0;
}

/** Optimal string alignment distance (substitution, insertion, deletion, adjacent transposition), capped at max+1. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = [new Array<number>(b.length + 1), new Array<number>(b.length + 1), new Array<number>(b.length + 1)];
  for (let j = 0; j <= b.length; j++) rows[1]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    const [beforePrev, prev, cur] = [rows[0]!, rows[1]!, rows[2]!];
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, beforePrev[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    rows.push(rows.shift()!);
  }
  return Math.min(rows[1]![b.length]!, max + 1);
}

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

/**
 * Words of a vocabulary within the typo budget of a query word. Each word is indexed by its deletions up to the
 * budget its own length would allow a query of similar length, so lookups are a few map gets.
 */
export class TypoIndex {
  /** Deletion -> the word, or words, it comes from (a bare string for the usual single word: less memory). */
  private readonly byDeletion = new Map<string, string | string[]>();

  /** `maxDepth` caps the edits indexed (and so the memory) below what the budget would allow. */
  constructor(vocabulary: Iterable<string>, private readonly maxDepth = 2) {
    for (const word of vocabulary) {
      // A word of length L can be the target of a query of length L+2 at most (two insertions).
      const depth = Math.min(typoBudget(word.length + 2), maxDepth);
      if (depth === 0) continue;
      for (const deleted of deletions(word, depth)) {
        const found = this.byDeletion.get(deleted);
        if (found === undefined) this.byDeletion.set(deleted, word);
        else if (typeof found === 'string') this.byDeletion.set(deleted, [found, word]);
        else found.push(word);
      }
    }
  }

  /** Vocabulary words within the query word's budget, the word itself excluded. */
  near(word: string): string[] {
    const budget = Math.min(typoBudget(word.length), this.maxDepth);
    if (budget === 0) return [];
    const found = new Set<string>();
    for (const deleted of deletions(word, budget)) {
      const entry = this.byDeletion.get(deleted);
      if (entry === undefined) continue;
      for (const candidate of typeof entry === 'string' ? [entry] : entry) {
        if (candidate !== word && !found.has(candidate) && editDistance(word, candidate, budget) <= budget) found.add(candidate);
      }
    }
    return [...found];
  }
}
