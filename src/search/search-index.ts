/**
 * The search engine: tables built once (by `npm run build`, read back at start: see snapshot.ts), then every query
 * answered from maps and sorted arrays, never by scanning all names.
 *
 * A query is read one of three ways:
 * - 2 to 6 digits (ASCII or Khmer, spaces ignored): a postal code or its prefix;
 * - with Khmer letters: Khmer names and aliases, normalised (see khmer.ts), matched whole, from the start, or from
 *   any cluster inside the name;
 * - otherwise Latin: folded words (see latin.ts) matched whole, from the start, from a word inside the name, by
 *   romanization key, by alias, or with typos.
 *
 * Results are ranked by how they matched (the tiers below), then by level (province first), then by Latin name,
 * then by code, so the same query always gives the same order.
 */
import type { Unit } from '../gazetteer/types.js';
import { LEVELS } from '../gazetteer/types.js';
import type { Alias } from './aliases.js';
import { clusterStarts, hasKhmer, normaliseKhmer, numberWordAsDigit, stripKhmerUnitWord } from './khmer.js';
import { asciiDigits, compact, latinForms, romanizationKey, wordKeys } from './latin.js';
import { type SortedKeys, SortedKeysBuilder } from './sorted-keys.js';
import { TypoIndex, typoBudget } from './typo.js';

/** How a result matched, as the API reports it. */
export type MatchKind = 'exact' | 'alias' | 'former' | 'postal_code' | 'prefix' | 'contains' | 'variant' | 'typo';

/**
 * Ranking tiers, best first. An exact alias (a whole name people use, e.g. Sihanoukville) ranks right after an exact
 * name; loose alias matches (alias prefix or key) rank after the romanization key, typos last.
 */
const TIERS = [
  { name: 'exact', kind: 'exact' },
  { name: 'alias', kind: 'alias' },
  // A name the unit had before (unit history): exact only.
  { name: 'former', kind: 'former' },
  { name: 'postal-owner', kind: 'postal_code' },
  // A code that no longer exists: its successors, after the unit that owns those digits as a postal code.
  { name: 'former-code', kind: 'former' },
  { name: 'postal', kind: 'postal_code' },
  { name: 'prefix', kind: 'prefix' },
  { name: 'contains', kind: 'contains' },
  { name: 'variant', kind: 'variant' },
  { name: 'variant-prefix', kind: 'variant' },
  { name: 'alias-loose', kind: 'alias' },
  { name: 'typo', kind: 'typo' },
] as const;
type TierName = (typeof TIERS)[number]['name'];
const TIER: Record<TierName, number> = Object.fromEntries(TIERS.map((t, i) => [t.name, i])) as Record<TierName, number>;
const NO_TIER = 255;

/** Sort key: tier in the high bits, the unit's position in (level, name, code) order in the low 15 bits. */
const ORDER_BITS = 15;

export interface SearchHit {
  unit: Unit;
  match: MatchKind;
}

export interface SearchPage {
  total: number;
  hits: SearchHit[];
}

/** Collects the best tier of every unit a query touches. */
class Matches {
  readonly touched: number[] = [];
  constructor(private readonly best: Uint8Array) {}

  add(unit: number, tier: number): void {
    const current = this.best[unit]!;
    if (current === NO_TIER) this.touched.push(unit);
    if (tier < current) this.best[unit] = tier;
  }

  addAll(units: readonly number[] | undefined, tier: number): void {
    if (units) for (const unit of units) this.add(unit, tier);
  }
}

/** One-unit lists, made once per unit and shared by every lookup (read-only, as get() returns them). */
const SINGLE: (readonly number[] | undefined)[] = [];

/** Key -> units; a bare number for the usual single unit (less memory than an array each). */
export class MultiMap {
  constructor(private readonly map = new Map<string, number | number[]>()) {}
  add(key: string, unit: number): void {
    const found = this.map.get(key);
    if (found === undefined) this.map.set(key, unit);
    else if (typeof found === 'number') {
      if (found !== unit) this.map.set(key, [found, unit]);
    } else if (found.at(-1) !== unit) found.push(unit);
  }
  get(key: string): readonly number[] | undefined {
    const found = this.map.get(key);
    return typeof found === 'number' ? (SINGLE[found] ??= [found]) : found;
  }
  keys(): IterableIterator<string> {
    return this.map.keys();
  }
  /** Its entries, for a snapshot (see snapshot.ts). */
  entries(): [string, number | number[]][] {
    return [...this.map];
  }
}

/** A ranked result list, cached so that paging through it does not rank again. */
interface Ranked {
  units: Int32Array;
  tiers: Uint8Array;
}

/**
 * Longest query read, in UTF-16 code units: the API's 200 characters, each possibly outside the BMP. Anything
 * longer is cut here, so that the work of a query is bounded whoever calls the engine.
 */
export const MAX_QUERY_UNITS = 400;

/** Rankings kept for paging (the most recently used). */
const DEFAULT_CACHE_SIZE = 512;

/**
 * Everything a query reads: built from the units and aliases (`buildTables`), or restored from the snapshot that
 * `npm run build` saves (snapshot.ts), which makes a start about 350 ms faster and leaves less garbage behind.
 */
export interface IndexTables {
  /** Position of each unit in (level, folded Latin name, code) order, and its inverse. */
  order: Int32Array;
  byOrder: Int32Array;
  latinExact: MultiMap;
  latinPrefix: SortedKeys;
  latinWordSuffix: SortedKeys;
  keyExact: MultiMap;
  keyPrefix: SortedKeys;
  khmerExact: MultiMap;
  khmerPrefix: SortedKeys;
  khmerInner: SortedKeys;
  aliasExact: MultiMap;
  aliasKey: MultiMap;
  aliasPrefix: SortedKeys;
  /** Former names (normalised like names) and retired codes -> today's units (see aliases.ts formerAliases). */
  formerExact: MultiMap;
  postal: SortedKeys;
  postalOwner: Map<string, number>;
  /** Word -> units having it in a name's core; a unit's word lists, to check typo candidates. */
  wordPostings: MultiMap;
  unitWordLists: string[][][];
  typoWords: TypoIndex;
  /** Compact forms of multi-word names, for a query typed as one word with a typo ("siemreapp"). */
  compactNames: MultiMap;
  typoCompact: TypoIndex;
}

export interface SearchIndexOptions {
  /** How many rankings to keep for paging; 0 ranks every call (benchmarks). */
  cacheSize?: number;
  /** Tables restored from a snapshot of the same units and aliases, used instead of building them. */
  tables?: IndexTables;
}

export class SearchIndex {
  readonly tables: IndexTables;
  private readonly units: readonly Unit[];
  private readonly best: Uint8Array;
  private readonly cache = new Map<string, Ranked>();
  private readonly cacheSize: number;

  constructor(units: readonly Unit[], aliases: readonly Alias[] = [], { cacheSize = DEFAULT_CACHE_SIZE, tables }: SearchIndexOptions = {}) {
    if (units.length >= 1 << ORDER_BITS) throw new Error('too many units for the sort key');
    this.cacheSize = cacheSize;
    this.units = units;
    this.best = new Uint8Array(units.length).fill(NO_TIER);
    this.tables = tables ?? buildTables(units, aliases);
    if (this.tables.order.length !== units.length) throw new Error('search tables are for a different set of units');
  }

  /** One page of the ranked results for a query; `total` counts them all. */
  search(query: string, { offset = 0, limit = 10 }: { offset?: number; limit?: number } = {}): SearchPage {
    const ranked = this.ranked(query.length > MAX_QUERY_UNITS ? query.slice(0, MAX_QUERY_UNITS) : query);
    const hits: SearchHit[] = [];
    for (let i = offset; i < Math.min(offset + limit, ranked.units.length); i++) {
      hits.push({ unit: this.units[ranked.units[i]!]!, match: TIERS[ranked.tiers[i]!]!.kind });
    }
    return { total: ranked.units.length, hits };
  }

  private ranked(query: string): Ranked {
    const cached = this.cache.get(query);
    if (cached) {
      // Refresh its place in the LRU order.
      this.cache.delete(query);
      this.cache.set(query, cached);
      return cached;
    }
    const ranked = this.rank(query);
    if (this.cacheSize === 0) return ranked;
    this.cache.set(query, ranked);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return ranked;
  }

  private rank(query: string): Ranked {
    const matches = new Matches(this.best);
    const digits = asciiDigits(query).replace(/\s+/g, '');
    if (/^\d{2,8}$/.test(digits)) {
      if (digits.length <= 6) this.matchPostal(digits, matches);
      matches.addAll(this.tables.formerExact.get(digits), TIER['former-code']);
    } else if (hasKhmer(query)) this.matchKhmer(query, matches);
    else this.matchLatin(query, matches);

    const keys = new Float64Array(matches.touched.length);
    matches.touched.forEach((u, i) => (keys[i] = this.best[u]! * 2 ** ORDER_BITS + this.tables.order[u]!));
    keys.sort();
    const units = new Int32Array(keys.length);
    const tiers = new Uint8Array(keys.length);
    keys.forEach((key, i) => {
      units[i] = this.tables.byOrder[key % 2 ** ORDER_BITS]!;
      tiers[i] = Math.floor(key / 2 ** ORDER_BITS);
    });
    for (const u of matches.touched) this.best[u] = NO_TIER;
    return { units, tiers };
  }

  /** A whole postal code: its owner first (a province, district or commune), then the villages that carry it. */
  private matchPostal(digits: string, matches: Matches): void {
    const owner = digits.length === 6 ? this.tables.postalOwner.get(digits) : undefined;
    if (owner !== undefined) matches.add(owner, TIER['postal-owner']);
    this.tables.postal.forPrefix(digits, (u) => matches.add(u, TIER.postal));
  }

  private matchKhmer(query: string, matches: Matches): void {
    const normalised = normaliseKhmer(query);
    for (const form of distinct([normalised, stripKhmerUnitWord(normalised)])) {
      matches.addAll(this.tables.khmerExact.get(form), TIER.exact);
      matches.addAll(this.tables.aliasExact.get(form), TIER.alias);
      matches.addAll(this.tables.formerExact.get(form), TIER.former);
      this.tables.khmerPrefix.forPrefix(form, (u) => matches.add(u, TIER.prefix));
      // One letter inside names would match most of them: substrings from two code points.
      if (form.length >= 2) this.tables.khmerInner.forPrefix(form, (u) => matches.add(u, TIER.contains));
      this.tables.aliasPrefix.forPrefix(form, (u) => matches.add(u, TIER['alias-loose']));
    }
  }

  private matchLatin(query: string, matches: Matches): void {
    const { words, core, typed } = latinForms(query);
    if (compact(typed) !== compact(words)) this.tables.latinPrefix.forPrefix(compact(typed), (u) => matches.add(u, TIER.prefix));
    for (const form of distinct([core, words])) {
      const c = compact(form);
      const key = romanizationKey(form);
      matches.addAll(this.tables.latinExact.get(c), TIER.exact);
      matches.addAll(this.tables.aliasExact.get(c), TIER.alias);
      matches.addAll(this.tables.formerExact.get(c), TIER.former);
      this.tables.latinPrefix.forPrefix(c, (u) => matches.add(u, TIER.prefix));
      if (c.length >= 2) this.tables.latinWordSuffix.forPrefix(c, (u) => matches.add(u, TIER.contains));
      // The key merges a lot: only from 3 letters, and as a prefix only from 5.
      if (c.length >= 3) {
        matches.addAll(this.tables.keyExact.get(key), TIER.variant);
        matches.addAll(this.tables.aliasKey.get(key), TIER['alias-loose']);
      }
      if (c.length >= 5) this.tables.keyPrefix.forPrefix(wordKeys(form), (u) => matches.add(u, TIER['variant-prefix']));
      if (c.length >= 4) this.tables.aliasPrefix.forPrefix(c, (u) => matches.add(u, TIER['alias-loose']));
    }
    this.matchTypos(core.length > 0 ? core : words, matches);
  }

  /**
   * Typos: every query word of 5+ letters may differ from the name's word by one edit, 9+ by two; shorter words
   * must be exact; the name must have as many words. A one-word query is also compared with multi-word names
   * written together ("siemreapp").
   */
  private matchTypos(words: readonly string[], matches: Matches): void {
    const options = words.map((w) => [w, ...this.tables.typoWords.near(w)]);
    const fuzzy = options.findIndex((o) => o.length > 1);
    if (fuzzy >= 0) {
      for (const candidateWord of options[fuzzy]!) {
        for (const u of this.tables.wordPostings.get(candidateWord) ?? []) {
          const fits = this.tables.unitWordLists[u]!.some((name) =>
            name.length === words.length && name.every((w, i) => options[i]!.includes(w)));
          if (fits) matches.add(u, TIER.typo);
        }
      }
    }
    if (words.length === 1 && typoBudget(words[0]!.length) > 0) {
      for (const near of this.tables.typoCompact.near(words[0]!)) matches.addAll(this.tables.compactNames.get(near), TIER.typo);
    }
  }
}

/** Builds the tables from the units and aliases: about half a second for the whole gazetteer. */
export function buildTables(units: readonly Unit[], aliases: readonly Alias[] = []): IndexTables {
  const indexOf = new Map(units.map((u, i) => [u.code, i]));

  // About 40% of unit names repeat (9,944 distinct Latin names for 16,465 units): what a name adds to the index is
  // worked out once per distinct name, and units with the same name share its key strings.
  const latinOf = memoize(latinForms);
  const latinKeysOf = memoize(latinKeys);
  const khmerKeysOf = memoize(khmerKeys);
  const latinNames = units.map((u) => latinOf(u.name_latin));
  const sortName = latinNames.map((forms) => compact(forms.words));
  const ordered = units.map((_, i) => i).sort((a, b) => {
    const ua = units[a]!;
    const ub = units[b]!;
    return LEVELS.indexOf(ua.level) - LEVELS.indexOf(ub.level)
      || (sortName[a]! < sortName[b]! ? -1 : sortName[a]! > sortName[b]! ? 1 : 0)
      || (ua.code < ub.code ? -1 : 1);
  });
  const byOrder = Int32Array.from(ordered);
  const order = new Int32Array(units.length);
  ordered.forEach((unit, position) => (order[unit] = position));

  const latinExact = new MultiMap();
  const keyExact = new MultiMap();
  const khmerExact = new MultiMap();
  const wordPostings = new MultiMap();
  const compactNames = new MultiMap();
  const latinPrefix = new SortedKeysBuilder();
  const wordSuffix = new SortedKeysBuilder();
  const keyPrefix = new SortedKeysBuilder();
  const khmerPrefix = new SortedKeysBuilder();
  const khmerInner = new SortedKeysBuilder();
  const unitWordLists: string[][][] = units.map(() => []);

  units.forEach((unit, u) => {
    const ungegn = unit.name_ungegn ? latinOf(unit.name_ungegn) : undefined;
    for (const forms of ungegn ? [latinNames[u]!, ungegn] : [latinNames[u]!]) {
      const keys = latinKeysOf(forms);
      for (const c of keys.exact) {
        latinExact.add(c, u);
        latinPrefix.push(c, u);
      }
      for (const suffix of keys.wordSuffixes) wordSuffix.push(suffix, u);
      for (const key of keys.romanization) keyExact.add(key, u);
      for (const key of keys.romanizationPrefixes) keyPrefix.push(key, u);
      if (keys.typed !== undefined) latinPrefix.push(keys.typed, u);
      unitWordLists[u]!.push(forms.core);
      for (const word of forms.core) wordPostings.add(word, u);
      if (keys.compactCore !== undefined) compactNames.add(keys.compactCore, u);
    }
    const khmer = khmerKeysOf(unit.name_km);
    for (const form of khmer.exact) khmerExact.add(form, u);
    for (const key of khmer.prefixes) khmerPrefix.push(key, u);
    for (const key of khmer.inner) khmerInner.push(key, u);
  });

  const aliasExact = new MultiMap();
  const aliasKey = new MultiMap();
  const aliasPrefix = new SortedKeysBuilder();
  const formerExact = new MultiMap();
  for (const alias of aliases) {
    const targets = alias.codes.map((code) => {
      const u = indexOf.get(code);
      if (u === undefined) throw new Error(`alias ${JSON.stringify(alias.alias)} points at unknown unit ${code}`);
      return u;
    });
    if (alias.former) {
      const forms = /^\d+$/.test(alias.alias) ? [alias.alias] : hasKhmer(alias.alias)
        ? distinct([normaliseKhmer(alias.alias), stripKhmerUnitWord(normaliseKhmer(alias.alias))])
        : distinct([latinForms(alias.alias).words, latinForms(alias.alias).core]).map(compact);
      for (const form of forms) for (const u of targets) formerExact.add(form, u);
      continue;
    }
    const forms = hasKhmer(alias.alias)
      ? distinct([normaliseKhmer(alias.alias), stripKhmerUnitWord(normaliseKhmer(alias.alias))]).map((f) => ({ text: f, key: null }))
      : distinct([latinForms(alias.alias).words, latinForms(alias.alias).core]).map((f) => ({ text: compact(f), key: romanizationKey(f) }));
    for (const { text, key } of forms) {
      for (const u of targets) {
        aliasExact.add(text, u);
        aliasPrefix.push(text, u);
        if (key) aliasKey.add(key, u);
      }
    }
  }

  const postal = new SortedKeysBuilder();
  const postalOwner = new Map<string, number>();
  units.forEach((unit, u) => {
    postal.push(unit.postal_code, u);
    if (unit.level !== 'village') postalOwner.set(unit.postal_code, u);
  });
  return {
    order, byOrder, latinExact, keyExact, khmerExact, aliasExact, aliasKey, formerExact, postalOwner, wordPostings, unitWordLists, compactNames,
    latinPrefix: latinPrefix.build(),
    latinWordSuffix: wordSuffix.build(),
    keyPrefix: keyPrefix.build(),
    khmerPrefix: khmerPrefix.build(),
    khmerInner: khmerInner.build(),
    aliasPrefix: aliasPrefix.build(),
    postal: postal.build(),
    typoWords: TypoIndex.of(wordPostings.keys()),
    typoCompact: TypoIndex.of(compactNames.keys(), 1),
  };
}

/** `fn` with its results remembered by argument (the build's per-name work; never used on queries). */
function memoize<A, R>(fn: (arg: A) => R): (arg: A) => R {
  const results = new Map<A, R>();
  return (arg) => {
    let result = results.get(arg);
    if (result === undefined) results.set(arg, (result = fn(arg)));
    return result;
  };
}

/** The keys one Latin name (its folded forms) adds to the index. */
function latinKeys({ words, core, typed }: ReturnType<typeof latinForms>) {
  const forms = distinct([words, core]);
  return {
    /** Compact forms: matched whole and as prefixes. */
    exact: forms.map(compact),
    /** Compact forms from each word after the first: "contains" matches. */
    wordSuffixes: forms.flatMap((form) => form.slice(1).map((_, i) => compact(form.slice(i + 1)))),
    romanization: forms.map(romanizationKey),
    romanizationPrefixes: forms.map(wordKeys),
    /** The name as typed, when numbers were normalised away from it: also a prefix. */
    typed: compact(typed) !== compact(words) ? compact(typed) : undefined,
    /** A multi-word name as one word, for a query typed without spaces and with a typo. */
    compactCore: core.length > 1 ? compact(core) : undefined,
  };
}

/** The keys one Khmer name adds to the index: whole forms, and the forms from each cluster on. */
function khmerKeys(name: string) {
  const khmer = normaliseKhmer(name);
  const whole = [khmer, stripKhmerUnitWord(khmer)];
  // A number word ending the name also as a digit (ម្លូព្រៃមួយ, written ម្លូព្រៃ១).
  const exact = distinct([...whole, ...whole.map(numberWordAsDigit).filter((f): f is string => f !== null)]);
  const prefixes: string[] = [];
  const inner: string[] = [];
  for (const form of exact) for (const start of clusterStarts(form)) (start === 0 ? prefixes : inner).push(form.slice(start));
  return { exact, prefixes, inner };
}

/** The non-empty forms, each once (word lists compared by their words). */
function distinct<T extends string | readonly string[]>(forms: T[]): T[] {
  const seen = new Set<string>();
  return forms.filter((f) => {
    const key = typeof f === 'string' ? f : f.join(' ');
    if (f.length === 0 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
