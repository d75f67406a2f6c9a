import type { SandboxClock } from "./clock";

/** The service's "about 10 requests per second": a sliding one-second window per token. */
export class SlidingWindowLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(
    private readonly perSecond: number,
    private readonly clock: SandboxClock,
  ) {}

  /** Counts the request and returns undefined, or returns the seconds to wait when over the limit. */
  take(key: string): number | undefined {
    if (this.perSecond <= 0) return undefined;
    const now = this.clock.now();
    const window = (this.windows.get(key) ?? []).filter((t) => t > now - 1000);
    this.windows.set(key, window);
    if (window.length >= this.perSecond) {
      return Math.max(1, Math.ceil((window[0]! + 1000 - now) / 1000));
    }
    window.push(now);
    return undefined;
  }
}
