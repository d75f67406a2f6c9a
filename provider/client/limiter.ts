import { type Clock, systemClock } from "./clock";

/**
 * Keeps one credential under the service's request rate: at most `perSecond` requests start in any
 * window of one second plus a margin. The margin absorbs the gap between when the client starts a
 * request and when the server counts it, which would otherwise let the server see one request too many.
 */
export class RateLimiter {
  private readonly started: number[] = [];
  private pausedUntil = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    readonly perSecond: number,
    private readonly clock: Clock = systemClock,
    private readonly windowMs = 1000 + 25,
  ) {}

  /** Resolves when the caller may start a request; callers are served in arrival order. */
  acquire(): Promise<void> {
    const turn = this.tail.then(() => this.waitForSlot());
    this.tail = turn;
    return turn;
  }

  /** Stops every caller of this credential until `untilMs`, as a 429's Retry-After asks. */
  pauseUntil(untilMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, untilMs);
  }

  private async waitForSlot(): Promise<void> {
    if (this.perSecond <= 0) return;
    for (;;) {
      const now = this.clock.now();
      if (now < this.pausedUntil) {
        await this.clock.sleep(this.pausedUntil - now);
        continue;
      }
      while (this.started.length > 0 && this.started[0]! <= now - this.windowMs) this.started.shift();
      if (this.started.length < this.perSecond) {
        this.started.push(now);
        return;
      }
      await this.clock.sleep(this.started[0]! + this.windowMs - now);
    }
  }
}

const shared = new Map<string, RateLimiter>();

/**
 * The limiter for one credential, shared by every client in the process, so that many resources
 * refreshing at once still stay under the service's limit together.
 */
export function sharedLimiter(key: string, perSecond: number, clock?: Clock): RateLimiter {
  const id = `${key}\u0000${perSecond}`;
  let limiter = shared.get(id);
  if (!limiter) {
    limiter = new RateLimiter(perSecond, clock);
    shared.set(id, limiter);
  }
  return limiter;
}
