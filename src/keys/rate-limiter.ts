/**
 * Per-second limits, per key, in this process: a fixed one-second window. With several replicas each enforces the
 * plan's per-second limit on its own share of the traffic (documented); the monthly quota is the shared one.
 */
export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * Memory is bounded: only the current window counts, so when a new one starts every older one is forgotten (the
 * landing page's per-address limiter grew by ~180 bytes per address, forever); and within one window at most
 * `maxKeys` keys are kept, the oldest forgotten first (a flood from that many addresses in one window).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { second: number; count: number }>();
  /** The latest window seen: when time passes it, every window kept is over. */
  private current = -Infinity;

  /**
   * `windowMs`: the window's length (one second unless told; the dashboard's key actions use a minute).
   * `maxKeys`: most keys kept at once.
   */
  constructor(private readonly windowMs = 1000, private readonly maxKeys = 100_000) {}

  /** Keys (addresses, key ids) kept now. */
  get size(): number {
    return this.windows.size;
  }

  /** Takes one request from the key's window if there is room. */
  take(keyId: string, limit: number, nowMs: number = Date.now()): RateDecision {
    const second = Math.floor(nowMs / this.windowMs);
    if (second > this.current) {
      this.current = second;
      this.windows.clear();
    }
    let window = this.windows.get(keyId);
    if (!window || window.second !== second) {
      if (!window && this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
      window = { second, count: 0 };
      this.windows.set(keyId, window);
    }
    const resetSeconds = Math.max(1, Math.ceil(((second + 1) * this.windowMs - nowMs) / 1000));
    if (window.count >= limit) return { allowed: false, remaining: 0, resetSeconds };
    window.count++;
    return { allowed: true, remaining: limit - window.count, resetSeconds };
  }

  /** Forgets windows that ended (called now and then, so that idle keys do not pile up). */
  prune(nowMs: number = Date.now()): void {
    const second = Math.floor(nowMs / this.windowMs);
    for (const [keyId, window] of this.windows) if (window.second < second) this.windows.delete(keyId);
  }
}
