import { createHash } from 'node:crypto';
import { EMPTY_HISTORY, type FormerName, HistoryIndex } from './history.js';
import type { Dataset, History, Level, RetiredCode, Unit, UnitEvent } from './types.js';

/** How many units of each lower level lie under a unit (the spec's total_districts, total_communes, total_villages). */
export interface DescendantCounts {
  districts: number;
  communes: number;
  villages: number;
}

/** The postal codes of a unit and all its descendants. */
export interface PostalSpan {
  /** Leading digits shared by every postal code in the span, e.g. `12` for Phnom Penh. */
  prefix: string;
  low: string;
  high: string;
  /** `<low>-<high>`, as the spec writes it. */
  range: string;
}

interface Entry {
  unit: Unit;
  children: Unit[];
  counts: DescendantCounts;
  low: string;
  high: string;
}

const COUNT_KEY: Partial<Record<Level, keyof DescendantCounts>> = {
  district: 'districts',
  commune: 'communes',
  village: 'villages',
};

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/**
 * The gazetteer in memory: every unit indexed by id, code, postal code and slug path, with children, descendant
 * counts and postal spans computed once at load. Every lookup is a Map get; children are precomputed arrays.
 */
export class Gazetteer {
  readonly version: string;
  readonly units: readonly Unit[];
  private readonly entries = new Map<string, Entry>();
  private readonly codeById = new Map<string, string>();
  private readonly codeByPostal = new Map<string, string>();
  private readonly codeByHref = new Map<string, string>();
  /** `<parent code>/<former slug>` -> code, for the slugs units had before a name repair. */
  private readonly codeByFormerSlug = new Map<string, string>();
  readonly repairs: Dataset['repairs'];
  private readonly provinceList: Unit[] = [];
  private readonly past: HistoryIndex;

  /**
   * `history` is data/history.json; without it the gazetteer knows no past (every history lookup is empty).
   * `historyDigest`: a SHA-256 of the history file's bytes, when it was read from one (see historyDigest()).
   */
  constructor(dataset: Dataset, history: History = EMPTY_HISTORY, { historyDigest }: { historyDigest?: string } = {}) {
    this.digest = historyDigest;
    this.version = dataset.version;
    this.repairs = dataset.repairs ?? [];
    // Ordered by code, so parents come before children and every children list comes out ordered.
    this.units = [...dataset.units].sort((a, b) => a.code.length - b.code.length || (a.code < b.code ? -1 : 1));
    for (const unit of this.units) {
      this.entries.set(unit.code, {
        unit,
        children: [],
        counts: { districts: 0, communes: 0, villages: 0 },
        low: unit.postal_code,
        high: unit.postal_code,
      });
      this.codeById.set(unit.id, unit.code);
      this.codeByHref.set(unit.href, unit.code);
      for (const slug of unit.former_slugs ?? []) this.codeByFormerSlug.set(`${unit.parent_code ?? ''}/${slug}`, unit.code);
      // Villages share their commune's postal code; the code names the commune.
      if (unit.level !== 'village') this.codeByPostal.set(unit.postal_code, unit.code);
      if (unit.parent_code === null) this.provinceList.push(unit);
      else this.entry(unit.parent_code).children.push(unit);
    }
    // Bottom up (villages first): add each unit's counts and postal span to its parent's.
    for (let i = this.units.length - 1; i >= 0; i--) {
      const unit = this.units[i]!;
      if (unit.parent_code === null) continue;
      const own = this.entry(unit.code);
      const parent = this.entry(unit.parent_code);
      const key = COUNT_KEY[unit.level]!;
      parent.counts[key] += 1;
      for (const k of Object.keys(own.counts) as (keyof DescendantCounts)[]) parent.counts[k] += own.counts[k];
      if (own.low < parent.low) parent.low = own.low;
      if (own.high > parent.high) parent.high = own.high;
    }
    this.past = new HistoryIndex(history, (code) => this.byCode(code), (code) => this.ancestors(code).map((u) => u.code), this.units);
  }

  private entry(code: string): Entry {
    const entry = this.entries.get(code);
    if (!entry) throw new Error(`the dataset has no unit ${code}`);
    return entry;
  }

  /** The 25 provinces, ordered by code. */
  provinces(): readonly Unit[] {
    return this.provinceList;
  }

  /** Whether `id`, exactly as written, is the id of a unit of this dataset (ids are lower-case UUIDs). */
  hasId(id: string): boolean {
    return this.codeById.has(id);
  }

  byId(id: string): Unit | undefined {
    // Ids are kept in lower case, as they are almost always asked for (a lower-cased copy would be hashed again).
    const code = this.codeById.get(id) ?? this.codeById.get(id.toLowerCase());
    return code === undefined ? undefined : this.entries.get(code)!.unit;
  }

  byCode(code: string): Unit | undefined {
    return this.entries.get(code)?.unit;
  }

  /** The province, district or commune that owns this 6-digit postal code (villages carry their commune's). */
  byPostalCode(postalCode: string): Unit | undefined {
    const code = this.codeByPostal.get(postalCode);
    return code === undefined ? undefined : this.entries.get(code)!.unit;
  }

  /** Resolves slugs from the province down, e.g. `['phnom-penh', 'chamkar-mon']`. */
  bySlugPath(slugs: readonly string[]): Unit | undefined {
    const code = this.codeByHref.get(`/locations/${slugs.join('/')}`);
    return code === undefined ? undefined : this.entries.get(code)!.unit;
  }

  /**
   * Resolves slugs from the province down, accepting at each level a slug the unit had before a name repair.
   * `canonical` is false when a former slug was used: the caller redirects to the unit's `href`.
   */
  resolveSlugPath(slugs: readonly string[]): { unit: Unit; canonical: boolean } | undefined {
    const exact = this.bySlugPath(slugs);
    if (exact) return { unit: exact, canonical: true };
    if (this.codeByFormerSlug.size === 0 || slugs.length > 4) return undefined;
    let unit: Unit | undefined;
    for (const slug of slugs) {
      const parent = unit?.code ?? '';
      const current = this.codeByHref.get(`${unit ? unit.href : '/locations'}/${slug}`);
      const code = current ?? this.codeByFormerSlug.get(`${parent}/${slug}`);
      if (code === undefined) return undefined;
      unit = this.entries.get(code)!.unit;
    }
    return unit ? { unit, canonical: false } : undefined;
  }

  /** The units one level down, ordered by code; empty for a village or an unknown code. */
  children(code: string): readonly Unit[] {
    return this.entries.get(code)?.children ?? [];
  }

  /** The unit's ancestors from its province down to its parent. */
  ancestors(code: string): Unit[] {
    const result: Unit[] = [];
    for (let parent = this.entries.get(code)?.unit.parent_code ?? null; parent !== null; ) {
      const unit = this.entry(parent).unit;
      result.unshift(unit);
      parent = unit.parent_code;
    }
    return result;
  }

  /** Number of districts, communes and villages under the unit (zero for the levels at or above it). */
  descendantCounts(code: string): DescendantCounts {
    return this.entry(code).counts;
  }

  /** Prefix and range of the postal codes of the unit and its descendants. */
  postalSpan(code: string): PostalSpan {
    const { low, high } = this.entry(code);
    return { prefix: commonPrefix(low, high), low, high, range: `${low}-${high}` };
  }

  // ------------------------------------------------------------------------------------------ history

  /** The events of a unit (current or retired code), with their sources, oldest first. */
  historyOf(code: string): UnitEvent[] {
    return this.past.historyOf(code);
  }

  /** True for a code that no longer exists (it was recoded, split or merged); false for a current or unknown code. */
  isRetired(code: string): boolean {
    return this.past.isRetired(code);
  }

  /** A retired code with its name, successors and the reason for them. */
  retired(code: string): RetiredCode | undefined {
    return this.past.retired(code);
  }

  /** The retired code whose UUID this was, if any (a retired unit's id keeps meaning its code). */
  retiredCodeOfId(id: string): string | undefined {
    return this.past.retiredCodeOfId(id);
  }

  /** Today's codes that replaced a retired code; empty for a current or unknown code. */
  successorsOf(retiredCode: string): string[] {
    return this.past.successorsOf(retiredCode);
  }

  /**
   * A SHA-256 of the unit history this gazetteer was made with: what is derived from the history and saved by the build
   * (the address resolver's former parents, ../address/snapshot.ts) is used only with the same history. Of the file's
   * bytes when the history was read from a file (loadGazetteer: 5 ms); else of the history as JSON, made when first
   * asked (about 30 ms of CPU at start on a 2-core EPYC VM). The two differ for the same history: a digest only ever
   * tells that two histories may differ, and then the build's tables are made again, never used wrongly.
   */
  historyDigest(): string {
    return (this.digest ??= createHash('sha256').update(JSON.stringify(this.past.history)).digest('hex'));
  }

  private digest: string | undefined;

  /** Codes this unit had before (e.g. 121301 was 120102). */
  formerCodesOf(code: string): string[] {
    return this.past.formerCodesOf(code);
  }

  /**
   * Codes of units that were this unit's parent (or a higher ancestor) before a reform, nearest level first:
   * a sangkat now in Khan Boeng Keng Kang (1213) was in Khan Chamkar Mon (1201).
   */
  formerParentsOf(code: string): string[] {
    return this.past.formerParentsOf(code);
  }

  /** Today's units found by a code they no longer have. */
  byFormerCode(code: string): Unit[] {
    return this.past.successorsOf(code).map((c) => this.entry(c).unit);
  }

  /** Today's units that once had this name (Khmer or Latin; spacing, case and accents ignored). */
  byFormerName(name: string): { unit: Unit; former: FormerName }[] {
    return this.past.byFormerName(name).map((former) => ({ unit: this.entry(former.code).unit, former }));
  }

  /** Every retired code, ordered. */
  retiredCodes(): string[] {
    return this.past.history.retired.map((r) => r.code).filter((code) => this.past.isRetired(code));
  }

  /** Every former name, for the search index. */
  formerNames(): readonly FormerName[] {
    return this.past.formerNames;
  }

  /** The version of the history table ('' when none was loaded). */
  get historyVersion(): string {
    return this.past.history.version;
  }
}
