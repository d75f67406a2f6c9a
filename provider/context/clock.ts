/**
 * Time as the client sees it. The defaults look up the globals on every call, so fake timers installed
 * after this module loads still take effect.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  /** Resolves after `ms` milliseconds; at once for 0 or less. */
  sleep(ms: number): Promise<void>;
}

/** The real clock: `Date.now` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};
