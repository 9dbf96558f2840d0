/** Strings sorted once, each pointing at a unit, for prefix lookups by binary search: O(log n + matches). */
export class SortedKeys {
  /** `keys` in ascending order, with the unit of each key at the same index (see SortedKeysBuilder). */
  constructor(readonly keys: readonly string[], readonly units: Int32Array) {}

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

/** Collects key/unit pairs, then sorts them into a SortedKeys. */
export class SortedKeysBuilder {
  /** Parallel lists (a key and its unit at the same index): no pair arrays, which cost GC at start. */
  private readonly keys: string[] = [];
  private readonly units: number[] = [];

  push(key: string, unit: number): void {
    this.keys.push(key);
    this.units.push(unit);
  }

  build(): SortedKeys {
    const { keys, units } = this;
    const order = new Int32Array(keys.length).map((_, i) => i);
    order.sort((a, b) => {
      const ka = keys[a]!;
      const kb = keys[b]!;
      return ka < kb ? -1 : ka > kb ? 1 : units[a]! - units[b]!;
    });
    return new SortedKeys(Array.from(order, (i) => keys[i]!), order.map((i) => units[i]!));
  }
}
