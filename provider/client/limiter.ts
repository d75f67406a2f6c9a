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
    /** Requests per second at most; 0 or less lets every request through at once. */
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

/** What identifies one credential's limiter: the limit belongs to the token at one service. */
export interface LimiterKey {
  /** The API token whose requests are limited. */
  readonly token: string;
  /** The service's base URL. */
  readonly baseUrl: string;
  /** Requests per second; limiters of one credential with different rates are kept apart. */
  readonly perSecond: number;
}

/**
 * Rate limiters by credential, for clients that are meant to share them. Sharing is what keeps many
 * clients of one token (ten resources refreshing at once, say) under the service's limit together. A
 * caller with its own notion of time passes its clock; `SHARED_LIMITERS` is the one clients use by default.
 */
export class LimiterRegistry {
  private readonly limiters = new Map<string, RateLimiter>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** The limiter of one credential, made on first use and shared by every later caller of this registry. */
  limiterFor(key: LimiterKey): RateLimiter {
    const id = `${key.baseUrl}\u0000${key.token}\u0000${key.perSecond}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiter(key.perSecond, this.clock);
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

/**
 * The rate limiters of this process, on its clock: every client of a token in the process waits on one,
 * including the clients a second copy of the package (the runtime bundle) makes, and the resources'.
 */
const PROCESS_LIMITERS = contextKey(
  "rate limiters per credential",
  (context) => new LimiterRegistry(context.clock),
);

/** The process's registry, behind the `LimiterRegistry` that `SHARED_LIMITERS` has always been. */
class ProcessLimiters extends LimiterRegistry {
  override limiterFor(key: LimiterKey): RateLimiter {
    return processContext().get(PROCESS_LIMITERS).limiterFor(key);
  }
}

/**
 * The registry a ServiceClient takes its limiter from when its options name none: every client of a
 * token in this process waits on the same limiter, kept in the process context (context/process.ts), on
 * its clock. Pass `limiter` to a client to share one differently, or to keep a client apart.
 */
export const SHARED_LIMITERS: LimiterRegistry = new ProcessLimiters();

/** The limiter `SHARED_LIMITERS` keeps for one credential: pass it as a client's `limiter` to share it explicitly. */
export function sharedLimiter(key: LimiterKey): RateLimiter {
  return SHARED_LIMITERS.limiterFor(key);
}
