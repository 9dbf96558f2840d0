/**
 * Each unit's forms as the address resolver compares them (AddressResolver in ./resolve.ts works them out), by unit
 * index (the gazetteer's order). The build saves them in the resolver's snapshot (./snapshot.ts), so that a start
 * reads them instead of working them out again as addresses come.
 */
export interface UnitTables {
  /** The units that had another parent before a reform, each with those parents (units): [unit, [parent, ...]]. */
  former: [number, number[]][];
  /** The digits in each unit's Latin name, numbers read ("Ti Muoy" is 1): mostly empty. */
  digits: string[];
  /** Each unit's Latin name written together: the name, and the name without its unit words when it has any. */
  latinCompacts: string[][];
  /** The loose keys of those forms (looseKey in ./resolve.ts), in the same order. */
  latinLoose: string[][];
  /** Each unit's Khmer name, normalised, and without its unit word when it has one. */
  khmerForms: string[][];
  /** The digits in each unit's normalised Khmer name. */
  khmerDigits: string[];
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((s) => typeof s === 'string');
const isUnit = (count: number) => (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) < count;

/** Whether `tables` has the shape of the tables of `count` units (a snapshot's, read from a file). */
export function checkUnitTables(tables: unknown, count: number): tables is UnitTables {
  if (typeof tables !== 'object' || tables === null) return false;
  const t = tables as Record<keyof UnitTables, unknown>;
  const unit = isUnit(count);
  const perUnit = (value: unknown, each: (v: unknown) => boolean) => Array.isArray(value) && value.length === count && value.every(each);
  return Array.isArray(t.former) && t.former.every((entry) => Array.isArray(entry) && entry.length === 2 && unit(entry[0])
      && Array.isArray(entry[1]) && entry[1].length > 0 && entry[1].every(unit))
    && perUnit(t.digits, (v) => typeof v === 'string') && perUnit(t.khmerDigits, (v) => typeof v === 'string')
    && perUnit(t.latinCompacts, isStrings) && perUnit(t.khmerForms, isStrings)
    && perUnit(t.latinLoose, isStrings)
    && (t.latinLoose as string[][]).every((keys, u) => keys.length === (t.latinCompacts as string[][])[u]!.length);
}
