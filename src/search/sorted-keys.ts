/** Strings sorted once, each pointing at a unit, for prefix lookups by binary search: O(log n + matches). */
export class SortedKeys {
  private readonly keys: string[];
  private readonly units: Int32Array;

  constructor(entries: Iterable<readonly [key: string, unit: number]>) {
    const list = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    this.keys = list.map((e) => e[0]);
    this.units = Int32Array.from(list.map((e) => e[1]));
  }

  get size(): number {
    return this.keys.length;
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
