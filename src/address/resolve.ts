/**
 * Address resolution: from the address people write to the unit, its chain (province, district, commune, village)
 * and postal code. Pure: no HTTP. Reads the gazetteer and the search index's tables; never scans all units.
 *
 * 1. The input is bounded (MAX_ADDRESS_LENGTH) before any work, then NFC and Khmer digits made ASCII.
 * 2. Parts outside the gazetteer are taken out (parts.ts): house number, street, group, borey, building, postal code,
 *    country.
 * 3. The rest is tokenised (tokens.ts): Khmer runs (no spaces needed) and Latin words, with unit words located.
 * 4. Every span is looked up in the index's maps: Khmer spans at cluster boundaries (the gazetteer's names are the
 *    dictionary, so the longest names win by covering more), Latin spans of up to 6 words, by exact name, alias,
 *    romanization variant, then typo. Each hit is a mention: a unit, a span, how it matched, and the level a unit word
 *    next to it announces.
 * 5. Each mention is tried as the most specific unit; its ancestors (and former parents) take the best mentions of
 *    theirs that do not overlap. A reading scores the characters it explains, weighted by how they matched and whether
 *    the unit words agree. Readings are ranked, namesakes the input cannot separate are flagged AMBIGUOUS.
 *
 * Beside it: what it answers and the input's checks (candidate.ts), its working types (reading.ts), what one address
 * may cost (budget.ts), orders and confidence (ranking.ts), the looser keys it reads names by (keys.ts).
 */
import type { Gazetteer } from '../gazetteer/gazetteer.js';
import { LEVELS, type Level, type Unit } from '../gazetteer/types.js';
import { clusterStarts, khmerSkeleton, normaliseKhmer, numberWordAsDigit, stripKhmerUnitWord } from '../search/khmer.js';
import { compact, foldWords, latinForms, normaliseNumbers, romanizationKey } from '../search/latin.js';
import type { IndexTables, SearchIndex } from '../search/search-index.js';
import { editDistance, TypoIndex, typoBudget } from '../search/typo.js';
import { type AddressParts, BoreyNames, findParts, type SavedBoreyNames } from './parts.js';
import { PrefixSet, type PrefixSetName, type SavedPrefixes } from './prefixes.js';
import { ADDRESS_SNAPSHOT_PATH, readAddressSnapshot } from './snapshot.js';
import type { UnitTables } from './unit-tables.js';
import { type KhmerRun, khmerUnitType, type LatinWord, latinUnitType, type Tokens, tokenise } from './tokens.js';
import { flat } from '../lib/flat.js';
import { addressWork, MAX_MENTIONS, MentionBudget } from './budget.js';
import {
  type Candidate, type Chain, checkAddressInput, MAX_CANDIDATES, type MatchedSpan, type MatchHow, type Resolution, ResolvedCandidate, type Warning,
} from './candidate.js';
import { latinSkeleton, looseKey, looseTable, stemTable, subscriptsAsOne } from './keys.js';
import { confidenceOf, descending, FirstThenKept, MARGIN_SATURATES, SortedOrder } from './ranking.js';
import type { Mention, Reading, SpanAt } from './reading.js';

// The module's public surface, from the modules it is made of.
export { addressWork } from './budget.js';
export {
  AddressInputError, type Candidate, type Chain, checkAddressInput, MATCH_HOWS, type MatchedSpan, type MatchHow, MAX_ADDRESS_LENGTH, MAX_CANDIDATES,
  type Resolution, type Warning, WARNING_CODES, type WarningCode,
} from './candidate.js';
export { latinSkeleton, looseKey, looseTable, stemTable, subscriptsAsOne } from './keys.js';
export { confidenceOf, descending, FirstThenKept } from './ranking.js';

const BASE: Record<MatchHow, number> = { exact: 1, alias: 0.95, former: 0.9, variant: 0.9, postal_code: 1, typo: 0.7 };
/** A loose variant (looseKey) counts a little less than a romanization variant. */
const LOOSE = 0.9;
const NO_KEYS: readonly string[] = [];
/** The weight of a name read as several units' name without their number (see stemTable). */
const STEM = 0.8;
/** The most units a looser key may add beside a span's other matches (see latinMentions). */
const LOOSE_ALSO_MAX = 4;
const HINT_AGREES = 1.3;
const HINT_DISAGREES = 0.6;
/** A partial reading (the span starts or ends inside a word of the input) counts for less. */
const PARTIAL = 0.75;
/** Weight of a 6-digit postal code that agrees with the reading (about one name's worth). */
const POSTAL_WEIGHT = 5;
const LEGACY_POSTAL_WEIGHT = 1.5;
const MAX_KHMER_SPAN = 40;
/** Readings kept before the search for more stops (ranked, deduplicated, and namesakes counted, from these). */
const PRUNE_AFTER = 24;
const MAX_LATIN_SPAN = 6;
/**
 * Entries of each memo of the resolver (the tree of Latin spans, nearest children), at most, by default: then
 * forgotten all at once. About 200 bytes an entry, so the memos stay under about 4 MB however many addresses (or
 * hostile inputs) come (20,000 entries, 15 MB, were a few per cent faster on distinct addresses but took the server's
 * peak memory over its 250 MB budget in the full benchmark). See AddressResolver.spansKept.
 */
export const SPANS_KEPT = 5_000;
const LEVEL_DEPTH: Record<Level, number> = { province: 0, district: 1, commune: 2, village: 3 };
const VILLAGE_DEPTH = LEVEL_DEPTH.village;
const NON_ASCII = /[^\t\n\r\x20-\x7e]/;
const KHMER_DIGIT = /[\u17E0-\u17E9]/;
const KHMER_DIGITS = /[\u17E0-\u17E9]/g;
const NONE: readonly number[] = [];

/** A node of the memo of Latin spans (see AddressResolver.latinSpans). */
interface LatinNode {
  span: LatinSpan | undefined;
  next: Map<string, LatinNode> | undefined;
}

/** What a span of Latin words matches (see AddressResolver.latinSpan). */
interface LatinSpan {
  compact: string;
  /** Digits only, written as digits. */
  number: boolean;
  /** Whether some name's key or loose key starts like this span's: a longer span may still match. */
  grows: boolean;
  exact: readonly number[] | undefined;
  alias: readonly number[] | undefined;
  variant: readonly number[] | undefined;
  aliasVariant: readonly number[] | undefined;
  loose: readonly number[] | undefined;
  /** The span's loose key (looseKey; '' when no name starts like the span). */
  looseKey: string;
  /** Units that had this name before (the unit history's former names, as spelt). */
  former: readonly number[] | undefined;
}

export interface ResolverOptions {
  /** Former parents of a unit (codes), from the data's unit history; none when the gazetteer has no history. */
  formerParentsOf?: (code: string) => readonly string[];
  /** The loose-key table (looseTable) of these units, from the build's snapshot (./snapshot.ts); made now if absent. */
  loose?: Map<string, number[]>;
  /** The prefix sets' hashes from the build's snapshot, used when made from the same keys (see PrefixSet). */
  prefixes?: Partial<Record<PrefixSetName, SavedPrefixes>>;
  /**
   * Each unit's former parents and digits (unitTables()) from the build's snapshot, made by a resolver of the same
   * gazetteer without `formerParentsOf`; else each is worked out when an address first needs it.
   */
  units?: UnitTables;
  /** The stem table (stemTable) of these units, from the build's snapshot; made now if absent. */
  stems?: Map<string, number[]>;
  /** The place names with the word borey (BoreyNames), from the build's snapshot; made now if absent. */
  boreyNames?: SavedBoreyNames;
  /** The tables of names by sound and by typo (SoundTables), from the build's snapshot; made now if absent. */
  sounds?: SoundTables;
}

/**
 * The names of communes and above by their one-letter deletions (Khmer) and by their consonants (Khmer and Latin), made
 * from the units alone: about 110 ms of CPU at start, so the build saves them (./snapshot.ts).
 */
export interface SoundTables {
  khmerTypo: TypoIndex;
  khmer: Map<string, number[]>;
  latin: Map<string, number[]>;
}

export class AddressResolver {
  /**
   * Entries of each memo, at most (SPANS_KEPT by default). The CLI, which runs alone and reads many addresses that
   * share their names, keeps ten times as many (12% faster on 100,000 distinct addresses; its memory stays bounded).
   */
  spansKept = SPANS_KEPT;
  private readonly units: readonly Unit[];
  private readonly tables: IndexTables;
  private readonly indexOf = new Map<string, number>();
  private readonly parent: Int32Array;
  /** Each unit's level as a depth (LEVEL_DEPTH). */
  private readonly depth: Uint8Array;
  private readonly formerParentsOf: (code: string) => readonly string[];
  private readonly khmerTypo: TypoIndex;
  /** See soundsAbove. */
  private readonly soundsAboveMap: Map<string, number[]>;
  /** See latinSoundsAbove. */
  private readonly latinSoundsAboveMap: Map<string, number[]>;
  /** Loose key of each unit's Latin names (see looseKey) -> units: built once, about 16,000 names. */
  private readonly loose: Map<string, number[]>;
  /** Prefixes of the romanization keys and loose keys of names and aliases: a span no key starts like ends its growth. */
  private readonly keyPrefixes: PrefixSet;
  private readonly loosePrefixes: PrefixSet;
  /** Khmer names and alias spellings: whether one starts with a span. */
  private readonly khmerPrefixes: PrefixSet;
  /** Khmer names and alias spellings themselves: whether a span may be one (then the tables are asked). */
  private readonly khmerWhole: PrefixSet;
  /** Loose key of Latin names without their number, when several units share it -> those units (see stemTable). */
  private readonly latinStems: Map<string, number[]>;
  /** Place names with the word borey in them, which the borey part must not take (see BoreyNames). */
  private readonly boreyNames: BoreyNames;

  constructor(private readonly gazetteer: Gazetteer, readonly search: SearchIndex, options: ResolverOptions = {}) {
    this.units = gazetteer.units;
    this.tables = search.tables;
    if (this.tables.order.length !== this.units.length) throw new Error('the search index is for other units');
    this.units.forEach((unit, i) => this.indexOf.set(unit.code, i));
    this.parent = Int32Array.from(this.units, (unit) => (unit.parent_code === null ? -1 : this.indexOf.get(unit.parent_code)!));
    this.depth = Uint8Array.from(this.units, (unit) => LEVEL_DEPTH[unit.level]);
    this.noFormerParent = new Uint8Array(this.units.length);
    this.listStamp = new Int32Array(this.units.length);
    this.firstOf = new Int32Array(this.units.length);
    this.bestStamp = new Int32Array(this.units.length);
    this.bestAt = new Int32Array(this.units.length);
    this.ancestorStamp = new Int32Array(this.units.length);
    this.seenStamp = new Int32Array(this.units.length);
    this.named = { marks: new Int32Array(this.units.length), stamp: 0 };
    this.formerParentsOf = options.formerParentsOf ?? this.historyParents();
    this.loose = options.loose ?? looseTable(this.units);
    this.latinStems = options.stems ?? stemTable(this.tables.unitWordLists);
    this.boreyNames = new BoreyNames(this.units.map((unit) => ({ km: unit.name_km, latin: unit.name_latin })), options.boreyNames);
    this.khmerTypo = options.sounds?.khmerTypo ?? this.khmerTypoIndex();
    this.soundsAboveMap = options.sounds?.khmer ?? this.soundsAbove();
    this.latinSoundsAboveMap = options.sounds?.latin ?? this.latinSoundsAbove();
    const keys = new Set<string>();
    for (const table of [this.tables.keyExact, this.tables.aliasKey]) for (const key of table.keys()) keys.add(key);
    // Alias spellings are matched exactly by their compact form: their keys' stems must let a span grow too.
    for (const key of this.tables.aliasPrefix.keys) if (!hasKhmerLetter(key)) keys.add(romanizationKey([key]));
    // And former Latin names (Smach Mean Chey, now Krong Khemara Phoumin), but not former codes.
    for (const key of this.tables.formerExact.keys()) if (!hasKhmerLetter(key) && !/^\d+$/.test(key)) keys.add(romanizationKey([key]));
    const saved = options.prefixes ?? {};
    this.keyPrefixes = new PrefixSet([...keys], saved.key);
    this.loosePrefixes = new PrefixSet([...this.loose.keys()], saved.loose);
    // Former Khmer names too (from the unit history: ស្រុកសំពៅមាស, now Krong Pursat), matched as spelt.
    const formerKhmer = [...this.tables.formerExact.keys()].filter(hasKhmerLetter);
    this.khmerPrefixes = new PrefixSet([...this.tables.khmerPrefix.keys, ...this.tables.aliasPrefix.keys, ...formerKhmer], saved.khmer);
    this.khmerWhole = new PrefixSet([...this.tables.khmerExact.keys(), ...this.tables.aliasExact.keys(), ...formerKhmer], saved.khmerWhole, { whole: true });
    if (options.units) this.useUnitTables(options.units);
  }

  /** Each unit's former parents and digits, all worked out now (for the build's snapshot, ./snapshot.ts). */
  unitTables(): UnitTables {
    const tables: UnitTables = { former: [], digits: [] };
    for (let u = 0; u < this.units.length; u++) {
      const former = this.formerParentsAt(u);
      if (former.length > 0) tables.former.push([u, [...former]]);
      tables.digits.push(this.digitsOf(u));
    }
    return tables;
  }

  /** Uses `tables` (checked by checkUnitTables when read from a file) for the per-unit caches. */
  private useUnitTables(tables: UnitTables): void {
    this.noFormerParent.fill(1);
    for (const [u, parents] of tables.former) {
      this.noFormerParent[u] = 0;
      this.formerParentsCache[u] = parents;
    }
    this.digitCache = tables.digits;
  }

  /** The prefix sets' hashes, for the build's snapshot (./snapshot.ts). */
  /** The stem table and the borey names, for the build's snapshot. */
  savedNames(): { stems: Map<string, number[]>; boreyNames: SavedBoreyNames } {
    return { stems: this.latinStems, boreyNames: this.boreyNames.saved() };
  }

  /** The tables by sound and by typo, for the build's snapshot. */
  soundTables(): SoundTables {
    return { khmerTypo: this.khmerTypo, khmer: this.soundsAboveMap, latin: this.latinSoundsAboveMap };
  }

  savedPrefixes(): Record<PrefixSetName, SavedPrefixes> {
    return { khmer: this.khmerPrefixes.saved(), khmerWhole: this.khmerWhole.saved(), key: this.keyPrefixes.saved(), loose: this.loosePrefixes.saved() };
  }

  /**
   * Former parents from the gazetteer's unit history, and also those a unit's former codes spell out: an NCDD code
   * starts with its parent's (121307 was 120107, so it was in 1201), which covers reforms the history table lists
   * only as recodings. Worked out once per unit.
   */
  private historyParents(): (code: string) => readonly string[] {
    const history = this.gazetteer as unknown as { formerParentsOf?: (code: string) => string[]; formerCodesOf?: (code: string) => string[] };
    const cache = new Map<string, readonly string[]>();
    return (code) => {
      let found = cache.get(code);
      if (found === undefined) {
        const parents = new Set(history.formerParentsOf?.(code) ?? []);
        for (const former of history.formerCodesOf?.(code) ?? []) {
          for (let length = 2; length < former.length; length += 2) {
            const prefix = former.slice(0, length);
            if (this.gazetteer.byCode(prefix)) parents.add(prefix);
          }
        }
        cache.set(code, (found = [...parents]));
      }
      return found;
    };
  }

  private readonly formerParentsCache: (readonly number[] | undefined)[] = [];
  /** Units known to have no former parent (most): 1, without looking in the cache. */
  private readonly noFormerParent: Uint8Array;
  /** The former parents of unit `u`, as units (see formerParentsOf); worked out once per unit. */
  private formerParentsAt(u: number): readonly number[] {
    if (this.noFormerParent[u]) return NONE;
    let found = this.formerParentsCache[u];
    if (found === undefined) {
      const units: number[] = [];
      for (const code of this.formerParentsOf(this.units[u]!.code)) {
        const f = this.indexOf.get(code);
        if (f !== undefined) units.push(f);
      }
      if (units.length === 0) this.noFormerParent[u] = 1;
      else this.formerParentsCache[u] = units;
      found = units;
    }
    return found;
  }

  /** The unit with this NCDD code. */
  unitByCode(code: string): Unit | undefined {
    return this.gazetteer.byCode(code);
  }

  /** Resolves one address; throws AddressInputError for input that is not an address (see checkAddressInput). */
  resolve(raw: string, { limit = MAX_CANDIDATES }: { limit?: number } = {}): Resolution {
    const checked = checkAddressInput(raw);
    // ASCII text is NFC already.
    const input = NON_ASCII.test(checked) ? checked.normalize('NFC') : checked;
    // Khmer digits to ASCII, one character for one, so offsets stay those of the input.
    let text = KHMER_DIGIT.test(input) ? input.replace(KHMER_DIGITS, (d) => String(d.charCodeAt(0) - 0x17e0)) : input;
    if (text.includes('/')) text = text.replace(/\bS\/K\b/gi, 'Sk ');
    // A zero typed for the O of a name (`0-Raing village`: Ou Reang), before a hyphen or an apostrophe and a letter.
    if (text.includes('0')) text = text.replace(ZERO_FOR_O, 'O');
    // A Roman numeral after a Khmer name is its number (សង្កាត់បឹងកក់ II: បឹងកក់២), as a digit padded to the numeral's length.
    if (text.includes('I') && KHMER_LETTER.test(text)) text = text.replace(ROMAN_AFTER_KHMER, (n) => String(ROMAN_VALUE[n]).padStart(n.length));
    const found = findParts(text);
    const { parts } = found;
    const spans = parts.borey === null ? found.spans : this.boreyNames.keep(text, parts, found.spans);
    const tokens = tokenise(text, spans);
    const mentions: Mention[] = [];
    const budget = new MentionBudget(mentions, this.parent, this.mentionOf, this.named);
    // Whether a unit word names a unit somewhere (a facility's name is then not a place's: see facilityNames).
    const worded = tokens.khmer.some((run) => run.unitWords.length > 0) || tokens.latin.some((w) => w.unit !== null);
    tokens.khmer.forEach((run, r) => this.khmerMentions(run, r, text, mentions, budget, worded));
    this.latinMentions(tokens.latin, text, mentions, budget);
    budget.release();
    addressWork.mentions += mentions.length;
    const postal = this.postalMentions(parts, mentions);

    const completable = completionCap(tokens);
    const readings = this.aboutTheParent(this.complete(this.readings(mentions, postal, limit, completable), tokens, limit, completable, mentions), mentions, tokens, text);
    this.orderTies(readings, text, limit, tokens);
    const totalChars = nameChars(tokens.khmer, tokens.latin);
    // Best first, and so never more confident than the candidate before (the ranking decides the order: a confidence
    // above the one before is brought down to it).
    let ceiling = 1;
    const candidates = readings.slice(0, limit).map((reading, rank) => {
      const c = this.candidate(reading, rank, readings, mentions, { input, text, parts, tokens, totalChars, postal, ceiling });
      ceiling = c.confidence;
      return c;
    });
    return { input, parts, candidates };
  }

  // ---- mentions ----

  private khmerMentions(run: KhmerRun, r: number, input: string, out: Mention[], budget: MentionBudget, worded: boolean): void {
    const { text } = run;
    const starts = clusterStarts(text);
    const isBoundary = new Uint8Array(text.length + 1);
    for (const s of starts) isBoundary[s] = 1;
    isBoundary[text.length] = 1;
    // Clean edges: the run's ends and unit words' edges.
    const clean = new Uint8Array(text.length + 1);
    clean[0] = 1;
    clean[text.length] = 1;
    const hintAt = new Map<number, Level>();
    for (const w of run.unitWords) {
      clean[w.start] = 1;
      clean[w.end] = 1;
      hintAt.set(w.end, w.level);
    }
    /** Spans [i, j) after a unit word that some spelling explained whole as a unit of its level (i * SPAN_KEY + j). */
    let foundWhole: Set<number> | undefined;
    // In a run of its own too (ភូមិតាហាំ ស្ថិតនៅវត្តតាមាន់សែនជ័យ: the joining word ends the run before the pagoda).
    const facility = worded ? facilityNames(text, isBoundary, run.unitWords) : undefined;
    for (const i of starts) {
      // A place a facility is named after (អាងទឹកទំនប់កណ្តែក, a reservoir), where a unit word names a unit: not the place.
      if (facility?.[i]) continue;
      const limit = Math.min(text.length, i + MAX_KHMER_SPAN);
      // The span's hash, extended as the span grows (PrefixSet): no text is made for a span that names nothing.
      let hash = PrefixSet.START;
      let hashed = i;
      // One character only after a unit word (ភ.១, ភូមិ៥): a bare letter or digit is not a name.
      for (let j = i + (hintAt.has(i) ? 1 : 2); j <= limit; j++) {
        if (!isBoundary[j]) continue;
        if (!budget.spanLookup()) return;
        while (hashed < j) hash = PrefixSet.step(hash, text.charCodeAt(hashed++));
        // No name or alias starts with this: no longer span will match either.
        if (!this.khmerPrefixes.hasHash(hash)) break;
        if (!this.khmerWhole.hasHash(hash)) continue;
        const sub = text.slice(i, j);
        const exact = this.tables.khmerExact.get(sub);
        const alias = this.tables.aliasExact.get(sub);
        const former = this.tables.formerExact.get(sub);
        if ((!exact && !alias && !former) || run.unitWords.some((w) => w.start === i && w.end === j) || !budget.span(sub)) continue;
        const hint = hintAt.get(i) ?? null;
        // Unit words in a row (ក្រុង/ខេត្តព្រះសីហនុ: municipality and province of the same name) announce either level.
        const before = run.unitWords.find((w) => w.end === i);
        const other = before ? hintAt.get(before.start) ?? null : null;
        // Joined by a sign or និង, the two are one name written for both (ភូមិ និងឃុំស្វាយចេក, ក្រុង/ខេត្តព្រះសីហនុ).
        const twice = other !== null && JOINED.test(input.slice(run.ends[before!.start - 1]!, run.offsets[before!.start]!));
        const edge = clean[i] && clean[j] ? 1 : PARTIAL;
        const chars = j - i;
        const span: SpanAt = { start: run.offsets[i]!, end: run.ends[j - 1]!, hint, other, twice, weight: chars * edge, chars,
          khmer: { run: r, from: i, to: j }, latin: undefined };
        this.spanStamp++;
        this.addMentions(exact, 'exact', span, 1, out, budget);
        this.addMentions(alias, 'alias', span, 1, out, budget);
        this.addMentions(former, 'former', span, 1, out, budget);
        // A name of the level its unit word announces (ខណ្ឌទួលគក: ទួលគក is a village's name, not a khan's).
        if (hint !== null && hint !== 'village' && (this.hasLevel(exact, hint) || this.hasLevel(alias, hint) || this.hasLevel(former, hint))) {
          (foundWhole ??= new Set()).add(i * SPAN_KEY + j);
        }
      }
    }
    if (run.unitWords.length > 0) this.khmerTypoMentions(run, r, foundWhole, out, budget);
  }

  /**
   * Mentions by typo of the Khmer names that follow a unit word of a commune or above and that no spelling explained
   * whole (ខណ្ឌទួលគក: Tuol Kouk, ទួលគោក, with a vowel left out), one letter (UTF-16 unit) off, among the names of that
   * level (a deletion index of the 1,575 names of communes and above). Villages are too many and too alike for this.
   */
  private khmerTypoMentions(run: KhmerRun, r: number, foundWhole: ReadonlySet<number> | undefined, out: Mention[], budget: MentionBudget): void {
    const { unitWords, text } = run;
    let cuts = 0;
    for (let k = 0; k < unitWords.length; k++) {
      const w = unitWords[k]!;
      if (w.level === 'village') continue;
      const from = w.end;
      const to = k + 1 < unitWords.length ? unitWords[k + 1]!.start : text.length;
      if (to - from < KHMER_TYPO_MIN || foundWhole?.has(from * SPAN_KEY + to)) continue;
      if (!budget.typoLookup()) return;
      if (this.khmerTypoAt(run, r, w.level, from, to, out, budget) || cuts >= KHMER_TYPO_CUTS) continue;
      // Nothing for the piece up to the next unit word: up to the first space in it, where a name without its unit word
      // follows (សង្កាត់ស្វាយដង្កុំ សៀមរាប: the province after the space); for the first few such pieces of a run.
      let cut = from + KHMER_TYPO_MIN;
      while (cut < to && run.offsets[cut]! <= run.ends[cut - 1]!) cut++;
      if (cut < to && !foundWhole?.has(from * SPAN_KEY + cut) && budget.typoLookup()) {
        cuts++;
        this.khmerTypoAt(run, r, w.level, from, cut, out, budget);
      }
    }
  }

  /**
   * Mentions by typo of the Khmer piece [from, to) of a run as a unit of `level`: a letter off, or else the one unit of
   * that level whose name has the same consonants by sound, vowels and signs aside (ស្រុកអន្លុងវែង: អន្លង់វែង, Anlong
   * Veaeng), for four consonants or more. Whether any was found.
   */
  private khmerTypoAt(run: KhmerRun, r: number, level: Level, from: number, to: number, out: Mention[], budget: MentionBudget): boolean {
    const { text } = run;
    const chars = to - from;
    const before = out.length;
    for (const near of this.khmerTypo.near(text.slice(from, to))) {
      for (const u of this.tables.khmerExact.get(near) ?? []) {
        if (LEVELS[this.depth[u]!] !== level || budget.full()) continue;
        out.push(this.mention(u, run.offsets[from]!, run.ends[to - 1]!, 'typo', level, chars, chars, { run: r, from, to }, undefined));
      }
    }
    if (out.length === before && !budget.full()) {
      const sound = khmerSkeleton(text.slice(from, to));
      const alike = sound.length >= 4 ? this.soundsAboveMap.get(sound) : undefined;
      let found = -1;
      for (const u of alike ?? []) {
        if (LEVELS[this.depth[u]!] !== level) continue;
        found = found === -1 ? u : -2;
      }
      if (found >= 0) out.push(this.mention(found, run.offsets[from]!, run.ends[to - 1]!, 'typo', level, chars, chars, { run: r, from, to }, undefined));
    }
    return out.length > before;
  }

  /**
   * Communes, districts and provinces by the consonants of their Khmer names by sound (skeletonOf), made at start (made
   * on first use, it held that request for about 12 ms).
   */
  private soundsAbove(): Map<string, number[]> {
    const map = new Map<string, number[]>();
    for (let u = 0; u < this.units.length; u++) {
      if (this.depth[u]! >= LEVEL_DEPTH.village) continue;
      const sound = this.skeletonOf(u);
      const list = map.get(sound);
      if (list) list.push(u);
      else map.set(sound, [u]);
    }
    return map;
  }

  /**
   * Communes, districts and provinces by the consonants of their Latin names (latinSkeleton): the Latin counterpart of
   * soundsAbove, made at start.
   */
  private latinSoundsAbove(): Map<string, number[]> {
    const map = new Map<string, number[]>();
    for (let u = 0; u < this.units.length; u++) {
      if (this.depth[u]! >= LEVEL_DEPTH.village) continue;
      const sound = latinSkeleton(latinForms(this.units[u]!.name_latin).words);
      if (sound.length < LATIN_SOUND_MIN) continue;
      const list = map.get(sound);
      if (list) list.push(u);
      else map.set(sound, [u]);
    }
    return map;
  }

  /**
   * Mentions by sound of the Latin pieces a unit word of a commune or above announces, where no mention of that level
   * was read on them other than by the key (a unit of another level may be: Laboeuk, La Bak by the key, is Lbaeuk
   * commune; a key's reading of that level may be far off: Boeng Leav, Ponley by a key a letter off): the one
   * unit of that level whose name has the same consonants (latinSkeleton: lpk for both), vowels aside, for three
   * consonants or more and five letters or more. As khmerTypoMentions does for Khmer names.
   */
  private soundsLikeAbove(words: readonly LatinWord[], first: number, out: Mention[], budget: MentionBudget): void {
    for (let a = 0; a < words.length;) {
      const w = words[a]!;
      if (w.unit !== null || w.filler) {
        a++;
        continue;
      }
      let b = a + 1;
      while (b < words.length && b - a < 4 && words[b]!.unit === null && !words[b]!.filler && words[b]!.segment === w.segment) b++;
      const at = a;
      a = b;
      if (!isWholePiece(words, at, b)) continue;
      const hint = this.latinHint(words, at, b);
      if (hint === null || hint === 'village') continue;
      let read = false;
      for (let k = first; k < out.length && !read; k++) {
        const m = out[k]!;
        if (m.latin !== undefined && m.latin.from >= at && m.latin.to <= b && m.how !== 'variant' && LEVELS[this.depth[m.u]!] === hint) read = true;
      }
      if (read) continue;
      const folded = normaliseNumbers(words.slice(at, b).map((x) => x.word));
      const chars = compact(folded).length;
      if (chars < 5 || /\d/.test(compact(folded)) || !budget.typoLookup()) continue;
      let found = -1;
      for (const u of this.latinSoundsAboveMap.get(latinSkeleton(folded)) ?? []) {
        if (LEVELS[this.depth[u]!] !== hint) continue;
        found = found === -1 ? u : -2;
      }
      if (found >= 0 && !budget.full()) out.push(this.mention(found, words[at]!.start, words[b - 1]!.end, 'typo', hint, chars, chars, undefined, { from: at, to: b }));
    }
  }

  private hasLevel(units: readonly number[] | undefined, level: Level): boolean {
    if (units) for (let k = 0; k < units.length; k++) if (LEVELS[this.depth[units[k]!]!] === level) return true;
    return false;
  }

  /** The Khmer names of communes and above, by their one-letter deletions (see khmerTypoMentions); made at start. */
  private khmerTypoIndex(): TypoIndex {
    const names: string[] = [];
    for (const key of this.tables.khmerExact.keys()) {
      if (this.tables.khmerExact.get(key)!.some((u) => this.depth[u]! < LEVEL_DEPTH.village)) names.push(key);
    }
    return TypoIndex.of(names, 1);
  }

  /** Scratch of MentionBudget.release(): the units mentioned, where `marks[u]` is its stamp. */
  private readonly named: { marks: Int32Array; stamp: number };
  /** Where `seenStamp[u]` is `spanStamp`, the span being read has a mention of unit `u` already. */
  private spanStamp = 0;
  private readonly seenStamp: Int32Array;

  /** Mentions of `units` (those the budget takes now, not yet mentioned by this span) matched `how`; how many. */
  private addMentions(units: readonly number[] | undefined, how: MatchHow, span: SpanAt, factor: number, out: Mention[], budget: MentionBudget): number {
    const taken = budget.take(units, how, span, factor);
    let added = 0;
    for (let k = 0; k < taken.length; k++) {
      const u = taken[k]!;
      if (this.seenStamp[u] === this.spanStamp) continue;
      this.seenStamp[u] = this.spanStamp;
      out.push(this.spanMention(u, how, span, factor));
      added++;
    }
    return added;
  }

  private readonly mentionOf = (u: number, how: MatchHow, span: SpanAt, factor: number) => this.spanMention(u, how, span, factor);
  /** A mention of unit `u` by a span. */
  private spanMention(u: number, how: MatchHow, span: SpanAt, factor: number): Mention {
    const level = LEVELS[this.depth[u]!];
    const hint = span.other !== null && span.other === level ? span.other : span.hint;
    // Written once for the two levels its unit words announce, and for those only.
    const twice = span.twice && (level === span.other || level === span.hint);
    return this.mention(u, span.start, span.end, how, hint, span.weight * factor, span.chars, span.khmer, span.latin, twice);
  }

  private latinMentions(words: readonly LatinWord[], input: string, out: Mention[], budget: MentionBudget): void {
    const nearCache = new Map<string, string[]>();
    const near = (w: string) => {
      let found = nearCache.get(w);
      if (!found) nearCache.set(w, (found = typoBudget(w.length) > 0 ? this.tables.typoWords.near(w) : []));
      return found;
    };
    const explained = new Uint8Array(words.length);
    const typoSpans: [number, number][] = [];
    /** Spans [a, b) some spelling explained whole (a * SPAN_KEY + b). */
    let wholeFound: Set<number> | undefined;
    /** Spans that are former names (see below). */
    let formers: { a: number; b: number; units: readonly number[]; span: SpanAt }[] | undefined;
    /** Pieces of two words or more a name spells whole (see below), and where this call's mentions start. */
    let wholeNames: number[] | undefined;
    const first = out.length;
    // Forgotten all at once, between addresses (a walk keeps its node).
    if (this.latinNodes >= this.spansKept) {
      this.latinSpans = new Map();
      this.latinNodes = 0;
    }
    // Whether a unit word names a unit somewhere (see FACILITY_AFTER below).
    let unitWorded = false;
    for (const w of words) if (w.unit !== null) unitWorded = true;
    for (let a = 0; a < words.length; a++) {
      if (words[a]!.filler) continue;
      // Whether the span has a word that is neither a unit word nor a filler, and the characters of those words.
      let named = false;
      let chars = 0;
      // The memo's node of words [a, b).
      let node: LatinNode | undefined;
      for (let b = a + 1; b <= Math.min(words.length, a + MAX_LATIN_SPAN); b++) {
        const last = words[b - 1]!;
        if (last.segment !== words[a]!.segment) break;
        if (b > a + 1 && last.start > words[b - 2]!.end + 3) break;
        if (!budget.spanLookup()) break;
        node = this.latinNode(node === undefined ? this.latinSpans : (node.next ??= new Map()), last.word);
        if (last.unit === null && !last.filler) {
          named = true;
          chars += last.word.length;
        }
        if (!named) continue;
        // A name may end with a word that is otherwise a filler (Preaek Ta In, Svay At): such a span counts only when
        // it is a name as spelt (or an alias), and is never taken for a typo nor ends the search for longer spans.
        const fillerEnd = last.filler;
        if (fillerEnd && !NAME_FINAL_FILLERS.has(last.word)) continue;
        const forms = (node.span ??= this.latinSpan(words, a, b));
        if (fillerEnd && forms.exact === undefined && forms.alias === undefined) continue;
        // No name's key (nor loose key) starts like this span's: longer spans cannot match either (typos aside).
        if (!fillerEnd && b > a + 1 && !NUMBER_LEAD.has(last.word) && !forms.grows) {
          // Typos are looked for in the spans no spelling explains, up to 4 words.
          for (let t = b; t <= Math.min(words.length, a + 4) && words[t - 1]!.segment === words[a]!.segment; t++) typoSpans.push([a, t]);
          break;
        }
        // A place a facility is named after (Prek Leap High School, Neang Kok SEZ), where a unit word names a unit
        // elsewhere in the address: the facility is not the place; the units named with their words are the answer.
        if (unitWorded && FACILITY_AFTER.has(words[b]?.word ?? '') && words[b]!.segment === last.segment) continue;
        const hint = this.latinHint(words, a, b);
        if ((forms.number && hint === null) || !budget.span(forms.compact)) continue;
        const other = latinOther(words, a, input);
        // A name the unit word after it marks as one piece, read by its end only (Kantout of "Andoung Kantout
        // village"), weighs less than one read whole.
        // So does a name read by the start of a piece an English unit word closes further on ("Tumnob" of "Tumnob
        // Apiwat village").
        const weight = hint !== null ? (isPartOfPiece(words, a, b) ? chars * PART_OF_PIECE : chars)
          : isStartOfPiece(words, a, b) ? chars * PART_OF_PIECE : chars;
        const span: SpanAt = { start: words[a]!.start, end: last.end, hint, other, twice: other !== null, weight, chars, khmer: undefined, latin: { from: a, to: b } };
        this.spanStamp++;
        let found = this.addMentions(forms.exact, 'exact', span, 1, out, budget) > 0;
        found = this.addMentions(forms.alias, 'alias', span, 1, out, budget) > 0 || found;
        found = this.addMentions(forms.variant, 'variant', span, 1, out, budget) > 0 || found;
        found = this.addMentions(forms.aliasVariant, 'alias', span, 1, out, budget) > 0 || found;
        if (found && b - a > 1 && isWholePiece(words, a, b)) (wholeNames ??= []).push(a * SPAN_KEY + b);
        // Former names are added at the end, unless a longer span was read (Kampong Bay, once Krong Kampot's name, in
        // "Kampong bay Tbong Village").
        if (forms.former) {
          (formers ??= []).push({ a, b, units: forms.former, span });
          found = true;
        }
        // The looser key's units where nothing else was read; for a name of two words or more, its few other units
        // too, below the others (Kraing Koki is Krang Kakaoh by the key, Krang Kokir by this one). A word alone has
        // many (Angkor: anka) and reads by the key.
        if (!found) found = this.addMentions(forms.loose, 'variant', span, LOOSE, out, budget) > 0;
        else if (b - a > 1 && forms.loose !== undefined && forms.loose.length <= LOOSE_ALSO_MAX) this.addMentions(forms.loose, 'variant', span, LOOSE, out, budget);
        else if (b - a > 1 && forms.loose !== undefined && hint !== null && words[a]!.unit === null && last.unit === null) {
          // Or those of the level its unit word (not in the span) says, if few ("Dung Ba commune": Doun Ba, where the key
          // reads villages).
          const ofLevel = forms.loose.filter((u) => LEVELS[this.depth[u]!] === hint);
          if (ofLevel.length > 0 && ofLevel.length <= LOOSE_ALSO_MAX) this.addMentions(ofLevel, 'variant', span, LOOSE, out, budget);
        }
        // A name of several units without the number that tells them apart (Kakap commune: Kakab 1 and Kakab 2, though
        // a village is named Kakab): where nothing else was read, or those of the level the unit word says.
        const stems = forms.number ? undefined : this.latinStems.get(forms.looseKey);
        if (stems !== undefined) {
          const level = found ? ownUnitWord(words, a, b) : null;
          if (!found || level !== null) found = this.addMentions(level ? stems.filter((u) => LEVELS[this.depth[u]!] === level) : stems, 'variant', span, STEM, out, budget) > 0 || found;
        }
        if (found) {
          for (let k = a; k < b; k++) explained[k] = 1;
          (wholeFound ??= new Set()).add(a * SPAN_KEY + b);
        } else if (b - a <= 4 && !fillerEnd) typoSpans.push([a, b]);
      }
    }
    // A name read inside a piece that a longer name spells whole ("Phnom Penh" and "Thmey" of "Phnom Penh Thmey, Sen
    // Sok") weighs less than one read whole: two names written with no comma nor unit word between them are rarer
    // than one name of their words.
    if (wholeNames) {
      for (let k = first; k < out.length; k++) {
        const m = out[k]!;
        if (m.latin === undefined) continue;
        for (const key of wholeNames) {
          const a2 = Math.floor(key / SPAN_KEY);
          const b2 = key % SPAN_KEY;
          if (a2 <= m.latin.from && m.latin.to <= b2 && m.latin.to - m.latin.from < b2 - a2) {
            m.weight *= PART_OF_PIECE;
            break;
          }
        }
      }
    }
    if (formers) {
      for (const f of formers) {
        let inside = false;
        for (const key of wholeFound ?? []) {
          const a2 = Math.floor(key / SPAN_KEY);
          const b2 = key % SPAN_KEY;
          if (a2 <= f.a && f.b <= b2 && b2 - a2 > f.b - f.a) inside = true;
        }
        if (inside) continue;
        this.spanStamp++;
        this.addMentions(f.units, 'former', f.span, 1, out, budget);
      }
    }
    // Typos only where no exact, alias or variant reading explains a word.
    if (typoSpans.length > 0) this.typoMentions(words, typoSpans, explained, wholeFound, near, out, budget);
    if (unitWorded) this.soundsLikeAbove(words, first, out, budget);
    for (let i = 1; i + 1 < words.length; i++) {
      if (words[i]!.unit !== null && NUMBERED_AFTER.has(words[i]!.word)) this.numberAfterUnitWord(words, i, out, budget);
    }
  }

  /**
   * The number after an English unit word, when it ends its piece, as the end of the name before the word: "Romchek
   * Village 5" is Rumchek 5 (as "Romchek 5 Village" is), where such a name is one; "Village 5" stays read as well.
   * Spans of up to 4 words before the unit word, not remembered (this order is rare).
   */
  private numberAfterUnitWord(words: readonly LatinWord[], i: number, out: Mention[], budget: MentionBudget): void {
    const unitWord = words[i]!;
    const number = words[i + 1]!;
    const after = words[i + 2];
    if (number.segment !== unitWord.segment || !NUMBER_WORD.test(number.word)) return;
    if (after !== undefined && after.segment === number.segment && after.unit === null) return;
    let chars = number.word.length;
    for (let a = i - 1; a >= Math.max(0, i - 4); a--) {
      const w = words[a]!;
      if (w.segment !== unitWord.segment || w.unit !== null || w.filler) return;
      chars += w.word.length;
      if (!budget.spanLookup()) return;
      const named = [...words.slice(a, i), number];
      const forms = this.latinSpan(named, 0, named.length);
      const span: SpanAt = { start: w.start, end: number.end, hint: unitWord.unit, other: null, twice: false, weight: chars, chars, khmer: undefined, latin: { from: a, to: i + 2 } };
      this.spanStamp++;
      this.addMentions(forms.exact, 'exact', span, 1, out, budget);
      this.addMentions(forms.alias, 'alias', span, 1, out, budget);
      this.addMentions(forms.variant, 'variant', span, 1, out, budget);
      this.addMentions(forms.aliasVariant, 'alias', span, 1, out, budget);
    }
  }

  /**
   * Mentions by typo of the spans of Latin words no spelling explained (see latinMentions). Apart from it: these
   * paths run for few addresses, and the first that does makes V8 deoptimise the function it is in and compile it
   * again, which costs less for a small function (bench/PERFORMANCE.md: the CLI's compiler).
   */
  private typoMentions(words: readonly LatinWord[], typoSpans: readonly [number, number][], explained: Uint8Array,
    wholeFound: ReadonlySet<number> | undefined, near: (word: string) => string[], out: Mention[], budget: MentionBudget): void {
    for (const [a, b] of typoSpans) {
      let anyExplained = false;
      for (let k = a; k < b; k++) if (explained[k]) anyExplained = true;
      // A word explained by a shorter span (Choam, a village) still leaves a whole piece between unit words or
      // separators (Choam Ksan district) to be read with a typo (Choam Ksant).
      if (anyExplained && !(isWholePiece(words, a, b) && !wholeFound?.has(a * SPAN_KEY + b))) continue;
      if (!budget.typoLookup()) break;
      const span = words.slice(a, b).filter((w) => w.unit === null && !w.filler);
      if (span.length === 0) continue;
      const folded = normaliseNumbers(span.map((w) => w.word));
      const hint = this.latinHint(words, a, b);
      const chars = compact(folded).length;
      const seen = new Set<number>();
      // Written together or with a letter wrong across words ("Phno Penh", "Phhom Penh"): the compact name.
      if (budget.full() || !budget.span(`typo:${compact(folded)}`)) continue;
      if (chars >= 6 && !/\d/.test(compact(folded))) {
        for (const near of this.tables.typoCompact.near(compact(folded))) {
          for (const u of this.tables.compactNames.get(near) ?? []) {
            if (seen.has(u) || budget.full()) continue;
            seen.add(u);
            out.push(this.mention(u, words[a]!.start, words[b - 1]!.end, 'typo', hint, chars, chars, undefined, { from: a, to: b }));
          }
        }
      }
      const options = folded.map((w) => [w, ...near(w)]);
      const fuzzy = options.findIndex((o) => o.length > 1);
      if (fuzzy < 0) continue;
      for (const candidateWord of options[fuzzy]!) {
        for (const u of this.tables.wordPostings.get(candidateWord) ?? []) {
          if (seen.has(u) || budget.full()) continue;
          const fits = this.tables.unitWordLists[u]!.some((name) => name.length === folded.length && name.every((w, i) => options[i]!.includes(w)));
          if (!fits) continue;
          seen.add(u);
          out.push(this.mention(u, words[a]!.start, words[b - 1]!.end, 'typo', hint, chars, chars, undefined, { from: a, to: b }));
        }
      }
    }
  }

  /**
   * What spans of Latin words match, remembered per sequence of words (addresses reuse a small vocabulary) as a tree
   * of words: a span's node is its first word's here, then each next word's in the node before (one lookup of a word
   * whose hash the string keeps, where a key of the span's whole text had to be made and hashed for every span).
   * Bounded: forgotten all at once past spansKept nodes.
   */
  private latinSpans = new Map<string, LatinNode>();
  private latinNodes = 0;
  private latinNode(level: Map<string, LatinNode>, word: string): LatinNode {
    let node = level.get(word);
    if (node === undefined) {
      level.set(word, (node = { span: undefined, next: undefined }));
      this.latinNodes++;
    }
    return node;
  }

  /**
   * What a span of Latin words matches: its compact form and key, whether a longer span can still match, and the
   * units of each kind of match (remembered in latinSpans).
   */
  private latinSpan(words: readonly LatinWord[], a: number, b: number): LatinSpan {
    const typed: string[] = [];
    for (let k = a; k < b; k++) typed.push(words[k]!.word);
    let found: LatinSpan;
    const folded = normaliseNumbers(typed);
    const c = compact(folded);
    const key = romanizationKey(folded);
    const loose = looseKey(folded);
    const grows = this.keyPrefixes.has(key.slice(0, -1)) || this.loosePrefixes.has(loose.slice(0, -1));
    if (!grows && b > a + 1 && !NUMBER_LEAD.has(words[b - 1]!.word)) {
      // Longer than a word and no name starts like it: latinMentions reads no match of it (none is possible).
      found = { compact: c, number: false, grows, exact: undefined, alias: undefined, variant: undefined, aliasVariant: undefined, loose: undefined, looseKey: '', former: undefined };
    } else {
      const digits = c.replace(/\D/g, '');
      // Spelling rules fold doubled letters, and so 11 into 1: the numbers must be the same.
      const sameNumber = (units: readonly number[] | undefined) => {
        if (units === undefined) return undefined;
        for (let i = 0; i < units.length; i++) if (this.digitsOf(units[i]!) !== digits) return units.filter((u) => this.digitsOf(u) === digits);
        return units;
      };
      found = {
        compact: c,
        // Written in digits or as a Roman numeral (a number word is a name: Samseb, a village, is thirty).
        number: /^\d+$/.test(c) && /^(?:\d+|ii|iii|iv)$/.test(compact(typed)),
        grows,
        exact: this.tables.latinExact.get(c),
        // An alias is spelt with its number, if any (Chom Chao 1 is one sangkat, Chom Chao the three): the units it
        // names are the ones meant, as the alias list says, whatever their own names' numbers.
        alias: this.tables.aliasExact.get(c),
        // By a key of two letters or more: Yeay is "a" by the key, as Ou is.
        variant: c.length >= 4 && key.length >= 2 ? sameNumber(this.tables.keyExact.get(key)) : undefined,
        aliasVariant: c.length >= 4 && key.length >= 2 ? (digits === '' ? this.tables.aliasKey.get(key) : sameNumber(this.tables.aliasKey.get(key))) : undefined,
        loose: c.length >= 4 && loose.length >= 2 ? sameNumber(this.loose.get(loose)) : undefined,
        looseKey: loose,
        // Not a number: a retired code is a former "name" too (search reads it; here it is a postal code or a house).
        former: digits.length < c.length ? sameNumber(this.tables.formerExact.get(c)) : undefined,
      };
    }
    return found;
  }

  private digitCache: (string | undefined)[] = [];
  /** The digits in a unit's Latin name, numbers read ("Ti Muoy" is 1). */
  private digitsOf(u: number): string {
    let digits = this.digitCache[u];
    if (digits === undefined) this.digitCache[u] = digits = compact(latinForms(this.units[u]!.name_latin).words).replace(/\D/g, '');
    return digits;
  }

  /** The level a unit word next to words [a, b) announces: the word before it, or an English word after it. */
  private latinHint(words: readonly LatinWord[], a: number, b: number): Level | null {
    const first = words[a]!;
    if (first.unit) return first.unit;
    const before = words[a - 1];
    const after = words[b];
    const trailing = after?.unit && after.segment === first.segment && TRAILING.has(after.word) ? after.unit : null;
    // A part written name first, unit word after, throughout (`Kien Sang Village Svay Rieng Sangkat Svay Rieng
    // Municipality`, its commas left out): each name is the word's after it, whatever the word.
    if (trailing && before?.unit && before.segment === first.segment && this.trailingPart(words, first.segment)) return trailing;
    if (before?.unit && before.segment === first.segment) {
      // Between two English unit words, in a part that does not start with one ("Treap village in Chet Borei
      // district Thmey commune"), the name is the one before the word after it.
      if (trailing && ENGLISH_UNIT_WORDS.has(before.word) && ENGLISH_UNIT_WORDS.has(after!.word) && !this.startsWithUnitWord(words, a)) return trailing;
      return before.unit;
    }
    if (trailing) return trailing;
    // "the district of Chamcar Leu" (or French "le district de"): an English unit word of a commune or above, singular,
    // and "of" (a plural, "villages of", names the parent after it; prose names as "the village of" places the gazetteer
    // may not have).
    const word = words[a - 2];
    return (before?.word === 'of' || before?.word === 'de') && word?.unit && word.unit !== 'village' && word.segment === first.segment && ENGLISH_UNIT_WORDS.has(word.word)
      && !PLURAL_UNIT_WORDS.has(word.word) ? word.unit : null;
  }

  /** trailingPart's words (one address's) and the parts of them it found written name first, unit word after. */
  private trailingOf: readonly LatinWord[] | undefined;
  private readonly trailingParts = new Set<number>();
  /**
   * Whether a part (segment) of the Latin words starts with a word that is no unit word and ends with a unit word of
   * those that follow names (TRAILING), with another unit word before it: a part written "name, unit word" throughout.
   * Worked out once for an address's words.
   */
  private trailingPart(words: readonly LatinWord[], segment: number): boolean {
    if (this.trailingOf !== words) {
      this.trailingOf = words;
      this.trailingParts.clear();
      for (let s = 0; s < words.length;) {
        let e = s;
        let unitWords = 0;
        while (e < words.length && words[e]!.segment === words[s]!.segment) if (words[e++]!.unit !== null) unitWords++;
        const last = words[e - 1]!;
        if (words[s]!.unit === null && last.unit !== null && TRAILING.has(last.word) && unitWords >= 2) this.trailingParts.add(words[s]!.segment);
        s = e;
      }
    }
    return this.trailingParts.has(segment);
  }

  /** Whether the part (segment) of word `a` starts with a unit word. */
  private startsWithUnitWord(words: readonly LatinWord[], a: number): boolean {
    let k = a;
    while (k > 0 && words[k - 1]!.segment === words[a]!.segment) k--;
    return words[k]!.unit !== null;
  }

  private postalMentions(parts: AddressParts, out: Mention[]): { owner: number; weight: number } | null {
    if (parts.postal_code) {
      const owner = this.gazetteer.byPostalCode(parts.postal_code);
      const u = owner ? this.indexOf.get(owner.code)! : -1;
      if (u >= 0) out.push(this.mention(u, -1, -1, 'postal_code', null, POSTAL_WEIGHT, 0, undefined, undefined));
      return { owner: u, weight: POSTAL_WEIGHT };
    }
    if (parts.legacy_postal_code) {
      // The former Cambodia Post codes began with the province's two digits (e.g. 12000 Phnom Penh).
      const province = this.indexOf.get(parts.legacy_postal_code.slice(0, 2));
      if (province !== undefined && this.units[province]!.level === 'province') return { owner: province, weight: LEGACY_POSTAL_WEIGHT };
    }
    return null;
  }

  private mention(u: number, start: number, end: number, how: MatchHow, hint: Level | null, weight: number, chars: number,
    khmer: Mention['khmer'], latin: Mention['latin'], twice = false): Mention {
    const agree = hint === null ? 1 : hint === LEVELS[this.depth[u]!] ? HINT_AGREES : HINT_DISAGREES;
    // Every mention has the same shape (khmer and latin both present, one undefined): faster property reads.
    return { u, start, end, how, hint, weight: weight * BASE[how] * agree, chars, khmer, latin, twice };
  }

  // ---- readings ----

  /**
   * Scratch of readings(), reused by every address (no Map per address): each unit's mentions as a list, heaviest
   * first, through `firstOf[u]` and `nextOf[mention]`, valid where `listStamp[u]` is the address's stamp; and the unit's
   * best reading so far at `bestAt[u]` in the readings, valid where `bestStamp[u]` is.
   */
  private stamp = 0;
  private readonly listStamp: Int32Array;
  private readonly firstOf: Int32Array;
  private nextOf = new Int32Array(MAX_MENTIONS + 8);
  private readonly bestStamp: Int32Array;
  private readonly bestAt: Int32Array;

  /** The best reading for each unit some mention names, as the most specific unit. */
  private readings(mentions: readonly Mention[], postal: { owner: number; weight: number } | null, limit: number,
    completable: CompletionCaps): Reading[] {
    const stamp = ++this.stamp;
    const { listStamp, firstOf, bestStamp, bestAt } = this;
    if (this.nextOf.length < mentions.length) this.nextOf = new Int32Array(mentions.length);
    const nextOf = this.nextOf;
    // Each unit's mentions, heaviest first (equal weights in the mentions' order).
    for (let i = 0; i < mentions.length; i++) {
      const m = mentions[i]!;
      const u = m.u;
      if (listStamp[u] !== stamp) {
        listStamp[u] = stamp;
        firstOf[u] = i;
        nextOf[i] = -1;
        continue;
      }
      let at = firstOf[u]!;
      if (mentions[at]!.weight < m.weight) {
        nextOf[i] = at;
        firstOf[u] = i;
        continue;
      }
      while (nextOf[at]! >= 0 && mentions[nextOf[at]!]!.weight >= m.weight) at = nextOf[at]!;
      nextOf[i] = nextOf[at]!;
      nextOf[at] = i;
    }
    /** The heaviest mention of unit `u` that overlaps none used; postal codes excluded. */
    const takeBest = (u: number, used: readonly Mention[]): Mention | undefined => {
      if (listStamp[u] !== stamp) return undefined;
      next: for (let i = firstOf[u]!; i >= 0; i = nextOf[i]!) {
        const m = mentions[i]!;
        if (m.how === 'postal_code') continue;
        for (const x of used) if (overlaps(x, m)) continue next;
        return m;
      }
      return undefined;
    };
    /** Whether an ancestor of `u` at the level `m`'s unit word announces has a mention on `m`'s very span. */
    const namedAbove = (u: number, m: Mention): boolean => {
      const depth = LEVEL_DEPTH[m.hint!];
      let b = this.parent[u]!;
      while (b >= 0 && this.depth[b]! > depth) b = this.parent[b]!;
      if (b < 0 || this.depth[b] !== depth || listStamp[b] !== stamp) return false;
      for (let i = firstOf[b]!; i >= 0; i = nextOf[i]!) if (mentions[i]!.start === m.start && mentions[i]!.end === m.end) return true;
      return false;
    };
    /** Whether an ancestor of `a` (above it) has a heavier mention than `m` on `m`'s very span. */
    const heavierAbove = (a: number, m: Mention): boolean => {
      for (let b = this.parent[a]!; b >= 0; b = this.parent[b]!) {
        if (listStamp[b] !== stamp) continue;
        for (let i = firstOf[b]!; i >= 0; i = nextOf[i]!) {
          const x = mentions[i]!;
          if (x.start === m.start && x.end === m.end && x.weight > m.weight) return true;
        }
      }
      return false;
    };
    // A reading scores at most its top's weight plus the heaviest mention of each level above it (and the postal
    // code): mentions are tried in that bound's order, and the search stops once no bound can reach the kept readings.
    const heaviest = [0, 0, 0, 0];
    for (const m of mentions) {
      const d = this.depth[m.u]!;
      if (m.weight > heaviest[d]!) heaviest[d] = m.weight;
    }
    const above = [0, heaviest[0]!, heaviest[0]! + heaviest[1]!, heaviest[0]! + heaviest[1]! + heaviest[2]!];
    // For the best candidate alone, a reading that cannot reach (1 - MARGIN_SATURATES) of the best score, even
    // completed, changes nothing the caller sees (see mattersFrom): the best reading is first in any ranking and its
    // score only grows. (Leaving it out can move another reading into complete()'s frontier of eight, a heuristic
    // bound, which then completes one reading more: never fewer.) Its bounds
    // are then each mention's own (namedBound: the ancestors actually named), and the mentions are taken from a heap
    // as needed, heaviest bound first: the best reading comes early and the search stops after a few.
    const unseen = limit === 1 ? 1 - MARGIN_SATURATES - 0.01 : 0;
    const bounds: number[] = [];
    const postalWeight = postal?.weight ?? 0;
    if (unseen > 0) for (const m of mentions) bounds.push(this.namedBound(m, mentions, heaviest, stamp) + postalWeight);
    else for (const m of mentions) bounds.push(m.weight + above[this.depth[m.u]!]! + postalWeight);
    // Heaviest bound first, ties in the mentions' order. For the best candidate alone, once the heaviest is read the
    // line is known (three quarters of its score, and it only rises): the mentions the loop below would pass over
    // anyway are left out before the rest is sorted.
    const keptScores: number[] = [];
    const order = unseen > 0
      ? new FirstThenKept(bounds, () => {
        const line = keptScores.length > 0 ? keptScores[0]! * unseen : -Infinity;
        return (i) => bounds[i]! >= line || bounds[i]! + completionCapAt(completable, this.depth[mentions[i]!.u]!) >= line;
      })
      : new SortedOrder(descending(bounds, null));
    const out: Reading[] = [];
    for (let index = order.next(); index >= 0; index = order.next()) {
      const top = mentions[index]!;
      const topBound = bounds[index]!;
      if (keptScores.length >= PRUNE_AFTER && topBound < keptScores[PRUNE_AFTER - 1]! * 0.95) break;
      // Completion (complete()) can raise a reading by naming its descendants, by at most `completable.two`; a commune
      // by `completable.one` (a village only), a village not at all. Past the first bound that cannot reach the line
      // even completed, none can (they come in bound order).
      if (keptScores.length > 0 && topBound < keptScores[0]! * unseen) {
        if (topBound + completable.two < keptScores[0]! * unseen) break;
        if (topBound + completionCapAt(completable, this.depth[top.u]!) < keptScores[0]! * unseen) continue;
      }
      if (top.how === 'postal_code' && nextOf[firstOf[top.u]!]! >= 0) continue;
      addressWork.readings++;
      const used: Mention[] = [top];
      let former: [number, number][] | null = null;
      let score = top.weight;
      // Current ancestors, then former parents (and their ancestors) where the current one is not named.
      for (let a = this.parent[top.u]!; a >= 0; a = this.parent[a]!) {
        // Nothing at this level is named: neither the parent nor a former one can be.
        if (heaviest[this.depth[a]!] === 0) continue;
        let m = takeBest(a, used);
        // A span whose unit word names a level above this one (Phum Kratie, Srok Kratie: the second Kratie is the
        // district, not the commune of the same name) is left to that ancestor when it has a mention there.
        // A former parent may still be named at this level (ស្វាយតឿ, Krong Svay Rieng, named with its former Srok
        // Kampong Rou in ខេត្តស្វាយរៀង).
        if (m && m.hint !== null && LEVEL_DEPTH[m.hint] < this.depth[a]! && namedAbove(a, m)) m = undefined;
        // The current parent named only by a span whose unit word says another level (Phum Bavet, Khum Bavet, Srok
        // Chantrea: the village's Bavet, read as Krong Bavet): a former parent named with its own word may weigh more.
        const weak = m !== undefined && m.hint !== null && m.hint !== LEVELS[this.depth[a]!];
        if (!m || weak) {
          const child = this.childOf(top.u, a);
          const formers = this.formerParentsAt(child);
          for (let k = 0; k < formers.length; k++) {
            const f = formers[k]!;
            if (this.depth[f] !== this.depth[a]) continue;
            let fm = takeBest(f, used);
            // Not a span a current ancestor above has a heavier mention on (Sangkat Koh Rong, Sihanoukville province:
            // Sihanoukville is the province, not Krong Preah Sihanouk, the sangkat's former parent).
            if (fm && heavierAbove(a, fm)) fm = undefined;
            if (fm && (!m || fm.weight * BASE.former > m.weight)) {
              (former ??= []).push([child, f]);
              m = { ...fm, weight: fm.weight * BASE.former };
              break;
            }
          }
        }
        if (m) {
          used.push(m);
          score += m.weight;
        }
      }
      let postalState: Reading['postal'] = 'none';
      if (postal) {
        if (postal.owner >= 0 && (postal.owner === top.u || this.isAncestor(postal.owner, top.u))) {
          postalState = 'agrees';
          if (top.how !== 'postal_code') score += postal.weight;
        } else {
          postalState = 'disagrees';
        }
      }
      // Ties go to the higher level (a commune named like one of its villages, with nothing else to tell).
      score -= 0.01 * this.depth[top.u]!;
      const u = top.u;
      if (bestStamp[u] !== stamp) {
        bestStamp[u] = stamp;
        bestAt[u] = out.length;
        out.push({ top, mentions: used, former: former ?? [], postal: postalState, score, tied: undefined });
      } else if (score > out[bestAt[u]!]!.score) {
        out[bestAt[u]!] = { top, mentions: used, former: former ?? [], postal: postalState, score, tied: undefined };
      }
      // The best scores so far, descending (a short list).
      let at = keptScores.length;
      while (at > 0 && keptScores[at - 1]! < score) at--;
      if (at < PRUNE_AFTER) {
        if (keptScores.length < PRUNE_AFTER) keptScores.push(score);
        for (let k = keptScores.length - 1; k > at; k--) keptScores[k] = keptScores[k - 1]!;
        keptScores[at] = score;
      }
    }
    return out;
  }

  /**
   * An address is about the parent of the best reading's unit, whose reading (the rest of the chain as the unit's) then
   * goes first and the unit's next, when the address names:
   * - two villages of one commune, the other by a span of its own, as spelt (exact, alias or variant), the commune named
   *   ("Ou Ta Putt, Chamkar Youn and Prek Sromoach Villages, Kampong Khleang Commune", ភូមិផ្សារព្រំ និងភូមិអូរឈើក្រំ
   *   ឃុំស្ទឹងកាច់) or not ("two villages, Dang Plet and Narong, in Chheb district"): both villages stay in its mentions;
   *   the other's span may be one the best reading took for a province or district though its unit word says village
   *   (ភូមិកណ្ដាល ភូមិលើ និងភូមិព្រែកប៉ុល ឃុំបន្ទាយដែក: Kandal the province), which it then leaves; or, the commune
   *   named, a piece after ភូមិ or Phum that is a near spelling of the other (see siblingByPiece); or, the commune
   *   named, one village whose name a plural unit word follows ("Ta Kheng and Pong Kreal villages", Ta Kheng unknown);
   * - two communes of one district, each after its unit word, the district named (ឃុំជប់វារី និងឃុំទានកាំ
   *   ស្រុកព្រះនេត្រព្រះ); or two villages of it in two communes, each with its unit word, no commune named (see
   *   anotherCousin);
   * - or a name that fits several of its children equally (see siblingsTied), the parent named or not.
   */
  private aboutTheParent(readings: Reading[], mentions: readonly Mention[], tokens: ReturnType<typeof tokenise>, text: string): Reading[] {
    const best = readings[0];
    if (!best || best.top.start < 0) return readings;
    const parent = this.parent[best.top.u]!;
    if (parent < 0) return readings;
    const named = best.mentions.find((m) => m.u === parent);
    const tied = this.siblingsTied(readings, named !== undefined);
    // "Kampong Kreng Village, Kampong Kreng Commune": of the villages the name fits (Kampong Kraeng, Kampong Krong),
    // the one named as its commune, when the two spans are written alike.
    let asParent = tied.length > 0 && named ? this.namedAsParent(tied, best.top, named, readings, text) : -1;
    if (tied.length > 0 && asParent < 0) asParent = this.closestSpelt(tied, best.top, readings, text);
    if (asParent === 0) return readings;
    if (asParent > 0) return [readings[asParent]!, ...readings.slice(0, asParent), ...readings.slice(asParent + 1)];
    if (tied.length > 0) {
      const top: Mention = named ?? { u: parent, start: -1, end: -1, how: best.top.how, hint: null, weight: 0, chars: 0, khmer: undefined, latin: undefined, twice: false };
      const about: Reading = { top, mentions: best.mentions.filter((m) => m !== best.top), former: best.former.filter(([child]) => child !== best.top.u),
        postal: best.postal, score: best.score, tied: { units: tied, span: best.top } };
      return [about, ...readings];
    }
    const listed = this.pluralList(best, mentions, tokens.latin);
    if (listed) return [listed, ...readings];
    const other = this.anotherSibling(best, mentions, named !== undefined, pluralBefore(tokens.latin, best.top), text, tokens.latin)
      ?? (named ? this.siblingByPiece(best, tokens) : undefined);
    // "Ta Kheng and Pong Kreal villages": a plural unit word after the name says the address names several units of its
    // level, of which only this one was found: the parent named is the answer, the unit stays in what matched.
    if (!other && named && (pluralAfter(tokens.latin, best.top) || this.anotherVillageWord(best.top, tokens, text) || (this.depth[best.top.u] === VILLAGE_DEPTH && numberListAfter(best.top, text)))) {
      return [{ top: named, mentions: best.mentions, former: best.former, postal: best.postal, score: best.score, tied: undefined }, ...readings];
    }
    if (!other) {
      // Two districts (or communes) named with their unit words and their parent, the reading below one of them.
      const above = this.siblingAbove(best, mentions);
      if (above) {
        const kept = best.mentions.filter((m) => !overlaps(m, above.other));
        const dropped = best.mentions.filter((m) => !kept.includes(m)).reduce((sum, m) => sum + m.weight, 0);
        return [{ top: above.named, mentions: [...kept, above.other], former: best.former, postal: best.postal,
          score: best.score - dropped + above.other.weight, tied: undefined }, ...readings];
      }
      // Two villages, each with its commune, of one district not named, the pairs joined by និង or "and": the district.
      const paired = named ? this.pairedCommune(best, named, mentions, text) : undefined;
      if (paired) {
        const district: Mention = { u: this.parent[parent]!, start: -1, end: -1, how: named!.how, hint: null, weight: 0, chars: 0, khmer: undefined, latin: undefined, twice: false };
        // The other commune's village, where its pair names one of its villages.
        const village = mentions.find((m) => this.parent[m.u] === paired.u && m.hint === 'village' && isSpelt(m) && m.start >= 0
          && !overlaps(m, paired) && !best.mentions.some((used) => overlaps(used, m)));
        const pair = village ? [village, paired] : [paired];
        return [{ top: district, mentions: [...best.mentions, ...pair], former: best.former, postal: best.postal,
          score: best.score + pair.reduce((sum, m) => sum + m.weight, 0), tied: undefined }, ...readings];
      }
      // Two villages of one district in two communes, neither commune named: the district.
      const cousin = named ? undefined : this.anotherCousin(best, mentions);
      if (!cousin) return readings;
      const district = best.mentions.find((m) => m.u === this.parent[parent])!;
      return [{ top: district, mentions: [...best.mentions, cousin], former: best.former, postal: best.postal, score: best.score + cousin.weight, tied: undefined },
        ...readings];
    }
    // The siblings stay in what the input matched: each span names its unit; the answer is their parent.
    const top: Mention = named ?? { u: parent, start: -1, end: -1, how: best.top.how, hint: null, weight: 0, chars: 0, khmer: undefined, latin: undefined, twice: false };
    // A span the reading took for a unit of another level is the other's now (see anotherSibling).
    let score = best.score + other.weight;
    const kept = best.mentions.filter((m) => !overlaps(m, other) || ((score -= m.weight), false));
    const about: Reading = { top, mentions: [...kept, other], former: best.former, postal: best.postal, score, tied: undefined };
    return [about, ...readings];
  }

  /**
   * Readings tied on score that read one Latin span as different units (Preaek Khsay Ka and Preaek Khsay Kha for "Prek
   * Sai Kho"): the unit whose name is spelt nearest the span, letter for letter, first; the order otherwise kept. Only
   * the order changes: they stay namesakes (AMBIGUOUS).
   */
  private orderTies(readings: Reading[], text: string, limit: number, tokens: Tokens): void {
    for (let i = 0; i < Math.min(limit, readings.length);) {
      const first = readings[i]!;
      let j = i + 1;
      while (j < readings.length && readings[j]!.score === first.score && readings[j]!.top.start === first.top.start && readings[j]!.top.end === first.top.end) j++;
      // Namesakes the unit words' types tell apart (សង្កាត់សំរោង ក្រុងសំរោង: the sangkat of the krong, not the khum of the
      // srok): the reading whose units have the types written first. Types change in reforms, so only among ties.
      if (j - i > 1) {
        const run = readings.slice(i, j).map((r, k) => ({ r, k, agree: this.typesWritten(r, tokens) }));
        if (run.some((x) => x.agree !== run[0]!.agree)) {
          run.sort((a, b) => b.agree - a.agree || a.k - b.k);
          for (let k = 0; k < run.length; k++) readings[i + k] = run[k]!.r;
        }
      }
      // Names spelt exactly as typed are all as near: only a variant or typo reading can be nearer for one of them.
      if (j - i > 1 && first.top.latin !== undefined && first.top.start >= 0 && (first.top.how === 'variant' || first.top.how === 'typo')) {
        const typed = typedKey(text, first.top);
        const run = readings.slice(i, j).map((r, k) => ({ r, k, d: this.typedDistance(typed, r.top.u) }));
        run.sort((a, b) => a.d - b.d || a.k - b.k);
        for (let k = 0; k < run.length; k++) readings[i + k] = run[k]!.r;
      }
      i = j;
    }
  }

  /** Edits from a Latin span as typed (typedKey) to the nearest Latin spelling of a unit's name, TIE_DISTANCE_MAX + 1 at most. */
  private typedDistance(typed: string, u: number): number {
    let d = Infinity;
    for (const c of this.latinOf(u).compacts) d = Math.min(d, editDistance(typed, c, TIE_DISTANCE_MAX));
    return d;
  }

  /**
   * How far a reading's districts and communes have the types their unit words say (ក្រុង, ស្រុក, ខណ្ឌ; សង្កាត់, ឃុំ; Krong,
   * Srok, Khan, Sangkat, Khum): one for each that has, minus one for each that has another; words of no type (district,
   * commune) or of another level count for nothing.
   */
  private typesWritten(reading: Reading, tokens: Tokens): number {
    let agree = 0;
    for (const m of reading.mentions) {
      const level = LEVELS[this.depth[m.u]!]!;
      if (level !== 'district' && level !== 'commune') continue;
      let written: string | undefined;
      if (m.khmer !== undefined) {
        const run = tokens.khmer[m.khmer.run]!;
        const w = run.unitWords.find((x) => x.end === m.khmer!.from && x.level === level);
        if (w) written = khmerUnitType(run.text.slice(w.start, w.end));
      } else if (m.latin !== undefined) {
        // The unit word right before or after the name, in its part (not the previous name's: "X commune, Y commune").
        const segment = tokens.latin[m.latin.from]!.segment;
        const before = tokens.latin[m.latin.from - 1];
        const after = tokens.latin[m.latin.to];
        const w = before?.unit === level && before.segment === segment ? before : after?.unit === level && after.segment === segment ? after : undefined;
        if (w) written = latinUnitType(w.word);
      }
      if (written !== undefined) agree += written === this.units[m.u]!.unit_type_km ? 1 : -1;
    }
    return agree;
  }

  /**
   * Of siblings one Latin span fits equally (`tied`, its spelling folded: Prek Sai Kho for Preaek Khsay Ka and Kha), the
   * one whose name is nearest the span as written, by edits (Kho: Kha), when one alone is: its reading's index in
   * `readings` (0: the best already), or -1. Numbered siblings the span leaves the number out of stay tied.
   */
  private closestSpelt(tied: readonly number[], span: Mention, readings: readonly Reading[], text: string): number {
    if (span.latin === undefined || span.start < 0 || (span.how !== 'variant' && span.how !== 'typo')) return -1;
    const typed = typedKey(text, span);
    let nearest = -1;
    let least = Infinity;
    let alone = false;
    for (const u of tied) {
      const d = this.typedDistance(typed, u);
      if (d < least) [nearest, least, alone] = [u, d, true];
      else if (d === least) alone = false;
    }
    if (!alone || least > TIE_DISTANCE_MAX) return -1;
    // siblingsTied took the tied readings from the first ones.
    for (let k = 0; k < tied.length && k < readings.length; k++) if (readings[k]!.top.u === nearest) return k;
    return -1;
  }

  /**
   * Of siblings one Latin span fits equally (`tied`), the one whose name is its parent's, where the parent's span is
   * written as this one: its reading's index in `readings` (0: the best already), or -1.
   */
  private namedAsParent(tied: readonly number[], span: Mention, parent: Mention, readings: readonly Reading[], text: string): number {
    if (span.latin === undefined || parent.latin === undefined || span.start < 0 || parent.start < 0) return -1;
    const written = (m: Mention) => compact(foldWords(text.slice(m.start, m.end)));
    if (written(span) !== written(parent)) return -1;
    const own = this.latinOf(parent.u).compacts[0];
    const same = tied.filter((u) => this.latinOf(u).compacts[0] === own);
    if (same.length !== 1) return -1;
    // siblingsTied took the tied readings from the first ones.
    for (let k = 0; k < tied.length && k < readings.length; k++) if (readings[k]!.top.u === same[0]) return k;
    return -1;
  }

  /**
   * The best reading's unit and its siblings that the same span names just as well (the same way, the same score): a
   * name written without the number that tells them apart (សង្កាត់ផ្សារដេប៉ូ: Phsar Depou 1, 2 and 3 of Tuol Kouk);
   * none when the best one has no such sibling. The parent not named (`Sangkat Toul Sangke, Phnom Penh`: Tuol Sangkae
   * 1 and 2 of Russey Keo), only when no unit of another parent ties with them (`Phum Thmei, Phnom Penh` names one of
   * many villages, not the commune of two of them).
   */
  private siblingsTied(readings: readonly Reading[], parentNamed: boolean): number[] {
    const best = readings[0]!;
    const tied: number[] = [];
    for (let k = 1; k < readings.length; k++) {
      const r = readings[k]!;
      // Equal, not only within the namesake band: Chak (exact) and Chek (a variant, vowels folded) are told apart.
      if (r.score < best.score - 1e-9) break;
      if (this.parent[r.top.u] === this.parent[best.top.u] && r.top.start === best.top.start && r.top.end === best.top.end && r.top.how === best.top.how) {
        tied.push(r.top.u);
      } else if (!parentNamed) {
        return [];
      }
    }
    if (tied.length > 0) tied.unshift(best.top.u);
    return tied;
  }

  /**
   * When the best reading is a village, a piece of the input it leaves that its unit word says is a village and that is
   * a near spelling of another village of the same commune (nearestChild: ភូមិប្រាសាទ for ប្រសាទ, in ភូមិប្រាសាទនិងភូមិត្មាតពង
   * ឃុំសំបួរ): a mention of that village, as completion would make it.
   */
  private siblingByPiece(best: Reading, tokens: ReturnType<typeof tokenise>): Mention | undefined {
    if (this.depth[best.top.u] !== LEVEL_DEPTH.village) return undefined;
    const commune = this.parent[best.top.u]!;
    for (const piece of this.pieces(best, tokens)) {
      if (piece.hint !== 'village') continue;
      const found = this.nearestChild(commune, piece);
      const child = found >= LOOSE_ONLY ? found - LOOSE_ONLY : found;
      if (child >= 0 && child !== best.top.u) return this.mention(child, piece.start, piece.end, 'typo', piece.hint, piece.chars, piece.chars, piece.khmer, piece.latin);
    }
    return undefined;
  }

  /**
   * When the best reading is a village named with its unit word and its commune after the commune's (`named`), the
   * district not named, another commune of that district named after its own unit word, before or after the pair and
   * joined to it by និង or "and" (ភូមិថ្មស ឃុំគោកពោធិ៍ និងភូមិព្រៃម្លប់ ឃុំដូងខ្ពស់): its mention (see aboutTheParent).
   */
  private pairedCommune(best: Reading, named: Mention, mentions: readonly Mention[], text: string): Mention | undefined {
    if (this.depth[best.top.u] !== VILLAGE_DEPTH || best.top.hint !== 'village' || named.hint !== 'commune' || named.start < 0) return undefined;
    const district = this.parent[named.u]!;
    if (best.mentions.some((m) => m.u === district)) return undefined;
    const from = Math.min(best.top.start, named.start);
    const to = Math.max(best.top.end, named.end);
    // The text between the pair and the other commune, before or after it.
    const gap = (m: Mention) => m.start >= to ? text.slice(to, m.start) : m.end <= from ? text.slice(m.end, from) : null;
    return mentions.find((m) => {
      if (m.u === named.u || this.parent[m.u] !== district || this.depth[m.u] !== LEVEL_DEPTH.commune || m.hint !== 'commune' || !isSpelt(m) || m.start < 0) return false;
      const between = gap(m);
      return between !== null && between.length <= PAIR_GAP_MAX && /និង|\band\b|&/i.test(between) && !best.mentions.some((used) => overlaps(used, m));
    });
  }

  /**
   * When the best reading is a village named after or before its unit word, its commune not named and its district
   * named, another village of that district, in another commune, named with its unit word too ("Prers Ka ak Village,
   * Sambo Village and Kalaot Village of Chheb District"): its mention.
   */
  private anotherCousin(best: Reading, mentions: readonly Mention[]): Mention | undefined {
    if (this.depth[best.top.u] !== LEVEL_DEPTH.village || best.top.hint !== 'village') return undefined;
    const district = this.parent[this.parent[best.top.u]!]!;
    if (!best.mentions.some((m) => m.u === district)) return undefined;
    return mentions.find((m) => m.hint === 'village' && this.depth[m.u] === LEVEL_DEPTH.village && this.parent[this.parent[m.u]!] === district
      && this.parent[m.u] !== this.parent[best.top.u] && isSpelt(m) && m.start >= 0
      && !best.mentions.some((used) => overlaps(used, m)));
  }

  /**
   * When the best reading is a village, another village of its commune named by a span of its own, or, the commune
   * named, by one the reading took for a province or district though its unit word says village; when it is a commune named after
   * its unit word and its district is named (`parentNamed`), another commune of that district named after its own, or
   * with none where the first's is a plural (`plural`: "communes Sre Kor and Kamphun"), and so for districts; the
   * district not named, another after its own unit word joined to the first by និង or "and" (see joinedTo): that
   * sibling's mention (see aboutTheParent).
   */
  private anotherSibling(best: Reading, mentions: readonly Mention[], parentNamed: boolean, plural: boolean, text: string,
    words?: readonly LatinWord[]): Mention | undefined {
    const depth = this.depth[best.top.u]!;
    const parent = this.parent[best.top.u]!;
    if (depth === LEVEL_DEPTH.village) {
      // A used span the other may take, the commune named apart: its unit word (ភូមិ) says village, the reading took it
      // for a province or district.
      const free = (used: Mention, m: Mention) => parentNamed && m.hint === 'village' && used.hint === 'village' && this.depth[used.u]! < LEVEL_DEPTH.commune;
      const overlapsUsed = (m: Mention) => best.mentions.some((used) => used.start < m.end && m.start < used.end && !free(used, m));
      return mentions.find((m) => m.u !== best.top.u && this.parent[m.u] === parent && this.depth[m.u] === LEVEL_DEPTH.village
        && isSpelt(m) && (m.hint === null || m.hint === 'village') && m.start >= 0 && !overlapsUsed(m));
    }
    if (depth !== LEVEL_DEPTH.commune && depth !== LEVEL_DEPTH.district) return undefined;
    const level = LEVELS[depth];
    if (best.top.hint !== level) return undefined;
    // After a plural unit word ("two communes (Sre Kor and Kamphun)"), the names it lists need no word of their own;
    // with the parent not named, only a name joined to the first by និង or "and", each after its unit word
    // (ឃុំព្រែកអំបិល កោះខែល និងឃុំទឹកវិល: the district).
    // "Batheay and Me Pring commune": the name right before "and" needs no word of its own either, and may be the one the
    // reading took for the parent (Batheay is also the district).
    return mentions.find((m) => {
      if (m.u === best.top.u || this.parent[m.u] !== parent || this.depth[m.u] !== depth || !isSpelt(m) || m.start < 0) return false;
      const shared = m.hint === null && words !== undefined && listedBefore(words, m, best.top);
      return (m.hint === level || (plural && parentNamed && m.hint === null) || shared) && (parentNamed || joinedTo(text, best.top, m))
        && !best.mentions.some((used) => overlaps(used, m) && !(shared && used.u === parent && used.start === m.start && used.end === m.end));
    });
  }

  /**
   * When the best reading is below a commune or district it names after that unit's word, the parent of that unit
   * named too, another unit of that parent and level named after its own unit word, whose span holds only what the
   * reading took below (ក្រុងច្បារមន និងស្រុកសំរោងទង ខេត្តកំពង់ស្ពឺ: the village មន of Samraong Tong, in the name of
   * Chbar Mon): that unit's mention, and the ancestor (see aboutTheParent).
   */
  private siblingAbove(best: Reading, mentions: readonly Mention[]): { other: Mention; named: Mention } | undefined {
    for (const ancestor of best.mentions) {
      const depth = this.depth[ancestor.u]!;
      if (ancestor === best.top || ancestor.start < 0 || (depth !== LEVEL_DEPTH.commune && depth !== LEVEL_DEPTH.district)) continue;
      const level = LEVELS[depth];
      if (ancestor.hint !== level || !this.isAncestor(ancestor.u, best.top.u)) continue;
      const parent = this.parent[ancestor.u]!;
      const named = best.mentions.find((m) => m.u === parent);
      if (!named) continue;
      const other = mentions.find((m) => m.u !== ancestor.u && this.parent[m.u] === parent && this.depth[m.u] === depth && isSpelt(m)
        && m.hint === level && m.start >= 0
        && best.mentions.every((used) => !overlaps(used, m) || (this.depth[used.u]! > depth && m.start <= used.start && used.end <= m.end)));
      if (other) return { other, named };
    }
    return undefined;
  }

  /**
   * Whether, the best reading a village after its unit word, another village's unit word follows និង or "and" near it
   * (ភូមិដើមថ្កូវនិងភូមិសុខសាន្ត សង្កាត់កោះរ៉ុង, "Phum A and Phum B, Sangkat C"): the address names two villages, the
   * other unknown, so the commune named is the answer (as for a plural unit word after the name).
   */
  private anotherVillageWord(top: Mention, tokens: ReturnType<typeof tokenise>, text: string): boolean {
    if (top.hint !== 'village' || this.depth[top.u] !== VILLAGE_DEPTH || top.start < 0) return false;
    // Another unit word (not the one right before the village's name), within 40 characters of it, after និង or "and".
    const listed = (start: number, end: number) => {
      const other = end < top.start - 1 || start > top.end;
      const near = start - top.end <= 40 && top.start - end <= 40;
      return other && near && AND_BEFORE.test(text.slice(Math.max(0, start - 6), start));
    };
    for (const run of tokens.khmer) {
      for (const w of run.unitWords) if (w.level === 'village' && listed(run.offsets[w.start]!, run.ends[w.end - 1]!)) return true;
    }
    for (const w of tokens.latin) if (w.unit === 'village' && !PLURAL_UNIT_WORDS.has(w.word) && listed(w.start, w.end)) return true;
    return false;
  }

  /**
   * An English plural unit word (villages, communes, districts), and two or more units of that level named by spans of
   * their own as spelt, children of the unit of the level above that the best reading is in: a reading of that unit,
   * with them ("Mesang, Kampong Trabaek and Baphnom Districts of Prey Veng Province"; "3 communes such as Chey Chouk,
   * Borei Cholsar and Kampong Krasang are located in Borei Cholasar district"). Plurals of two levels: none.
   */
  private pluralList(best: Reading, mentions: readonly Mention[], words: readonly LatinWord[]): Reading | undefined {
    let depth = -1;
    for (const w of words) {
      if (w.unit === null || !PLURAL_UNIT_WORDS.has(w.word)) continue;
      if (depth >= 0 && LEVEL_DEPTH[w.unit] !== depth) return undefined;
      depth = LEVEL_DEPTH[w.unit];
    }
    if (depth <= LEVEL_DEPTH.province || this.depth[best.top.u]! < depth) return undefined;
    const parent = this.ancestorAt(best.top.u, depth - 1);
    // The parent and its ancestors as the best reading read them; then the units listed, by spans of their own, each
    // with no unit word or one of their level.
    const kept = best.mentions.filter((m) => m.u === parent || this.isAncestor(m.u, parent));
    const level = LEVELS[depth];
    const listed: Mention[] = [];
    for (const m of mentions) {
      // As spelt, or misspelt where the plural after it says its level ("Srekor and Kbal Romea communes").
      if (this.depth[m.u] !== depth || this.parent[m.u] !== parent || m.start < 0 || (m.hint !== null && m.hint !== level)) continue;
      if (!isSpelt(m) && !(m.how === 'typo' && m.hint === level)) continue;
      if (!listed.some((l) => l.u === m.u || overlaps(l, m)) && !kept.some((k) => overlaps(k, m))) listed.push(m);
    }
    // Units of that level in other parents of one grandparent the best reading names: the grandparent ("the Stung Treng
    // communes of Preah Rumkel, Anlong Chrey and Anlong Phe", of two districts).
    if (depth >= 2 && listed.length >= 1) {
      const grand = this.ancestorAt(parent, depth - 2);
      const named = best.mentions.find((m) => m.u === grand);
      const others: Mention[] = [];
      for (const m of named ? mentions : []) {
        if (this.depth[m.u] !== depth || this.parent[m.u] === parent || this.ancestorAt(m.u, depth - 2) !== grand || m.start < 0 || (m.hint !== null && m.hint !== level)) continue;
        if (!isSpelt(m) && !(m.how === 'typo' && m.hint === level)) continue;
        if (![...listed, ...others].some((l) => l.u === m.u || overlaps(l, m)) && !kept.some((k) => overlaps(k, m))) others.push(m);
      }
      if (named && others.length > 0) {
        const above = best.mentions.filter((m) => m.u === grand || this.isAncestor(m.u, grand));
        let score = 0;
        for (const m of [...listed, ...others, ...above]) score += m.weight;
        return { top: named, mentions: [...listed, ...others, ...above], former: best.former, postal: best.postal, score, tied: undefined };
      }
    }
    // No unit above named and fewer than two listed there: the one parent more of the listed units share than any other
    // ("Prek Meas, Sre Sambor and Santepheap communes": Siem Pang, where Santepheap alone is also a commune of Battambang).
    if (listed.length < 2 && kept.length === 0) return this.listParent(mentions, depth);
    if (listed.length < 2) return undefined;
    const top = kept.find((m) => m.u === parent)
      ?? { u: parent, start: -1, end: -1, how: best.top.how, hint: null, weight: 0, chars: 0, khmer: undefined, latin: undefined, twice: false };
    let score = 0;
    for (const m of [...listed, ...kept]) score += m.weight;
    return { top, mentions: [...listed, ...kept], former: best.former, postal: best.postal, score, tied: undefined };
  }

  /**
   * For pluralList with no unit above named: the parent of most of the units of level `depth` named by spans of their own
   * (as spelt, or by a typo its unit word gives that level), two at least and more than any other parent has; a reading
   * of it with them, or none.
   */
  private listParent(mentions: readonly Mention[], depth: number): Reading | undefined {
    const level = LEVELS[depth];
    const byParent = new Map<number, Mention[]>();
    for (const m of mentions) {
      if (this.depth[m.u] !== depth || m.start < 0 || (m.hint !== null && m.hint !== level)) continue;
      if (!isSpelt(m) && !(m.how === 'typo' && m.hint === level)) continue;
      const p = this.parent[m.u]!;
      let list = byParent.get(p);
      if (!list) byParent.set(p, (list = []));
      if (!list.some((l) => l.u === m.u || overlaps(l, m))) list.push(m);
    }
    let best: number | undefined;
    let most = 1;
    let tie = false;
    for (const [p, list] of byParent) {
      if (list.length > most) {
        best = p;
        most = list.length;
        tie = false;
      } else if (list.length === most) tie = true;
    }
    if (best === undefined || tie) return undefined;
    const listed = byParent.get(best)!;
    const top: Mention = { u: best, start: -1, end: -1, how: listed[0]!.how, hint: null, weight: 0, chars: 0, khmer: undefined, latin: undefined, twice: false };
    let score = 0;
    for (const m of listed) score += m.weight;
    return { top, mentions: [...listed], former: [], postal: 'none', score, tied: undefined };
  }

  /** Where `ancestorStamp[u]` is rank()'s stamp, `u` is an ancestor of a reading rank() kept. */
  private readonly ancestorStamp: Int32Array;

  /**
   * A bound of a reading's score from `top` (postal code aside), tighter than its level's: `top`'s weight, plus for
   * each ancestor the heaviest mention of it if it is mentioned, and at most the heaviest of its level if the child
   * below it has, or may have, a former parent (not worked out yet); nothing for an ancestor that cannot be read.
   */
  private namedBound(top: Mention, mentions: readonly Mention[], heaviest: readonly number[], stamp: number): number {
    let bound = top.weight;
    let child = top.u;
    for (let a = this.parent[top.u]!; a >= 0; child = a, a = this.parent[a]!) {
      const d = this.depth[a]!;
      if (heaviest[d] === 0) continue;
      const own = this.listStamp[a] === stamp ? mentions[this.firstOf[a]!]!.weight : 0;
      bound += this.noFormerParent[child] ? own : heaviest[d]!;
    }
    return bound;
  }

  /** Best first; a unit ranked below one of its descendants is dropped (the descendant's chain includes it). */
  private rank(readings: readonly Reading[]): Reading[] {
    // Units are ordered by level then code (see Gazetteer), so their index breaks ties the same way.
    const scores: number[] = [];
    const units: number[] = [];
    for (const r of readings) {
      scores.push(r.score);
      units.push(r.top.u);
    }
    const ranked = descending(scores, units);
    const stamp = ++this.stamp;
    const marked = this.ancestorStamp;
    const kept: Reading[] = [];
    for (let i = 0; i < ranked.length; i++) {
      const r = readings[ranked[i]!]!;
      // A unit ranked below one of its descendants adds nothing: the descendant's chain includes it.
      if (marked[r.top.u] === stamp) continue;
      kept.push(r);
      if (kept.length >= MAX_CANDIDATES * 4) break;
      for (let a = this.parent[r.top.u]!; a >= 0; a = this.parent[a]!) marked[a] = stamp;
    }
    return kept;
  }

  /**
   * For a reading whose top is a Latin name that its unit word says is of a higher level (Trabek of "Trabek district",
   * read as the commune Trabaek), under a parent named at the level above the word's (Prey Veng): that parent's one
   * child of the word's level whose name begins or ends with the name (childByPart: Kampong Trabaek), as a reading of
   * its own, the mention read instead of the top's; none where a unit of the word's level in that province is spelt so.
   */
  private childOfTheWordsLevel(reading: Reading, tokens: ReturnType<typeof tokenise>, mentions: readonly Mention[]): Reading | undefined {
    const top = reading.top;
    const level = top.hint!;
    const latin = top.latin;
    if (latin === undefined || level === 'province' || level === 'village') return undefined;
    const parent = this.ancestorAt(top.u, LEVEL_DEPTH[level] - 1);
    if (!reading.mentions.some((m) => m.u === parent)) return undefined;
    // A reading that names a unit of the word's level already has it (Phum 6 Village Phsar Thmei Ti Muoy Quarter).
    if (reading.mentions.some((m) => m !== top && LEVELS[this.depth[m.u]!] === level)) return undefined;
    const province = this.ancestorAt(parent, 0);
    for (const m of mentions) {
      if (m.start === top.start && m.end === top.end && LEVELS[this.depth[m.u]!] === level && this.ancestorAt(m.u, 0) === province) return undefined;
    }
    const words = tokens.latin.slice(latin.from, latin.to).map((w) => w.word);
    let child = this.childByPart(parent, normaliseNumbers(words).join(' '));
    let span = latin;
    if (child < 0) {
      // Or the whole piece the name is part of, as a near spelling of one of the parent's children ("Boeng Leav commune,
      // Santuk district": Leav is a village of Santuk, Boeng Leav its commune Boeng Lvea).
      const all = tokens.latin;
      let from = latin.from;
      let to = latin.to;
      const segment = all[latin.from]!.segment;
      const name = (w: LatinWord) => w.unit === null && !w.filler && w.segment === segment;
      while (from > 0 && to - from <= MAX_LATIN_SPAN && name(all[from - 1]!)) from--;
      while (to < all.length && to - from <= MAX_LATIN_SPAN && name(all[to]!)) to++;
      if (from === latin.from && to === latin.to || to - from > MAX_LATIN_SPAN) return undefined;
      // A piece that names a child of the parent has that child's own reading.
      for (const m of mentions) if (m.latin !== undefined && m.latin.from === from && m.latin.to === to && this.parent[m.u] === parent) return undefined;
      const text = normaliseNumbers(all.slice(from, to).map((w) => w.word)).join(' ');
      const near = this.nearestChild(parent, { text });
      child = near >= 0 && near < LOOSE_ONLY ? near : this.soundsLikeChild(parent, text);
      span = { from, to };
    }
    if (child < 0 || this.isAncestor(child, top.u)) return undefined;
    const chars = span === latin ? top.chars : compact(tokens.latin.slice(span.from, span.to).map((w) => w.word)).length;
    const m = this.mention(child, tokens.latin[span.from]!.start, tokens.latin[span.to - 1]!.end, 'typo', level, chars, chars, undefined, span);
    return { top: m, mentions: [m, ...reading.mentions.filter((x) => x !== top)], former: reading.former, postal: reading.postal,
      score: reading.score - top.weight + m.weight, tied: undefined };
  }

  /**
   * Completes the best readings down the hierarchy: a piece of the input nothing explained that is a near spelling of
   * a child of the reading's unit (a commune's village, a district's commune) names that child. Only the children of a
   * few readings are compared (tens of names), never all units. Catches what the index's spelling rules do not: Khmer
   * spellings one or two signs apart (ឫ/ឬ, ូ/ួ, a doubled letter), Latin names with a letter or two wrong.
   */
  private complete(readings: Reading[], tokens: ReturnType<typeof tokenise>, limit: number, completable: CompletionCaps,
    mentions: readonly Mention[]): Reading[] {
    const ranked = this.rank(readings);
    let frontier = this.frontierOf(ranked, readings);
    const floor = this.mattersFrom(ranked, limit);
    const added: Reading[] = [];
    let lookups = 0;
    const communeWorded = tokens.latin.some((w) => w.unit === 'commune') || tokens.khmer.some((run) => run.unitWords.some((w) => w.level === 'commune'));
    for (let round = 0; round < 2 && frontier.length > 0; round++) {
      const next: Reading[] = [];
      for (let at = 0; at < frontier.length; at++) {
        const reading = frontier[at]!;
        if (lookups >= MAX_PIECE_LOOKUPS) break;
        const top = this.units[reading.top.u]!;
        const depth = LEVEL_DEPTH[top.level];
        // A name its unit word says is of a higher level than the unit read, under a parent named: that parent's child of
        // the word's level by part of its name, where no unit of that level is spelt so ("Trabek district, Prey Veng"),
        // or by the whole piece the name is part of ("Boeng Leav commune, Santuk district": not the village Leav).
        if (round === 0 && reading.top.hint !== null && LEVEL_DEPTH[reading.top.hint] < depth) {
          const above = this.childOfTheWordsLevel(reading, tokens, mentions);
          if (above) next.push(above);
        }
        if (top.level === 'village') {
          // Namesakes (other readings of the same span), none with its commune read, told apart by a commune word's
          // piece (see communeByPiece).
          if (round === 0 && communeWorded && lookups < MAX_PIECE_LOOKUPS && this.namesakesWithoutCommune(reading, frontier)) {
            const own = this.communeByPiece(reading, tokens, mentions);
            lookups++;
            if (own) added.push(own);
          }
          continue;
        }
        if (reading.top.how === 'postal_code' && reading.mentions.length === 1 && top.level === 'province') continue;
        // What completing can add at most: first for any reading of its level (completionCap), then from this one's
        // pieces (a child named by the longest, then, in the first round and above a commune, a grandchild by the next).
        if (reading.score + completionCapAt(completable, depth) < floor) continue;
        const pieces = this.pieces(reading, tokens);
        const gain = completionGain(pieces, round === 0 && depth < LEVEL_DEPTH.commune ? 2 : 1);
        if (reading.score + gain < floor) continue;
        // A reading past the first FRONTIER (see frontierOf) is completed only if it can come near the first.
        if (round === 0 && at >= FRONTIER && reading.score + gain < ranked[0]!.score * (1 - MARGIN_SATURATES - 0.01)) continue;
        const compared = pieces.slice(0, Math.min(MAX_PIECES, MAX_PIECE_LOOKUPS - lookups));
        // A piece whose unit word names a level above the reading's unit names no child of it: its ancestor of that
        // level, if a near spelling of its name (ឃុំកំពង់ក្រសាំង ស្រុកបុរីជលសា: Borei Cholsar two signs off, not the
        // village of that name in Kampong Krasang). Read first: the children below are read from the reading with it.
        const namesAbove = (piece: (typeof pieces)[number]) => piece.hint !== null && !piece.twice && LEVEL_DEPTH[piece.hint] < depth;
        let base = reading;
        for (const piece of compared) {
          if (!namesAbove(piece)) continue;
          lookups++;
          addressWork.pieces++;
          const above = this.ancestorAt(reading.top.u, LEVEL_DEPTH[piece.hint!]);
          if (base.mentions.some((m) => m.u === above) || this.nearestOf([above], piece) !== above) continue;
          const m = this.mention(above, piece.start, piece.end, 'typo', piece.hint, piece.chars, piece.chars, piece.khmer, piece.latin);
          base = { top: base.top, mentions: [...base.mentions, m], former: base.former, postal: base.postal, score: base.score + m.weight, tied: base.tied };
        }
        if (base !== reading) added.push(base);
        for (let piece of compared) {
          if (namesAbove(piece)) continue;
          lookups++;
          addressWork.pieces++;
          let bestChild = this.nearestChild(reading.top.u, piece);
          // A Khmer piece after a unit word that no child is near whole: up to its first space, where other words follow
          // the name (ភូមិពូឆប់ នៅ ឃុំដាក់ដាំ: ពូឆប, a letter off).
          if (bestChild < 0 && piece.hint !== null && piece.khmer !== undefined) {
            const cut = khmerCut(piece, piece.khmer, tokens.khmer[piece.khmer.run]!);
            const child = cut ? this.nearestChild(reading.top.u, cut) : -1;
            if (child >= 0 && child < LOOSE_ONLY) [piece, bestChild] = [cut!, child];
          }
          if (bestChild >= LOOSE_ONLY) bestChild = this.spelledElsewhere(reading.top.u, bestChild - LOOSE_ONLY, piece, mentions, 1) ? -1 : bestChild - LOOSE_ONLY;
          // A piece its unit word says is of another level than the child (ឃុំព្រែកដាច់, a commune of the district,
          // is no misspelt village ព្រែកបាក់ of the commune before it).
          if (bestChild >= 0 && piece.hint !== null && LEVELS[this.depth[bestChild]!] !== piece.hint && this.spelledElsewhere(reading.top.u, bestChild, piece, mentions, 1)) bestChild = -1;
          if (bestChild < 0 && piece.hint !== null && LEVEL_DEPTH[piece.hint] === depth + 1) bestChild = this.fartherChild(reading.top.u, piece, mentions);
          if (bestChild < 0) {
            // A name without the number that tells several children apart (ត្រពាំងថ្លឹង: ត្រពាំងថ្លឹង១ to ៤): the
            // reading stays this unit's, raised as a typo would raise it, with the children said in a warning.
            const numbered = this.numberedChildren(reading.top.u, piece, piece.hint !== null && LEVEL_DEPTH[piece.hint] === depth + 1);
            if (numbered.length < 2) continue;
            const m = this.mention(numbered[0]!, piece.start, piece.end, 'typo', piece.hint, piece.chars, piece.chars, piece.khmer, piece.latin);
            added.push({ top: reading.top, mentions: base.mentions, former: base.former, postal: base.postal,
              score: base.score + m.weight, tied: { units: numbered, span: m } });
            continue;
          }
          const m = this.mention(bestChild, piece.start, piece.end, 'typo', piece.hint, piece.chars, piece.chars,
            piece.khmer, piece.latin, piece.twice);
          const depthAfter = LEVEL_DEPTH[this.units[bestChild]!.level];
          next.push({ top: m, mentions: [m, ...base.mentions], former: base.former, postal: base.postal,
            score: base.score + 0.01 * depth + m.weight - 0.01 * depthAfter, tied: undefined });
        }
      }
      added.push(...next);
      frontier = next;
    }
    // Nothing completed: the ranking stands (the readings are one per unit already).
    if (added.length === 0) return ranked;
    // Keep the best reading per unit.
    const stamp = ++this.stamp;
    const { bestStamp, bestAt } = this;
    const best: Reading[] = [];
    for (const list of [readings, added]) {
      for (const r of list) {
        const u = r.top.u;
        if (bestStamp[u] !== stamp) {
          bestStamp[u] = stamp;
          bestAt[u] = best.length;
          best.push(r);
        } else if (r.score > best[bestAt[u]!]!.score) best[bestAt[u]!] = r;
      }
    }
    return this.rank(best);
  }

  /**
   * The readings complete() starts from: the best FRONTIER, and where namesake villages tied first fill half of them or
   * more (a village is not completed: a common name, Svay Chrum or Phum Thmei, read alone), the best readings above a
   * village after them, until FRONTIER of those are in ("Svay Chhrum village, Kanuot commune, Choam Ksan district":
   * twenty Svay Chrum first, then the district's reading, completed by Kantuot). Not an ancestor of a ranked reading
   * (its chain is in that reading's already).
   */
  private frontierOf(ranked: readonly Reading[], readings: readonly Reading[]): Reading[] {
    const frontier = ranked.slice(0, FRONTIER);
    if (frontier.length === 0) return frontier;
    let above = 0;
    for (const r of frontier) if (this.depth[r.top.u] !== VILLAGE_DEPTH) above++;
    // Only where namesakes crowd: half the places or more are villages of one span tied with the first.
    const first = frontier[0]!;
    let namesakes = 0;
    for (const r of frontier) {
      if (this.depth[r.top.u] === VILLAGE_DEPTH && r.top.start === first.top.start && r.top.end === first.top.end && r.score >= first.score - 1e-9) namesakes++;
    }
    if (namesakes < FRONTIER / 2) return frontier;
    for (let k = FRONTIER; k < ranked.length && above < FRONTIER; k++) {
      if (this.depth[ranked[k]!.top.u] === VILLAGE_DEPTH) continue;
      frontier.push(ranked[k]!);
      above++;
    }
    // rank() keeps MAX_CANDIDATES * 4: the others are in `readings` only.
    if (above >= FRONTIER || ranked.length < MAX_CANDIDATES * 4) return frontier;
    const stamp = ++this.stamp;
    const marked = this.ancestorStamp;
    for (const r of ranked) {
      marked[r.top.u] = stamp;
      for (let a = this.parent[r.top.u]!; a >= 0; a = this.parent[a]!) marked[a] = stamp;
    }
    const more = readings.filter((r) => this.depth[r.top.u] !== VILLAGE_DEPTH && marked[r.top.u] !== stamp);
    if (more.length === 0) return frontier;
    more.sort((a, b) => b.score - a.score || a.top.u - b.top.u);
    for (let k = 0; k < more.length && above < FRONTIER; k++, above++) frontier.push(more[k]!);
    return frontier;
  }

  /**
   * Whether other readings of `frontier` read the village's span as other villages of its district, the district read,
   * and none of them has its commune read.
   */
  private namesakesWithoutCommune(reading: Reading, frontier: readonly Reading[]): boolean {
    const district = this.parent[this.parent[reading.top.u]!]!;
    if (district < 0 || !reading.mentions.some((m) => m.u === district)) return false;
    let others = false;
    for (const r of frontier) {
      if (r.top.start !== reading.top.start || r.top.end !== reading.top.end) continue;
      const commune = this.parent[r.top.u]!;
      if (r.mentions.some((m) => m.u === commune)) return false;
      if (r.top.u !== reading.top.u && this.parent[commune] === district) others = true;
    }
    return others;
  }

  /**
   * A village read without its commune, where a piece of the input its unit word says is a commune is a near spelling of
   * the village's own commune (nearestChild of the district, or fartherChild as completion finds a child): the reading
   * with that commune's mention. Namesake villages of one district tell apart by it (`Prey Toteung village, Tuol Pich
   * commune, Ang Snuol district`: Tuol Prech's Prey Totueng, not the other two).
   */
  private communeByPiece(reading: Reading, tokens: ReturnType<typeof tokenise>, mentions: readonly Mention[]): Reading | undefined {
    const commune = this.parent[reading.top.u]!;
    if (commune < 0 || reading.mentions.some((m) => m.u === commune)) return undefined;
    const district = this.parent[commune]!;
    for (const piece of this.pieces(reading, tokens)) {
      // Not where a unit word of another level is on the piece's other side (`Kaoh Samraong Commune Kampong Siem
      // District`: Kampong Siem is the district's name, not a misspelt Kampong Cham).
      if (piece.hint !== 'commune' || betweenLevels(tokens.latin, piece.latin)) continue;
      let found = this.nearestChild(district, piece);
      if (found >= LOOSE_ONLY) found = this.spelledElsewhere(district, found - LOOSE_ONLY, piece, mentions, 1) ? -1 : found - LOOSE_ONLY;
      if (found < 0) found = this.fartherChild(district, piece, mentions);
      if (found !== commune) continue;
      const m = this.mention(commune, piece.start, piece.end, 'typo', piece.hint, piece.chars, piece.chars, piece.khmer, piece.latin, piece.twice);
      return { top: reading.top, mentions: [reading.mentions[0]!, m, ...reading.mentions.slice(1)], former: reading.former, postal: reading.postal,
        score: reading.score + m.weight, tied: undefined };
    }
    return undefined;
  }

  /**
   * The score under which a reading changes nothing the caller sees, for the first `limit` readings of a ranking:
   * below the namesake band (AMBIGUOUS: within 2%) of the last of them, and below the reading each is measured against
   * for its margin (the first that is neither its ancestor nor its descendant). Completion only raises scores, so a
   * reading that cannot climb to it is left as it is (-Infinity: every reading matters). The margin counts only up
   * to MARGIN_SATURATES, so a reading far enough below changes no confidence even if it becomes the one measured against.
   */
  private mattersFrom(ranked: readonly Reading[], limit: number): number {
    const shown = Math.min(limit, ranked.length);
    if (shown === 0) return -Infinity;
    let floor = ranked[shown - 1]!.score * 0.98;
    for (let i = 0; i < shown; i++) {
      const u = ranked[i]!.top.u;
      const next = ranked.find((r, k) => k !== i && !this.isAncestor(r.top.u, u) && !this.isAncestor(u, r.top.u));
      if (!next) return -Infinity;
      // A margin of MARGIN_SATURATES or more counts as much as any (see confidenceOf): a reading that cannot climb
      // above (1 - MARGIN_SATURATES) of this one's score leaves its confidence as it is, even measured against it.
      floor = Math.min(floor, Math.max(next.score, ranked[i]!.score * (1 - MARGIN_SATURATES - 0.01)));
    }
    return floor;
  }

  /** Pieces of the input a reading leaves unexplained: Khmer between unit words, Latin word groups within a part. */
  private pieces(reading: Reading, tokens: ReturnType<typeof tokenise>) {
    const out: { text: string; start: number; end: number; hint: Level | null; chars: number;
      khmer?: { run: number; from: number; to: number }; latin?: { from: number; to: number }; twice?: boolean }[] = [];
    // A commune's name written once for the village too (ភូមិ-ឃុំចំការហ្លួង, ភូមិ និងឃុំ...), where no village of it is
    // spelt so (its village is ចំការហ្លូង): the name is a piece for a village as well.
    const top = reading.top;
    if (top.twice && top.khmer !== undefined && this.depth[top.u] === LEVEL_DEPTH.commune
      && !reading.mentions.some((m) => m !== top && m.start === top.start && m.end === top.end)) {
      const { run: r, from, to } = top.khmer;
      const run = tokens.khmer[r]!;
      const word = run.unitWords.find((w) => w.end === from && w.level === 'commune');
      if (word && run.unitWords.some((w) => w.end === word.start && w.level === 'village')) {
        out.push({ text: run.text.slice(from, to), start: top.start, end: top.end, hint: 'village', chars: to - from, khmer: top.khmer, latin: undefined, twice: true });
      }
    }
    tokens.khmer.forEach((run, r) => {
      const mark = new Uint8Array(run.text.length);
      for (const w of run.unitWords) mark.fill(2, w.start, w.end);
      for (const m of reading.mentions) if (m.khmer?.run === r) mark.fill(1, m.khmer.from, m.khmer.to);
      for (let k = 0; k < mark.length;) {
        if (mark[k] !== 0) {
          k++;
          continue;
        }
        let e = k;
        while (e < mark.length && mark[e] === 0) e++;
        if (e - k >= 3 && e - k <= MAX_KHMER_SPAN) {
          const hint = run.unitWords.find((w) => w.end === k)?.level ?? null;
          out.push({ text: run.text.slice(k, e), start: run.offsets[k]!, end: run.ends[e - 1]!, hint, chars: e - k, khmer: { run: r, from: k, to: e },
            latin: undefined });
        }
        k = e;
      }
    });
    const words = tokens.latin;
    const mark = new Uint8Array(words.length);
    for (let k = 0; k < words.length; k++) if (words[k]!.unit || words[k]!.filler) mark[k] = 2;
    for (const m of reading.mentions) if (m.latin) mark.fill(1, m.latin.from, m.latin.to);
    for (let k = 0; k < words.length;) {
      if (mark[k] !== 0) {
        k++;
        continue;
      }
      let e = k + 1;
      while (e < words.length && mark[e] === 0 && words[e]!.segment === words[k]!.segment && e - k < MAX_LATIN_SPAN) e++;
      const folded = normaliseNumbers(words.slice(k, e).map((w) => w.word));
      const text = compact(folded);
      // A name of two or three letters only with its unit word (Phum Au: Ou), and then nearestChild reads it by its
      // loose key alone (no typo budget under four letters).
      const hint = text.length >= 2 ? this.latinHint(words, k, e) ?? villageOf(words, k) : null;
      if ((text.length >= 4 || hint !== null) && !/^\d+$/.test(text)) {
        out.push({ text: folded.join(' '), start: words[k]!.start, end: words[e - 1]!.end, hint, chars: text.length,
          khmer: undefined, latin: { from: k, to: e } });
      }
      k = e;
    }
    return out;
  }

  private readonly children: (readonly number[] | undefined)[] = [];
  /** The children of unit `u`, as units, in the gazetteer's order. */
  private childrenOf(u: number): readonly number[] {
    let found = this.children[u];
    if (!found) this.children[u] = found = this.gazetteer.children(this.units[u]!.code).map((unit) => this.indexOf.get(unit.code)!);
    return found;
  }

  /** nearestChild's memo: by unit, a piece's text -> the child (-1: none); nearestKept entries in all. */
  private readonly nearestChildren: (Map<string, number> | undefined)[] = [];
  private nearestKept = 0;
  /**
   * The child of unit `u` whose name is nearest a piece of the input (within the typo budget, or the same loose key),
   * -1 for none or for a tie; plus LOOSE_ONLY where only its loose key is near (a letter off: see nearestOf). Depends
   * only on the unit and the piece: remembered (bounded).
   */
  private nearestChild(u: number, piece: { text: string; khmer?: unknown }): number {
    // By unit, then by the piece's text (a Khmer piece has no Latin letter, a Latin one has one: they never meet).
    let known = this.nearestChildren[u];
    let best = known?.get(piece.text);
    if (best !== undefined) return best;
    best = this.nearestOf(this.childrenOf(u), piece);
    if (this.nearestKept >= this.spansKept) {
      this.nearestChildren.length = 0;
      this.nearestKept = 0;
      known = undefined;
    }
    if (known === undefined) this.nearestChildren[u] = known = new Map();
    known.set(piece.text, best);
    this.nearestKept++;
    return best;
  }

  /** nearestChild's comparison, over any units: the nearest within the typo budget or by the loose key; -1 for none or a tie. */
  private nearestOf(children: readonly number[], piece: { text: string; khmer?: unknown }): number {
    addressWork.comparisons += children.length;
    let bestDistance = Infinity;
    let best = -1;
    const digits = piece.text.replace(/\D/g, '');
    const words = piece.khmer ? [] : piece.text.split(' ');
    const latin = { compact: compact(words), loose: piece.khmer ? '' : looseKey(words), digits };
    const khmer = piece.khmer ? subscriptsAsOne(piece.text) : '';
    for (const child of children) {
      const d = piece.khmer ? this.khmerDistance(khmer, digits, child) : this.latinDistance(latin, child);
      if (d < bestDistance) {
        bestDistance = d;
        best = child;
      } else if (d === bestDistance) best = -1;
    }
    // No child within the typo budget: one a letter apart once vowels and silent letters are folded (Peanichkam,
    // Peanicheakkam: panackam, panacakam), further off than the budget allows but as near as romanizations get: marked
    // LOOSE_ONLY (see nearestChild).
    if (bestDistance === Infinity && latin.loose.length >= LOOSE_TYPO_MIN) {
      for (const child of children) {
        if (!this.looseNear(latin.loose, digits, child)) continue;
        if (bestDistance === Infinity) {
          bestDistance = 1;
          best = child;
        } else best = -1;
      }
      if (best >= 0) best += LOOSE_ONLY;
    }
    if (bestDistance === Infinity) best = -1;
    return best;
  }

  /**
   * Whether a piece is, as spelt (not by a typo), the name of another unit than `child` in the same province as `u`
   * (`within` 0) or the same district (`within` 1): then it names that unit, not a child of `u` spelt further off (Kh'na
   * Ruong Village is Khnar Rung of the next commune, not Khnach Khang Cheung, whose loose key is a letter from it). The
   * whole piece: a word of it that names another unit does not count (Chunloun of "Prey Chunloun village").
   */
  private spelledElsewhere(u: number, child: number, piece: { latin?: { from: number; to: number }; khmer?: { run: number; from: number; to: number } },
    mentions: readonly Mention[], within: 0 | 1 = 0): boolean {
    const { latin, khmer } = piece;
    const scope = this.ancestorAt(u, within);
    for (const m of mentions) {
      if (m.how === 'typo' || m.u === child || this.ancestorAt(m.u, within) !== scope) continue;
      if (latin && m.latin ? m.latin.from <= latin.from && latin.to <= m.latin.to
        : khmer && m.khmer ? m.khmer.run === khmer.run && m.khmer.from <= khmer.from && khmer.to <= m.khmer.to : false) return true;
    }
    return false;
  }

  /**
   * A child further off than nearestChild reads, for a piece the unit word says is a child of that level (see
   * soundsLikeChild and soundsLikeKhmerChild), unless the piece is the name of another unit of the same province as
   * spelt (Tuol Tompoung 1 in Khan Mean Chey is Chamkar Mon's sangkat, not Boeng Tumpun 1 of Mean Chey; Ekpheap of Thma
   * Da is Aekakpheap, though Ek Pheap is a village of Kampong Speu); else -1. Apart from complete(), which runs for every
   * address: this runs for few (bench/PERFORMANCE.md: a rare path in a hot function costs that function).
   */
  private fartherChild(u: number, piece: { text: string; latin?: { from: number; to: number }; khmer?: { run: number; from: number; to: number } },
    mentions: readonly Mention[]): number {
    if (this.spelledElsewhere(u, -1, piece, mentions)) return -1;
    if (!piece.latin) return this.soundsLikeKhmerChild(u, piece.text);
    const child = this.soundsLikeChild(u, piece.text);
    return child < 0 && this.depth[u]! < LEVEL_DEPTH.commune ? this.childByPart(u, piece.text) : child;
  }

  /**
   * The one commune or district of `u` whose Latin name begins or ends with a piece's words, as the loose key reads them
   * (Yeay Mao for Yeay Mao Pichnil, Kravien for Choam Kravien: people write a long name short), for a piece of 5 letters
   * or more, where the unit word says it is a child of that level; else -1. Not for villages: their names are many and
   * share their words (Trapeang, Prey, Kandal).
   */
  private childByPart(u: number, text: string): number {
    const words = text.split(' ');
    const key = looseKey(words);
    if (compact(words).length < 5 || /\d/.test(text)) return -1;
    let found = -1;
    for (const child of this.childrenOf(u)) {
      const name = latinForms(this.units[child]!.name_latin).words;
      if (name.length <= words.length) continue;
      if (looseKey(name.slice(0, words.length)) !== key && looseKey(name.slice(name.length - words.length)) !== key) continue;
      if (found >= 0) return -1;
      found = child;
    }
    return found;
  }

  /**
   * The one child of `u` whose loose key (looseKey) is nearest a Latin piece's, where the unit word before or after the
   * piece says it is a child of that level, further than nearestChild allows: up to two edits, or two fifths of the
   * longer key (Ekpheap: Aekakpheap). Only where no other child is within an edit more (Romdos is as near Romtum as
   * Rumdaoh: none), or where those an edit further begin less like the piece: people keep a name's first letters and
   * change its end, so the child whose key shares at least the first three letters with the piece's, two more than
   * any of those (Malech: Malik, not Ta Lav; Damnak Koh: Damnak Kakaoh, not Doun Man), is the one; and with the same
   * digits; else -1.
   */
  private soundsLikeChild(u: number, text: string): number {
    const words = text.split(' ');
    const loose = looseKey(words);
    if (loose.length < 3) return -1;
    const digits = compact(words).replace(/\D/g, '');
    let best = -1;
    let bestDistance = Infinity;
    let secondDistance = Infinity;
    // Each child's distance and the first letters its nearest key shares with the piece's.
    const near: { child: number; d: number; prefix: number }[] = [];
    for (const child of this.childrenOf(u)) {
      const forms = this.latinOf(child);
      // With the same digits; or, a piece without any, as the child's name is spelt, its number words as words
      // (Snomprampi: Snam Prampir, whose Prampir is seven).
      const keys = this.digitsOf(child) === digits ? forms.loose : digits === '' && forms.typed !== '' ? [forms.typed] : NO_KEYS;
      let d = Infinity;
      let prefix = 0;
      for (const key of keys) {
        const cap = Math.max(2, Math.floor((2 * Math.max(loose.length, key.length)) / 5));
        const e = editDistance(loose, key, cap + 1);
        if (e <= cap + 1 && e < d) {
          d = e;
          prefix = sharedStart(loose, key);
        }
      }
      if (d === Infinity) continue;
      near.push({ child, d, prefix });
      if (d < bestDistance) {
        secondDistance = bestDistance;
        bestDistance = d;
        best = child;
      } else if (d < secondDistance) secondDistance = d;
    }
    const cap = Math.max(2, Math.floor((2 * loose.length) / 5));
    if (bestDistance > cap || secondDistance <= bestDistance) return -1;
    if (secondDistance > bestDistance + 1) return best;
    // Others an edit further: the best only if it begins like the piece and they do not.
    let bestPrefix = 0;
    let otherPrefix = 0;
    for (const n of near) {
      if (n.child === best) bestPrefix = n.prefix;
      else if (n.d <= bestDistance + 1) otherPrefix = Math.max(otherPrefix, n.prefix);
    }
    return bestPrefix >= SHARED_START_MIN && bestPrefix >= otherPrefix + 2 ? best : -1;
  }

  /**
   * The one child of `u` whose Khmer name's consonants by sound (khmerSkeleton) are nearest a Khmer piece's, where the
   * unit word before the piece says it is a child of that level: the same, or an edit apart from five letters (ភូមិសំរិត:
   * សំរិទ្ធិ). Only where no other child is within an edit more, and with the same digits; else -1.
   */
  private soundsLikeKhmerChild(u: number, text: string): number {
    const skeleton = khmerSkeleton(text);
    if (skeleton.length < 3) return -1;
    const cap = skeleton.length >= 5 ? 1 : 0;
    let best = -1;
    let bestDistance = Infinity;
    let secondDistance = Infinity;
    const digits = skeleton.replace(/\D/g, '');
    for (const child of this.childrenOf(u)) {
      const other = this.skeletonOf(child);
      if (other.replace(/\D/g, '') !== digits) continue;
      const d = editDistance(skeleton, other, cap + 1);
      if (d < bestDistance) {
        secondDistance = bestDistance;
        bestDistance = d;
        best = child;
      } else if (d < secondDistance) secondDistance = d;
    }
    if (bestDistance > cap || secondDistance <= bestDistance + 1) return -1;
    // One of children that sound alike but for their direction, the piece having none (see numberedChildren).
    const alike = this.directionSounds(u).get(skeleton);
    return alike !== undefined && alike.length >= 2 && alike.includes(best) ? -1 : best;
  }

  private readonly skeletonCache: (string | undefined)[] = [];
  /** A unit's Khmer name without a unit word in it, as khmerSkeleton gives it (worked out once per unit). */
  private skeletonOf(u: number): string {
    let found = this.skeletonCache[u];
    if (found === undefined) this.skeletonCache[u] = found = khmerSkeleton(stripKhmerUnitWord(normaliseKhmer(this.units[u]!.name_km)));
    return found;
  }

  /**
   * The children of `u` whose name is the piece and a number (ត្រពាំងថ្លឹង១ ... ៤ for ត្រពាំងថ្លឹង; Chaom Chau Ti Muoy
   * ... Bei for Chaom Chau) or a direction (ស្រយង់ជើង and ស្រយង់ត្បូង for ស្រយង់; Srayang Cheung and Srayang Tboung
   * for Srayang), for a piece with no digit.
   */
  private numberedChildren(u: number, piece: { text: string; khmer?: unknown }, hinted = false): readonly number[] {
    const khmer = piece.khmer !== undefined;
    if (/\d/.test(piece.text)) return NONE;
    const text = khmer ? subscriptsAsOne(piece.text) : looseKey(piece.text.split(' '));
    if (text.length < 3) return NONE;
    const found = this.stemsOf(u, khmer).get(text);
    if (found !== undefined || !khmer || !hinted) return found ?? NONE;
    // A Khmer piece its unit word says is a child, spelt by ear: the children whose names without their direction sound
    // like it (កោះម៉ាយើល: កោះម្យើលលើ and កោះម្យើលក្រោម).
    const bySound = this.directionSounds(u).get(khmerSkeleton(piece.text));
    return bySound !== undefined && bySound.length >= 2 ? bySound : NONE;
  }

  private readonly directionSoundsCache: (ReadonlyMap<string, readonly number[]> | undefined)[] = [];
  /**
   * Per unit: the consonants by sound (khmerSkeleton) of its children's Khmer names that end in a direction, without
   * it, and those children (most units have none: an empty map).
   */
  private directionSounds(u: number): ReadonlyMap<string, readonly number[]> {
    let found = this.directionSoundsCache[u];
    if (!found) {
      const map = new Map<string, number[]>();
      for (const child of this.childrenOf(u)) {
        const name = stripKhmerUnitWord(normaliseKhmer(this.units[child]!.name_km));
        if (!DIRECTION_KHMER.test(name)) continue;
        const sound = khmerSkeleton(name.replace(DIRECTION_END, ''));
        if (sound.length < 3) continue;
        const list = map.get(sound);
        if (list) list.push(child);
        else map.set(sound, [child]);
      }
      this.directionSoundsCache[u] = found = map;
    }
    return found;
  }

  /**
   * Per unit and script: its numbered children's names without their number, and the names of its children that end
   * in a direction without it (Khmer as khmerFormsOf gives them, which completion has worked out already; Latin as
   * loose keys (looseKey: Sro Yang is Srayang), without the last word, and Khang before it, where the Khmer name ends
   * in a direction).
   */
  private readonly stemsCache: (ReadonlyMap<string, readonly number[]> | undefined)[][] = [[], []];
  private stemsOf(u: number, khmer: boolean): ReadonlyMap<string, readonly number[]> {
    const cache = this.stemsCache[khmer ? 1 : 0]!;
    let stems = cache[u];
    if (!stems) {
      const found = new Map<string, number[]>();
      const add = (stem: string, child: number) => {
        const list = found.get(stem);
        if (!list) found.set(stem, [child]);
        else if (list.at(-1) !== child) list.push(child);
      };
      for (const child of this.childrenOf(u)) {
        // Most names have no number nor direction: told from the Khmer name by one test each, before any form of the
        // name is made.
        const name = this.units[child]!.name_km;
        if (NUMBERED_KHMER.test(name)) {
          if (khmer) {
            for (const form of this.khmerFormsOf(child)) if (form.digits !== '') add(form.text.replace(/\d/g, ''), child);
          } else {
            add(looseKey(normaliseNumbers(foldWords(this.units[child]!.name_latin)).filter((w) => !/^\d+$/.test(w))), child);
          }
        } else if (DIRECTION_KHMER.test(name)) {
          if (khmer) {
            for (const form of this.khmerFormsOf(child)) {
              const stem = form.text.replace(DIRECTION_FORM, '');
              if (stem.length >= 2 && stem !== form.text) add(stem, child);
            }
          } else {
            const words = normaliseNumbers(foldWords(this.units[child]!.name_latin));
            const end = words.length - (words.at(-2) === 'khang' ? 2 : 1);
            if (end > 0) add(looseKey(words.slice(0, end)), child);
          }
        }
      }
      cache[u] = stems = found;
    }
    return stems;
  }

  /** Per unit (an array indexed by unit: at most one entry per unit of the gazetteer). */
  private readonly khmerFormsCache: (readonly KhmerForm[] | undefined)[] = [];
  /**
   * A unit's Khmer name forms as compared with a piece (subscripts as one character, see subscriptsAsOne), each with
   * its digits: the name, without its unit word, and with a number word at its end as a digit (ម្លូព្រៃមួយ, written
   * ម្លូព្រៃ១). Worked out once per unit.
   */
  private khmerFormsOf(u: number): readonly KhmerForm[] {
    let found = this.khmerFormsCache[u];
    if (!found) {
      const full = normaliseKhmer(this.units[u]!.name_km);
      const texts = new Set([full, stripKhmerUnitWord(full)]);
      for (const text of [...texts]) {
        const numbered = numberWordAsDigit(text);
        if (numbered !== null) texts.add(numbered);
      }
      this.khmerFormsCache[u] = found = [...texts].map((text) => ({ text: subscriptsAsOne(text), digits: text.replace(/\D/g, '') }));
    }
    return found;
  }

  /**
   * `piece` as subscriptsAsOne gives it; the budget counts characters as written (a subscript is one): two edits from
   * six (រាក់ជ័យ for រក្សជ័យ), one from four. Only a unit's children are compared, tens of names.
   */
  private khmerDistance(piece: string, digits: string, u: number): number {
    const budget = piece.length >= 6 ? 2 : piece.length >= 4 ? 1 : 0;
    if (budget === 0) return Infinity;
    let best = Infinity;
    for (const form of this.khmerFormsOf(u)) {
      if (form.digits !== digits) continue;
      const d = editDistance(piece, form.text, budget);
      if (d <= budget && d < best) best = d;
    }
    return best;
  }

  private readonly latinCache: ({ compacts: string[]; loose: string[]; typed: string } | undefined)[] = [];
  /**
   * A unit's Latin name forms as compared with a piece: compact, and their loose keys; and the loose key of the name as
   * spelt, its number words as words, where it has any ('' if not: Snam Prampir, snamprampa). Worked out once per unit.
   */
  private latinOf(u: number) {
    let found = this.latinCache[u];
    if (!found) {
      const { words, core, typed } = latinForms(this.units[u]!.name_latin);
      const forms = core.length > 0 && core.length !== words.length ? [words, core] : [words];
      const spelt = words.some((w, i) => w !== typed[i]) || words.length !== typed.length ? looseKey(typed) : '';
      this.latinCache[u] = found = { compacts: forms.map(compact), loose: forms.map(looseKey), typed: spelt };
    }
    return found;
  }

  private latinDistance(piece: { compact: string; loose: string; digits: string }, u: number): number {
    const c = piece.compact;
    if (piece.digits !== this.digitsOf(u)) return Infinity;
    const budget = typoBudget(c.length);
    const { compacts, loose } = this.latinOf(u);
    let best = Infinity;
    // A loose key of one letter says little of a name of four or more (Yeay and Ou are both "a"); Au is Ou.
    const byLoose = piece.loose.length >= 2 || c.length <= 3;
    for (let i = 0; i < compacts.length; i++) {
      if (byLoose && loose[i] === piece.loose) best = Math.min(best, 0.5);
      if (budget > 0) {
        const d = editDistance(c, compacts[i]!, budget);
        if (d <= budget && d < best) best = d;
      }
    }
    return best;
  }

  /** Whether a Latin piece's loose key is at most a letter from one of the unit's (same digits). */
  private looseNear(loose: string, digits: string, u: number): boolean {
    if (digits !== this.digitsOf(u)) return false;
    for (const key of this.latinOf(u).loose) if (editDistance(loose, key, 1) <= 1) return true;
    return false;
  }

  /** The ancestor-or-self of `u` at `depth` (0 province, 1 district), or `u` itself where it is higher. */
  private ancestorAt(u: number, depth: number): number {
    let p = u;
    while (this.depth[p]! > depth) p = this.parent[p]!;
    return p;
  }

  /** The ancestor-or-self of `u` whose parent is `a`. */
  private childOf(u: number, a: number): number {
    let c = u;
    while (this.parent[c]! !== a && this.parent[c]! >= 0) c = this.parent[c]!;
    return c;
  }

  private isAncestor(a: number, u: number): boolean {
    for (let p = this.parent[u]!; p >= 0; p = this.parent[p]!) if (p === a) return true;
    return false;
  }

  // ---- candidates ----

  private candidate(reading: Reading, rank: number, readings: readonly Reading[], mentions: readonly Mention[], context: {
    input: string; text: string; parts: AddressParts; tokens: ReturnType<typeof tokenise>; totalChars: number;
    postal: { owner: number; weight: number } | null; ceiling: number;
  }): Candidate {
    const unit = this.units[reading.top.u]!;
    // The unit and its ancestors, by depth.
    const byDepth: (Unit | null)[] = [null, null, null, null];
    for (let u = reading.top.u; u >= 0; u = this.parent[u]!) byDepth[this.depth[u]!] = this.units[u]!;
    const at = (level: Level) => byDepth[LEVEL_DEPTH[level]]!;
    const chain: Chain = { province: byDepth[0]!, district: byDepth[1]!, commune: byDepth[2]!, village: byDepth[3]! };
    const warnings: Warning[] = [];
    const name = (u: Unit) => `${u.unit_type_latin} ${u.name_latin} (${u.code})`;
    const nameKm = (u: Unit) => `${u.unit_type_km}${u.name_km} (${u.code})`;

    const matched: MatchedSpan[] = [];
    for (const m of reading.mentions) {
      if (m.start < 0) continue;
      const isFormer = reading.former.some(([, f]) => f === m.u);
      matched.push({
        text: context.input.slice(m.start, m.end), start: m.start, end: m.end, code: this.units[m.u]!.code,
        level: this.units[m.u]!.level, how: isFormer ? 'former' : m.how,
      });
    }
    if (matched.length > 1) matched.sort((a, b) => a.start - b.start);
    if (reading.top.how === 'postal_code' || reading.postal === 'agrees') {
      const code = context.parts.postal_code!;
      const start = context.text.indexOf(code);
      const owner = this.gazetteer.byPostalCode(code);
      if (owner) matched.push({ text: code, start, end: start + code.length, code: owner.code, level: owner.level, how: 'postal_code' });
    }

    for (const [child, f] of reading.former) {
      const c = this.units[child]!;
      const p = this.units[f]!;
      const now = this.units[this.parent[child]!]!;
      warnings.push({
        code: 'FORMER_PARENT',
        message: flat`The address names ${name(p)} as the parent of ${name(c)}, which was its parent before a reform; it is now in ${name(now)}. Still a good match.`,
        message_km: flat`អាសយដ្ឋាននេះដាក់ ${nameKm(c)} ក្រោម ${nameKm(p)} ដែលជាអង្គភាពមេចាស់មុនកំណែទម្រង់ ឥឡូវនៅក្រោម ${nameKm(now)}។`,
        codes: [c.code, p.code, now.code],
      });
    }

    if (reading.postal === 'disagrees' && context.parts.postal_code) {
      const owner = context.postal && context.postal.owner >= 0 ? this.units[context.postal.owner]! : null;
      const code = context.parts.postal_code;
      warnings.push({
        code: 'POSTAL_CODE_MISMATCH',
        message: owner
          ? flat`Postal code ${code} belongs to ${name(owner)}, not to ${name(unit)} (postal code ${unit.postal_code}); the names were preferred.`
          : flat`No unit has postal code ${code}; ${name(unit)} has ${unit.postal_code}.`,
        message_km: owner
          ? flat`លេខកូដប្រៃសណីយ៍ ${code} ជារបស់ ${nameKm(owner)} មិនមែនរបស់ ${nameKm(unit)} (${unit.postal_code}) ទេ។`
          : flat`គ្មានអង្គភាពណាមានលេខកូដប្រៃសណីយ៍ ${code} ទេ។ ${nameKm(unit)} មានលេខ ${unit.postal_code}។`,
        codes: owner ? [owner.code] : [],
      });
    }

    // A unit the input names, with a unit word or as a whole part, that is not in the chain chosen.
    const usedSpan = (m: Mention) => reading.mentions.some((x) => overlaps(x, m) || (x.start === m.start && x.end === m.end));
    const reported = new Set<number>();
    for (const m of mentions) {
      if (m.hint === null || m.start < 0 || m.how === 'typo' || m.hint !== LEVELS[this.depth[m.u]!] || usedSpan(m) || reported.has(m.u)) continue;
      const level = m.hint;
      if (LEVEL_DEPTH[level] >= LEVEL_DEPTH[unit.level]) continue;
      const actual = at(level)!;
      if (actual.code === this.units[m.u]!.code) continue;
      // Only when no other reading of that span is in the chain and the span's best reading is this level.
      reported.add(m.u);
      const other = this.units[m.u]!;
      if (reported.size > 1) continue;
      warnings.push({
        code: 'UNIT_NOT_IN_PARENT',
        message: flat`${name(unit)} is not in ${name(other)}, which the address names; it is in ${name(actual)}. The reading with ${name(unit)} was chosen because it explains more of the address.`,
        message_km: flat`${nameKm(unit)} មិនស្ថិតនៅក្នុង ${nameKm(other)} ដែលមានក្នុងអាសយដ្ឋានទេ គឺស្ថិតនៅក្នុង ${nameKm(actual)}។ ការអានបែបនេះត្រូវបានជ្រើសរើស ព្រោះវាពន្យល់អាសយដ្ឋានបានច្រើនជាង។`,
        codes: [other.code, actual.code],
      });
    }

    // Namesakes: readings as good as this one that the rest of the input does not separate.
    const rivals = readings.filter((r, i) => i !== rank && r.score >= reading.score * 0.98 && r.score <= reading.score / 0.98
      && !this.isAncestor(r.top.u, reading.top.u) && !this.isAncestor(reading.top.u, r.top.u));
    if (rivals.length > 0) {
      const codes = rivals.slice(0, 10).map((r) => this.units[r.top.u]!.code);
      warnings.push({
        code: 'AMBIGUOUS',
        message: flat`${rivals.length + 1} or more units fit the address equally well (${[unit.code, ...codes].join(', ')}${rivals.length > 10 ? ', ...' : ''}); add the commune, district or province to tell them apart.`,
        message_km: flat`មានអង្គភាពចំនួន ${rivals.length + 1} ឬច្រើនជាងនេះ ត្រូវនឹងអាសយដ្ឋាននេះស្មើៗគ្នា។ សូមបន្ថែមឃុំ/សង្កាត់ ស្រុក/ខណ្ឌ ឬខេត្ត ដើម្បីបែងចែក។`,
        codes,
      });
    }

    if (reading.tied) {
      const codes = reading.tied.units.map((u) => this.units[u]!.code);
      warnings.push({
        code: 'AMBIGUOUS',
        message: flat`The address names one of ${codes.length} units of ${name(unit)} that fit it equally (${codes.join(', ')}), without what tells them apart (a number, most often): ${name(unit)} is the answer.`,
        message_km: flat`អាសយដ្ឋាននេះដាក់ឈ្មោះមួយ ដែលត្រូវនឹងអង្គភាពចំនួន ${codes.length} ក្នុង ${nameKm(unit)} ស្មើៗគ្នា (${codes.join(', ')}) ដោយគ្មានអ្វីបែងចែក (ជាញឹកញាប់ លេខរៀង)។ ចម្លើយគឺ ${nameKm(unit)}។`,
        codes,
      });
    }

    const { covered, unmatched } = this.coverage(reading, context.input, context.tokens);
    const nextBest = readings.find((r, i) => i !== rank && !this.isAncestor(r.top.u, reading.top.u) && !this.isAncestor(reading.top.u, r.top.u));
    const confidence = Math.min(context.ceiling, confidenceOf({
      coverage: context.totalChars > 0 ? Math.min(1, covered / context.totalChars) : 1,
      quality: quality(reading),
      margin: nextBest ? Math.max(0, (reading.score - nextBest.score) / reading.score) : 1,
      rank,
      levels: reading.mentions.length,
      warnings: warnings.map((w) => w.code),
      namesakes: rivals.length,
    }));
    return new ResolvedCandidate(unit, chain, confidence, context.parts, unmatched, matched, warnings, reading.score);
  }

  /** Name characters the reading explains, and the pieces of the input nothing explained. */
  private coverage(reading: Reading, input: string, tokens: ReturnType<typeof tokenise>): { covered: number; unmatched: string[] } {
    let covered = 0;
    const unmatched: string[] = [];
    tokens.khmer.forEach((run, r) => {
      const mark = new Uint8Array(run.text.length);
      for (const w of run.unitWords) mark.fill(2, w.start, w.end);
      for (const m of reading.mentions) if (m.khmer?.run === r) mark.fill(1, m.khmer.from, m.khmer.to);
      const tied = reading.tied?.span.khmer;
      if (tied?.run === r) mark.fill(1, tied.from, tied.to);
      for (let k = 0; k < mark.length; k++) if (mark[k] === 1) covered++;
      for (let k = 0; k < mark.length;) {
        if (mark[k] !== 0) {
          k++;
          continue;
        }
        let e = k;
        while (e < mark.length && mark[e] === 0) e++;
        unmatched.push(input.slice(run.offsets[k]!, run.ends[e - 1]!).trim());
        k = e;
      }
    });
    const words = tokens.latin;
    const mark = new Uint8Array(words.length);
    for (let k = 0; k < words.length; k++) if (words[k]!.unit || words[k]!.filler) mark[k] = 2;
    for (const m of reading.mentions) if (m.latin) mark.fill(1, m.latin.from, m.latin.to);
    const tied = reading.tied?.span.latin;
    if (tied) mark.fill(1, tied.from, tied.to);
    for (let k = 0; k < words.length; k++) if (mark[k] === 1 && !words[k]!.unit && !words[k]!.filler) covered += words[k]!.word.length;
    for (let k = 0; k < words.length;) {
      if (mark[k] !== 0) {
        k++;
        continue;
      }
      let e = k;
      while (e + 1 < words.length && mark[e + 1] === 0 && words[e + 1]!.segment === words[k]!.segment) e++;
      unmatched.push(input.slice(words[k]!.start, words[e]!.end));
      k = e + 1;
    }
    return { covered, unmatched: unmatched.filter(Boolean) };
  }
}
/** Readings complete() starts from, and of those above a village (see frontierOf). */
const FRONTIER = 8;
/** Unexplained pieces compared with a reading's children, at most. */
const MAX_PIECES = 12;
/** Pieces compared with children per address, at most (the evaluation set's most is 24). */
const MAX_PIECE_LOOKUPS = 96;

const shared = new WeakMap<SearchIndex, AddressResolver>();
/** Where the shared resolvers' tables came from: the build's snapshot, or made at start and why (for the start's log). */
const tablesFrom = new WeakMap<AddressResolver, { from: 'snapshot' } | { from: 'made'; snapshot: string }>();

/** One resolver per search index (the app and the tests share it). */
export function resolverFor(gazetteer: Gazetteer, search: SearchIndex): AddressResolver {
  let resolver = shared.get(search);
  if (!resolver) {
    // The build's snapshot of the resolver's tables when it is current (./snapshot.ts); else they are made now.
    const read = readAddressSnapshot(ADDRESS_SNAPSHOT_PATH, gazetteer);
    shared.set(search, (resolver = new AddressResolver(gazetteer, search, 'loose' in read ? read : {})));
    tablesFrom.set(resolver, 'loose' in read ? { from: 'snapshot' } : { from: 'made', snapshot: read.unusable });
  }
  return resolver;
}

/** Whether resolverFor's resolver read its tables from the build's snapshot, or made them and why. */
export function resolverTablesFrom(resolver: AddressResolver): { from: 'snapshot' } | { from: 'made'; snapshot: string } | undefined {
  return tablesFrom.get(resolver);
}

/**
 * Two unit words joined by a sign or "and" before word `a`, or before "of" before it ("Khum-Srok Takhmao", "Phum and
 * Khum Svay Chek", "the village and commune of Sre Chis"): the level
 * of the first, which the name is also written for; else null. Not two in a row with a space only ("Tuek Vil Khum
 * Kampong Prasat": Vil ends a name).
 */
function latinOther(words: readonly LatinWord[], a: number, input: string): Level | null {
  // "the village and commune of Sre Chis": "of" between them and the name.
  const at = words[a - 1]?.word === 'of' ? a - 1 : a;
  const before = words[at - 1];
  if (!before?.unit || before.segment !== words[a]!.segment) return null;
  let k = at - 2;
  if (words[k]?.word === 'and') k--;
  const first = words[k];
  if (!first?.unit || first.unit === before.unit || first.segment !== before.segment) return null;
  return JOINED.test(input.slice(first.end, before.start)) ? first.unit : null;
}

/** និង, "and" or an ampersand ending a text, spaces after it aside. */
const AND_BEFORE = /(?:និង|\band|&)\s*$/i;

/**
 * A number, then a sign or "and" and another number of one or two digits (not a postal code, nor 3rd): the numbers of
 * several units (ភូមិ១-២-៣-៤, Village 3 and 4).
 */
const NUMBER_LIST = /^\s*(?:[-,/&]|និង|and)\s*(?:ទី|លេខ)?\s*\d{1,2}(?![\d\p{L}])/iu;

/**
 * Whether a name read (a village's) ends with a number that a list of numbers continues (ភូមិ១-២-៣-៤ នៃសង្កាត់ច្រាំងចំរេះទី១:
 * villages 1 to 4): the address names several villages, and the commune named is the answer. Reads at most 20 characters.
 */
function numberListAfter(top: Mention, text: string): boolean {
  if (top.start < 0 || !/\d/.test(text[top.end - 1] ?? '')) return false;
  return NUMBER_LIST.test(text.slice(top.end, top.end + 20));
}

/** What joins two unit words written for one name: a hyphen, a slash, an ampersand, "and" or និង. */
const JOINED = /^\s*(?:[-/&]|and|និង)\s*$/i;

/** A Khmer name with a number: a digit, or a number word at its end (ត្រពាំងថ្លឹង១, ចោមចៅទី១, សាលាលេខប្រាំ). */
const NUMBERED_KHMER = /[0-9\u17E0-\u17E9]|(?:មួយ|ពីរ|បី|បួន|ប្រាំ)$/;
/** A Khmer name that ends in a direction (ស្រយង់ជើង, ជ្រោយខាងកើត, ព្រែកលើ). */
const DIRECTION_KHMER = /\S(?:ខាង)?(?:ជើង|ត្បូង|កើត|លិច|លើ|ក្រោម)$/;
/** That end of a normalised name (normaliseKhmer leaves ខាង out before a direction). */
const DIRECTION_END = /(?:ជើង|ត្បូង|កើត|លិច|លើ|ក្រោម)$/;
/** The same end in a name form of khmerFormsOf (subscripts as one character, see subscriptsAsOne). */
const DIRECTION_FORM = new RegExp(`\\s?(?:${subscriptsAsOne('ខាង')})?(?:${['ជើង', 'ត្បូង', 'កើត', 'លិច', 'លើ', 'ក្រោម'].map(subscriptsAsOne).join('|')})$`);

/** Spans [a, b) of Latin words or of a Khmer run's characters are keyed a * SPAN_KEY + b (an address is shorter). */
const SPAN_KEY = 4096;
/** The shortest Khmer name (in UTF-16 units) looked up with a typo after a unit word (see khmerTypoMentions). */
const KHMER_TYPO_MIN = 5;

/**
 * "the village of Pou Les": the village the prose names, as a piece completion reads for a village of the unit read
 * (latinHint gives such a span no level: prose names so places the gazetteer may not have).
 */
function villageOf(words: readonly LatinWord[], k: number): Level | null {
  const of = words[k - 1];
  const word = words[k - 2];
  return of?.word === 'of' && word?.word === 'village' && word.segment === words[k]!.segment ? 'village' : null;
}

/**
 * Whether words [a, b) are all the name words of one piece: after a unit word, a filler, a separator or the start,
 * and before a unit word, a filler ("Chamcar Leu in the province"), a separator or the end.
 */
function isWholePiece(words: readonly LatinWord[], a: number, b: number): boolean {
  const before = words[a - 1];
  const after = words[b];
  for (let k = a; k < b; k++) if (words[k]!.unit !== null) return false;
  return (before === undefined || before.unit !== null || before.filler || before.segment !== words[a]!.segment)
    && (after === undefined || after.unit !== null || after.filler || after.segment !== words[b - 1]!.segment);
}

/**
 * Whether the name words of span [a, b) are the end of a longer name an English unit word follows ("Andoung Kantout
 * village": Kantout): a name word of the same part (segment) right before them, and a unit word right after. (A name
 * word after a span is often the next name, in text without commas: "Phum Thmei Thma Puok".)
 */
function isPartOfPiece(words: readonly LatinWord[], a: number, b: number): boolean {
  let e = b;
  while (e > a && words[e - 1]!.unit !== null) e--;
  if (e === a || words[a]!.unit !== null) return false;
  const before = words[a - 1];
  const after = words[e];
  return before !== undefined && before.unit === null && !before.filler && before.segment === words[a]!.segment
    && after !== undefined && after.unit !== null && after.segment === words[e - 1]!.segment;
}

/**
 * Whether words [a, b) begin a piece, and an English unit word closes it further on, not right after them ("Tumnob" of
 * "Tumnob Apiwat village"): the piece names something longer than what they read.
 */
function isStartOfPiece(words: readonly LatinWord[], a: number, b: number): boolean {
  const first = words[a]!;
  if (first.unit !== null) return false;
  const before = words[a - 1];
  if (before !== undefined && before.segment === first.segment && before.unit === null && !before.filler) return false;
  for (let e = b; e < words.length && e < b + 3; e++) {
    const w = words[e]!;
    if (w.segment !== first.segment || w.filler) return false;
    if (w.unit !== null) return e > b && ENGLISH_UNIT_WORDS.has(w.word);
  }
  return false;
}

/** A mention of a name as spelt (exact, alias or variant), not a typo nor a former name. */
function isSpelt(m: Mention): boolean {
  return m.how === 'exact' || m.how === 'alias' || m.how === 'variant';
}

/** English plural unit words (villages, communes...): the address names several units of that level. */
const PLURAL_UNIT_WORDS = new Set(['villages', 'communes', 'sangkats', 'districts', 'provinces']);

/** Whether the Latin name `m` is read from is followed, in its part, by a plural unit word of its own level. */
function pluralAfter(words: readonly LatinWord[], m: Mention): boolean {
  if (m.latin === undefined) return false;
  const after = words[m.latin.to];
  return after !== undefined && after.segment === words[m.latin.to - 1]!.segment && PLURAL_UNIT_WORDS.has(after.word) && after.unit === m.hint;
}

/**
 * Whether Latin mention `m` is right before "and" (or &) and `m2` right after it, `m2`'s unit word after it: the two
 * names share it ("Batheay and Me Pring commune").
 */
function listedBefore(words: readonly LatinWord[], m: Mention, m2: Mention): boolean {
  if (m.latin === undefined || m2.latin === undefined || m2.latin.from !== m.latin.to + 1) return false;
  const and = words[m.latin.to]!;
  const after = words[m2.latin.to];
  return (and.word === 'and' || and.word === '&') && and.segment === words[m.latin.to - 1]!.segment && and.segment === words[m2.latin.from]!.segment
    && after !== undefined && after.unit === m2.hint && after.segment === and.segment;
}

/** Whether "and" or និង is between two mentions, within 30 characters (the second of a list of two or three). */
function joinedTo(text: string, a: Mention, b: Mention): boolean {
  const [first, second] = a.start < b.start ? [a, b] : [b, a];
  if (first.start < 0 || second.start < first.end) return false;
  const gap = text.slice(first.end, second.start);
  return gap.length <= 30 && /និង|\band\b|&/i.test(gap);
}

/** Whether the unit word that gives a mention its level is an English plural right before it ("communes Sre Kor"). */
function pluralBefore(words: readonly LatinWord[], m: Mention): boolean {
  if (m.latin === undefined) return false;
  const before = words[m.latin.from - 1];
  return before !== undefined && before.segment === words[m.latin.from]!.segment && PLURAL_UNIT_WORDS.has(before.word) && before.unit === m.hint;
}

/**
 * The level of the unit word that belongs to words [a, b) for sure: a Latin one before them or first in them (Khum
 * Kakab), or an English one after them (Kakap commune); else null. (An English word before them may be the previous
 * name's: "Olympic Quarter Boeng Keng Kang".)
 */
function ownUnitWord(words: readonly LatinWord[], a: number, b: number): Level | null {
  const after = words[b];
  if (after?.unit && after.segment === words[b - 1]!.segment && ENGLISH_UNIT_WORDS.has(after.word)) return after.unit;
  const first = words[a]!.unit ? words[a]! : words[a - 1];
  if (first?.unit && first.segment === words[a]!.segment && !ENGLISH_UNIT_WORDS.has(first.word)) return first.unit;
  return null;
}

/** A Khmer piece up to the first space in it (three letters at least before it), or undefined where it has none. */
function khmerCut<P extends { text: string; start: number; end: number; chars: number }>(piece: P, at: { run: number; from: number; to: number },
  run: KhmerRun): (P & { khmer: { run: number; from: number; to: number } }) | undefined {
  for (let k = at.from + 3; k < at.to; k++) {
    if (run.offsets[k]! > run.ends[k - 1]!) {
      return { ...piece, text: run.text.slice(at.from, k), end: run.ends[k - 1]!, chars: k - at.from, khmer: { run: at.run, from: at.from, to: k } };
    }
  }
  return undefined;
}

/** Whether Latin words [from, to) sit between unit words of two levels, in their part (`Commune Kampong Siem District`). */
function betweenLevels(words: readonly LatinWord[], span: { from: number; to: number } | undefined): boolean {
  if (span === undefined) return false;
  const before = words[span.from - 1];
  const after = words[span.to];
  const segment = words[span.from]!.segment;
  return before?.unit != null && after?.unit != null && before.segment === segment && after.segment === segment && before.unit !== after.unit;
}

/** A Roman numeral I to IV, standing alone, after a Khmer letter or sign and at most a space. */
const ROMAN_AFTER_KHMER = /(?<=[\u1780-\u17ff][\s\u200b]?)(?:IV|I{1,3})(?![A-Za-z0-9])/g;
const ROMAN_VALUE: Record<string, number> = { I: 1, II: 2, III: 3, IV: 4 };
const KHMER_LETTER = /[\u1780-\u17ff]/;

/** A zero starting a word, a hyphen or an apostrophe and a letter after it: the letter O as typed in a name (`0-Raing`). */
const ZERO_FOR_O = /(?<![A-Za-z0-9])0(?=[-'’][A-Za-z])/g;

/** Edits orderTies and closestSpelt count up to (further is as far). */
const TIE_DISTANCE_MAX = 8;

/** A Latin span as typed, its letters and digits in lower case, for counting edits to names (typedDistance). */
function typedKey(text: string, span: Mention): string {
  return text.slice(span.start, span.end).toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Added to a child nearestChild finds by its loose key only, a letter off (units number far fewer). */
const LOOSE_ONLY = 1 << 24;

/** Letters a child's key must share with the start of the piece's for soundsLikeChild to prefer it over others an edit further. */
const SHARED_START_MIN = 3;

/** How many first characters two strings share. */
function sharedStart(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The weight of a name read by a part of the piece a unit word marks (see isPartOfPiece). */
const PART_OF_PIECE = 0.8;

/** English unit words (Latin ones, Phum or Khum, come before the name). */
const ENGLISH_UNIT_WORDS = new Set(['province', 'district', 'commune', 'village', 'city', 'capital', 'municipality', 'town', 'quarter',
  'provinces', 'districts', 'communes', 'villages']);
/** English unit words that follow the name (Kampot Province, Chamkar Mon District, Siem Reap City). */
const TRAILING = new Set(['province', 'district', 'commune', 'village', 'provinces', 'districts', 'communes', 'villages', 'city', 'capital', 'municipality', 'town', 'quarter', 'khan', 'srok', 'krong',
  'khet', 'khaet', 'sangkat', 'khum', 'phum', 'phoum', 'dorf', 'gemeinde', 'distrikt', 'bezirk', 'provinz']);

/** Pieces of a Khmer run read with a typo up to their first space, at most (see khmerTypoMentions). */
const KHMER_TYPO_CUTS = 2;

/** Most characters between the first village-and-commune pair and the second commune (see pairedCommune). */
const PAIR_GAP_MAX = 60;

/** Fewest consonants a Latin name's skeleton (latinSkeleton) needs to be read by sound. */
const LATIN_SOUND_MIN = 3;

/** A unit's Khmer name as completion compares it with a piece (AddressResolver.khmerFormsOf). */
interface KhmerForm {
  text: string;
  digits: string;
}

/** The filler words (LATIN_FILLER) that end some unit's Latin name: Preaek Ta In, Svay At (a test keeps it so). */
export const NAME_FINAL_FILLERS: ReadonlySet<string> = new Set(['in', 'at']);

/** Shortest loose key (see looseKey) compared with a child's a letter apart in completion (nearestChild). */
const LOOSE_TYPO_MIN = 6;

/** Words a number may follow (Ti Muoy, Lekh 3, Pram Pir): a span ending in one may still grow into a name. */
const NUMBER_LEAD = new Set(['ti', 'ty', 'lekh', 'no', 'pram', 'bram']);

/**
 * Khmer words before a name that make it a facility's (អាងទឹក reservoir, វិទ្យាល័យ high school, មន្ទីរពេទ្យ hospital, ...):
 * none is in a unit's Khmer name or alias (a test keeps it so). Normalised as a Khmer run is (coeng-ta).
 */
export const FACILITY_BEFORE_KM: readonly string[] = ['អាងទឹក', 'វិទ្យាល័យ', 'មន្ទីរពេទ្យ', 'មណ្ឌលសុខភាព', 'បឋមសិក្សា', 'សណ្ឋាគារ',
  'ភោជនីយដ្ឋាន', 'ធនាគារ', 'ច្រកព្រំដែន', 'ព្រលានយន្តហោះ', 'ការិយាល័យ', 'មជ្ឈមណ្ឌល'];

/** វត្ត, a pagoda: before a name not after a unit word, the pagoda's name (វត្តតាមាន់សែនជ័យ ភូមិតាហាំ: Ta Ham village). */
const PAGODA = 'វត្ត';
const FACILITY_WORDS_KM: readonly string[] = [...FACILITY_BEFORE_KM, PAGODA];

/**
 * The characters of a Khmer run that follow a facility word (FACILITY_BEFORE_KM) up to the next unit word: the facility's
 * own name, where no span starts. A few searches of a run of at most MAX_ADDRESS_LENGTH characters.
 */
function facilityNames(text: string, isBoundary: Uint8Array, unitWords: KhmerRun['unitWords']): Uint8Array | undefined {
  let marks: Uint8Array | undefined;
  for (const word of FACILITY_WORDS_KM) {
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      if (!isBoundary[at]) continue;
      // វត្ត begins names too (វត្តភ្នំ, វត្តកណ្តាល): after a unit word it is the name's, and a name that begins with it
      // is still read (only what follows it is the pagoda's).
      if (word === PAGODA && unitWords.some((w) => w.end === at)) continue;
      let to = text.length;
      for (const w of unitWords) if (w.start >= at + word.length && w.start < to) to = w.start;
      marks ??= new Uint8Array(text.length + 1);
      marks.fill(1, at + word.length, to);
    }
  }
  return marks;
}

/** Words after a name that make it a facility's (no unit's Latin name has one; a test keeps it so). */
export const FACILITY_AFTER: ReadonlySet<string> = new Set(['school', 'college', 'university', 'pagoda', 'market', 'sez', 'hospital', 'clinic',
  'hotel', 'resort', 'primary', 'secondary', 'high', 'health', 'church', 'mosque', 'temple', 'factory', 'station', 'guesthouse', 'border',
  'checkpoint', 'park', 'special', 'economic', 'industrial', 'company', 'garment', 'plantation', 'port', 'airport', 'bridge', 'reservoir',
  'stadium', 'office', 'centre', 'center', 'bank', 'restaurant', 'cafe', 'shop', 'mall', 'supermarket', 'lodge', 'hostel', 'bungalow',
  'headquarters', 'orphanage', 'monastery', 'institute', 'academy', 'kindergarten', 'farm']);

/** English unit words a name's number may follow (see AddressResolver.numberAfterUnitWord), and such a number. */
const NUMBERED_AFTER = new Set(['village', 'commune', 'quarter']);
const NUMBER_WORD = /^(?:\d{1,2}|ii|iii|iv)$/;

const hasKhmerLetter = (text: string) => /[\u1780-\u17FF]/.test(text);

function overlaps(a: Mention, b: Mention): boolean {
  return a.start >= 0 && b.start >= 0 && a.start < b.end && b.start < a.end
    // One name written once for two levels (see Mention.twice), read for two units.
    && !(a.twice && b.twice && a.start === b.start && a.end === b.end && a.u !== b.u);
}

/**
 * The most that completing a reading with `steps` of its pieces can add to its score: each child found weighs its
 * piece's characters as a typo, with a unit word that agrees (see AddressResolver.mention), plus the level tie-break.
 */
function completionGain(pieces: readonly { chars: number }[], steps: number): number {
  let first = 0;
  let second = 0;
  for (const { chars } of pieces) {
    if (chars > first) {
      second = first;
      first = chars;
    } else if (chars > second) second = chars;
  }
  return (first + (steps > 1 ? second : 0)) * BASE.typo * HINT_AGREES + 0.02 * steps;
}

/** The most completion can add to a reading of a commune (`one`: a village) and of a district or province (`two`). */
interface CompletionCaps {
  one: number;
  two: number;
}

/**
 * The most that completion (AddressResolver.complete) can add to any reading's score: completionGain of the largest
 * place a piece can come from (one step: a commune's village), or of the two largest (two steps, for a district or a
 * province: a child, then a grandchild in the second round). A piece lies within one Khmer run (unit words excluded)
 * or one segment of Latin words (unit words and fillers excluded), and the two pieces of two rounds are disjoint:
 * together at most the two largest such places (or the largest alone, if both come from it).
 */
function completionCap(tokens: ReturnType<typeof tokenise>): CompletionCaps {
  const places: { chars: number }[] = [];
  for (const run of tokens.khmer) places.push({ chars: run.text.length - run.unitWords.reduce((sum, w) => sum + (w.end - w.start), 0) });
  let segment = -1;
  for (const w of tokens.latin) {
    if (w.segment !== segment) {
      segment = w.segment;
      places.push({ chars: 0 });
    }
    if (!w.unit && !w.filler) places.at(-1)!.chars += w.word.length;
  }
  return { one: completionGain(places, 1), two: completionGain(places, 2) };
}

/** What completion can add to a reading of a unit at this depth (LEVEL_DEPTH): a village has no children. */
function completionCapAt(caps: CompletionCaps, depth: number): number {
  return depth === VILLAGE_DEPTH ? -Infinity : depth === LEVEL_DEPTH.commune ? caps.one : caps.two;
}

/** Name characters in the input (unit words and fillers excluded): the denominator of coverage. */
function nameChars(khmer: readonly KhmerRun[], latin: readonly LatinWord[]): number {
  let total = 0;
  for (const run of khmer) total += run.text.length - run.unitWords.reduce((s, w) => s + (w.end - w.start), 0);
  for (const w of latin) if (!w.unit && !w.filler) total += w.word.length;
  return total;
}

/** How well the reading's mentions matched: the mean of their base weights. */
function quality(reading: Reading): number {
  // The span of tied children counts as read (see Reading.tied): it may be all the parent's reading has.
  const named = reading.tied ? [...reading.mentions, reading.tied.span] : reading.mentions;
  return named.reduce((s, m) => s + BASE[m.how] * (reading.former.some(([, f]) => f === m.u) ? BASE.former : 1), 0) / named.length;
}

