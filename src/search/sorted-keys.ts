/** Strings sorted once, each pointing at a unit, for prefix lookups by binary search: O(log n + matches). */
export class SortedKeys {
  private readonly keys: string[];
  private readonly units: Int32Array;

  /** Builds from parallel lists (a key and its unit at the same index): no pair arrays, which cost GC at start. */
  constructor(keys: readonly string[], units: readonly number[]) {
    const order = new Int32Array(keys.length).map((_, i) => i);
    order.sort((a, b) => {
      const ka = keys[a]!;
      const kb = keys[b]!;
      return ka < kb ? -1 : ka > kb ? 1 : units[a]! - units[b]!;
    });
    this.keys = Array.from(order, (i) => keys[i]!);
    this.units = order.map((i) => units[i]!);
  }

  /** Calls `visit` with the unit of every key that starts with `prefix`. */
  forPrefix(prefix: string, visit: (unit: number) => void): void {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.keys.length && this.keys[i]!.startsWith(prefix); i++) visit(this.units[i]!);
  }
}

/** Collects key/unit pairs into the parallel lists SortedKeys takes. */
export class SortedKeysBuilder {
  readonly keys: string[] = [];
  readonly units: number[] = [];

  push(key: string, unit: number): void {
    this.keys.push(key);
    this.units.push(unit);
  }

  build(): SortedKeys {
    return new SortedKeys(this.keys, this.units);
  }
}
