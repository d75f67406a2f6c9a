import type { SandboxClock } from "./clock";

/** The window of the limit: one second. */
const WINDOW_MS = 1000;

/**
 * The service's "about 10 requests per second": a sliding one-second window per key (the parsed API
 * token). Windows with nothing left in them are forgotten, at most once per second, so that requests with
 * ever new keys cannot grow its memory without bound.
 */
export class SlidingWindowLimiter {
  private readonly windows = new Map<string, number[]>();
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly perSecond: number,
    private readonly clock: SandboxClock,
  ) {}

  /** Counts the request and returns undefined, or returns the seconds to wait when over the limit. */
  take(key: string): number | undefined {
    if (this.perSecond <= 0) return undefined;
    const now = this.clock.now();
    this.sweep(now);
    const window = (this.windows.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
    this.windows.set(key, window);
    if (window.length >= this.perSecond) {
      return Math.max(1, Math.ceil((window[0]! + WINDOW_MS - now) / 1000));
    }
    window.push(now);
    return undefined;
  }

  /** How many keys it remembers: those with a request in the last second, and at most a second's more. */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < WINDOW_MS) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) {
      if (window.every((t) => t <= now - WINDOW_MS)) this.windows.delete(key);
    }
  }
}
