/**
 * What the address resolver works out once per unit and is slow to work out (AddressResolver in ./resolve.ts), by unit
 * index (the gazetteer's order). The build saves it in the resolver's snapshot (./snapshot.ts), so that a start reads
 * it instead of working it out again as addresses come: about 300 ms of CPU for all units, in 0.35 MB of heap. (The
 * units' Latin and Khmer forms were saved too for a while: 130 and 60 ms more, but 4 MB more of heap in every process,
 * which the service's memory budget could not spare; they are worked out as addresses need them.)
 */
export interface UnitTables {
  /** The units that had another parent before a reform, each with those parents (units): [unit, [parent, ...]]. */
  former: [number, number[]][];
  /** The digits in each unit's Latin name, numbers read ("Ti Muoy" is 1): mostly empty. */
  digits: string[];
}

const isUnit = (count: number) => (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) < count;

/** Whether `tables` has the shape of the tables of `count` units (a snapshot's, read from a file). */
export function checkUnitTables(tables: unknown, count: number): tables is UnitTables {
  if (typeof tables !== 'object' || tables === null) return false;
  const t = tables as Record<keyof UnitTables, unknown>;
  const unit = isUnit(count);
  return Array.isArray(t.former) && t.former.every((entry) => Array.isArray(entry) && entry.length === 2 && unit(entry[0])
      && Array.isArray(entry[1]) && entry[1].length > 0 && entry[1].every(unit))
    && Array.isArray(t.digits) && t.digits.length === count && t.digits.every((d) => typeof d === 'string');
}
