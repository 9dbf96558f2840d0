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

export class RateLimiter {
  private readonly windows = new Map<string, { second: number; count: number }>();

  /** `windowMs`: the window's length (one second unless told; the dashboard's key actions use a minute). */
  constructor(private readonly windowMs = 1000) {}

  /** Takes one request from the key's window if there is room. */
  take(keyId: string, limit: number, nowMs: number = Date.now()): RateDecision {
    const second = Math.floor(nowMs / this.windowMs);
    let window = this.windows.get(keyId);
    if (!window || window.second !== second) {
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
