/**
 * The history of the units (data/history.json) indexed for lookups: events by code, retired codes and their
 * successors, former codes, former parents and former names. Pure: no I/O, no HTTP.
 */
import type { History, RetiredCode, Unit, UnitEvent } from './types.js';
import { unitId } from './uuid.js';

/** A name a unit (or a code it replaced) had before; `code` is today's unit. */
export interface FormerName {
  code: string;
  name: string;
  script: 'km' | 'latin';
  /** The event or retired code the name comes from. */
  from: string;
}

export const EMPTY_HISTORY: History = { version: '', events: [], retired: [] };

const KM_TYPE_PREFIX = /^(?:ខណ្ឌ|ក្រុង|ស្រុក|ឃុំ|សង្កាត់|ខេត្ត|រាជធានី|ភូមិ)/;

/** Comparison key of a name: Khmer without a unit type in front and without spaces; Latin lowercase ASCII letters. */
export function formerNameKey(name: string): string {
  const bounded = name.slice(0, 200).normalize('NFC');
  if (/[\u1780-\u17FF]/.test(bounded)) return bounded.replace(/[\u200B-\u200D\uFEFF\s]/g, '').replace(KM_TYPE_PREFIX, '');
  return bounded.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '');
}

const byLengthThenCode = (a: string, b: string) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0);

export class HistoryIndex {
  private readonly eventsByCode = new Map<string, UnitEvent[]>();
  private readonly retiredByCode = new Map<string, RetiredCode>();
  /** The UUID a retired code had (ids derive from codes, so a retired code's id is known). */
  private readonly retiredById = new Map<string, string>();
  /** Today's code -> the codes it replaced (directly). */
  private readonly predecessorsOf = new Map<string, string[]>();
  private readonly namesByKey = new Map<string, FormerName[]>();
  readonly formerNames: readonly FormerName[];

  /** Khmer name key -> the Latin name of today's units so named, when they all have one (null when they differ). */
  private readonly latinByKhmer = new Map<string, string | null>();

  constructor(
    readonly history: History,
    private readonly unitOf: (code: string) => Unit | undefined,
    private readonly ancestorCodes: (code: string) => string[],
    units: readonly Unit[] = [],
  ) {
    // Only the Khmer names a note gives without a Latin one are looked for (tens), and a unit's name is keyed only
    // when it has a space or a unit word in front, which its key leaves out (the dataset's names are NFC already).
    const wanted = new Set<string>();
    for (const e of history.events) if (e.name_before?.km && !e.name_before.latin) wanted.add(formerNameKey(e.name_before.km));
    if (wanted.size > 0) {
      for (const u of units) {
        const key = u.name_km.includes(' ') || KM_TYPE_PREFIX.test(u.name_km) ? formerNameKey(u.name_km) : u.name_km;
        if (!wanted.has(key)) continue;
        const known = this.latinByKhmer.get(key);
        if (known === undefined) this.latinByKhmer.set(key, u.name_latin);
        else if (known !== null && formerNameKey(known) !== formerNameKey(u.name_latin)) this.latinByKhmer.set(key, null);
      }
    }
    for (const e of history.events) {
      const list = this.eventsByCode.get(e.code) ?? [];
      list.push(e);
      this.eventsByCode.set(e.code, list);
      for (const p of e.predecessors) {
        const preds = this.predecessorsOf.get(e.code) ?? [];
        if (!preds.includes(p)) preds.push(p);
        this.predecessorsOf.set(e.code, preds);
      }
    }
    for (const r of history.retired) {
      this.retiredByCode.set(r.code, r);
      this.retiredById.set(unitId(r.code), r.code);
    }
    // Retired codes replaced by a split or a same-name unit are former codes of their successors too.
    for (const r of history.retired) {
      for (const s of r.successors) {
        const preds = this.predecessorsOf.get(s) ?? [];
        if (!preds.includes(r.code)) preds.push(r.code);
        this.predecessorsOf.set(s, preds);
      }
    }
    this.formerNames = this.collectFormerNames();
    for (const former of this.formerNames) {
      const key = formerNameKey(former.name);
      const list = this.namesByKey.get(key) ?? [];
      list.push(former);
      this.namesByKey.set(key, list);
    }
  }

  /** Today's units for a code: itself if it exists, else its successors. */
  private today(code: string): string[] {
    if (this.unitOf(code)) return [code];
    return this.retiredByCode.get(code)?.successors ?? [];
  }

  private collectFormerNames(): FormerName[] {
    const names: FormerName[] = [];
    const seen = new Set<string>();
    const add = (code: string, name: string | null, from: string) => {
      // A former name is in one script: a Khmer name with a Latin letter in it is a typing slip in the note.
      if (!name || (/[\u1780-\u17FF]/.test(name) && /[A-Za-z0-9]/.test(name))) return;
      const unit = this.unitOf(code);
      if (!unit) return;
      const key = formerNameKey(name);
      if (key === '' || key === formerNameKey(unit.name_km) || key === formerNameKey(unit.name_latin)) return;
      const id = `${code}\t${key}`;
      if (seen.has(id)) return;
      seen.add(id);
      names.push({ code, name, script: /[\u1780-\u17FF]/.test(name) ? 'km' : 'latin', from });
    };
    for (const e of this.history.events) {
      if (!e.name_before) continue;
      // A former Khmer name the notes give without a Latin one (Tuek Chhou was ស្រុកកំពត) is romanised as today's
      // units of that Khmer name all are (Kampot), when there are such units.
      const latin = e.name_before.latin ?? (e.name_before.km ? this.latinByKhmer.get(formerNameKey(e.name_before.km)) ?? null : null);
      for (const code of this.today(e.code)) {
        add(code, e.name_before.km, `${e.event} ${e.code}`);
        add(code, latin, e.name_before.latin ? `${e.event} ${e.code}` : `${e.event} ${e.code}, romanised as today's units of its Khmer name`);
      }
    }
    for (const r of this.history.retired) {
      for (const code of r.successors) {
        add(code, r.name_km, `retired ${r.code}`);
        add(code, r.name_latin, `retired ${r.code}`);
      }
    }
    return names;
  }

  isRetired(code: string): boolean {
    return !this.unitOf(code) && this.retiredByCode.has(code);
  }

  retired(code: string): RetiredCode | undefined {
    return this.unitOf(code) ? undefined : this.retiredByCode.get(code);
  }

  /** The retired code whose id this was (ids are UUIDv5 of the code, so a retired unit's id is still known). */
  retiredCodeOfId(id: string): string | undefined {
    const code = this.retiredById.get(id.toLowerCase());
    return code !== undefined && this.isRetired(code) ? code : undefined;
  }

  /** Today's units that replaced a retired code (following every recode); empty for a current or unknown code. */
  successorsOf(retiredCode: string): string[] {
    return this.retired(retiredCode)?.successors ?? [];
  }

  /** Every code this unit had before (transitively), most recent first as recorded. */
  formerCodesOf(code: string): string[] {
    const result: string[] = [];
    const queue = [...(this.predecessorsOf.get(code) ?? [])];
    while (queue.length > 0) {
      const c = queue.shift()!;
      if (result.includes(c) || c === code) continue;
      result.push(c);
      queue.push(...(this.predecessorsOf.get(c) ?? []));
    }
    return result;
  }

  /**
   * The events of a unit: its own, those of the codes it had before, and (for a retired code) the events that
   * replaced it. Ordered by date (legal date, else pumi's sync date; undated last).
   */
  historyOf(code: string): UnitEvent[] {
    const codes = new Set([code, ...this.formerCodesOf(code)]);
    const events = new Set<UnitEvent>();
    for (const c of codes) for (const e of this.eventsByCode.get(c) ?? []) events.add(e);
    // The events of today's units that name this code as a predecessor (a retired code's recode or split).
    for (const s of this.retired(code)?.successors ?? []) {
      for (const e of this.eventsByCode.get(s) ?? []) if (e.predecessors.includes(code)) events.add(e);
    }
    const when = (e: UnitEvent) => e.date ?? e.recorded ?? '9999';
    return [...events].sort((a, b) => when(a).localeCompare(when(b)) || byLengthThenCode(b.code, a.code));
  }

  /**
   * Codes of the units that contained this unit before a reform and no longer do, nearest level first: e.g. a
   * sangkat now in Khan Boeng Keng Kang (1213) was in Khan Chamkar Mon (1201). Includes the former codes of its
   * ancestors (a village of commune 121301 was in commune 120102) and former provinces (Tboung Khmum's units were
   * in Kampong Cham, 03). Empty for a unit that never moved, or an unknown code.
   */
  formerParentsOf(code: string): string[] {
    if (!this.unitOf(code)) return [];
    const ancestors = this.ancestorCodes(code);
    const now = new Set([code, ...ancestors]);
    const result = new Set<string>();
    for (const c of [code, ...ancestors]) {
      for (const k of [c, ...this.formerCodesOf(c)]) {
        for (const e of this.eventsByCode.get(k) ?? []) for (const p of e.former_parents) result.add(p);
      }
      if (c !== code) for (const f of this.formerCodesOf(c)) result.add(f);
    }
    return [...result].filter((p) => !now.has(p) && p.length < code.length).sort(byLengthThenCode);
  }

  /** Today's units that once had this name (exact, after normalisation: Khmer spacing, Latin case and accents). */
  byFormerName(name: string): FormerName[] {
    return this.namesByKey.get(formerNameKey(name)) ?? [];
  }
}
