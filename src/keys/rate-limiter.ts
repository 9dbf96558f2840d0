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

  /** Takes one request from the key's window if there is room. */
  take(keyId: string, limit: number, nowMs: number = Date.now()): RateDecision {
    const second = Math.floor(nowMs / 1000);
    let window = this.windows.get(keyId);
    if (!window || window.second !== second) {
      window = { second, count: 0 };
      this.windows.set(keyId, window);
    }
    if (window.count >= limit) return { allowed: false, remaining: 0, resetSeconds: 1 };
    window.count++;
    return { allowed: true, remaining: limit - window.count, resetSeconds: 1 };
  }

  /** Forgets windows that ended (called now and then, so that idle keys do not pile up). */
  prune(nowMs: number = Date.now()): void {
    const second = Math.floor(nowMs / 1000);
    for (const [keyId, window] of this.windows) if (window.second < second) this.windows.delete(keyId);
  }
}
