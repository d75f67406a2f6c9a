/**
 * Time as the client sees it. The defaults look up the globals on every call, so fake timers installed
 * after this module loads still take effect.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};
