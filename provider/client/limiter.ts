import { type Clock, systemClock } from "../context/clock";
import { contextKey, processContext } from "../context/process";

/**
 * Keeps one credential under the service's request rate: at most `perSecond` requests in any window of
 * one second. A request holds its slot from the moment it starts until one second after its answer
 * arrived: the server counted it somewhere in between, so only then can no window on the server's side
 * hold it together with a request that starts now.
 */
export class RateLimiter {
  /** One per recent request: when its answer came back, or Infinity while it is in flight. */
  private slots: { at: number }[] = [];
  private pausedUntil = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private wake: (() => void) | undefined;

  constructor(
    readonly perSecond: number,
    private readonly clock: Clock = systemClock,
    private readonly windowMs = 1000 + 5,
  ) {}

  /**
   * Resolves when the caller may start a request, with the function to call once its answer (or its
   * failure) has arrived. Callers are served in arrival order.
   */
  acquire(): Promise<() => void> {
    const turn = this.tail.then(() => this.waitForSlot());
    this.tail = turn;
    return turn;
  }

  /** Stops every caller of this credential until `untilMs`, as a 429's Retry-After asks. */
  pauseUntil(untilMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, untilMs);
  }

  private async waitForSlot(): Promise<() => void> {
    if (this.perSecond <= 0) return () => {};
    for (;;) {
      const now = this.clock.now();
      if (now < this.pausedUntil) {
        await this.clock.sleep(this.pausedUntil - now);
        continue;
      }
      this.slots = this.slots.filter((s) => s.at > now - this.windowMs);
      if (this.slots.length < this.perSecond) {
        const slot = { at: Number.POSITIVE_INFINITY };
        this.slots.push(slot);
        return () => this.release(slot);
      }
      const soonest = Math.min(...this.slots.map((s) => s.at));
      if (Number.isFinite(soonest)) await this.clock.sleep(soonest + this.windowMs - now);
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private release(slot: { at: number }): void {
    if (Number.isFinite(slot.at)) return;
    slot.at = this.clock.now();
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

const LIMITERS = contextKey("rate limiters per credential", () => new Map<string, RateLimiter>());

/**
 * The limiter for one credential, shared by every client in the process, so that many resources
 * refreshing at once still stay under the service's limit together.
 */
export function sharedLimiter(key: string, perSecond: number): RateLimiter {
  const context = processContext();
  const limiters = context.get(LIMITERS);
  const id = `${key}\u0000${perSecond}`;
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = new RateLimiter(perSecond, context.clock);
    limiters.set(id, limiter);
  }
  return limiter;
}
