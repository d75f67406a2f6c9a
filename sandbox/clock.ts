/**
 * The sandbox's only source of time. Expiry, the rate limit and delivery retries all read it, so a
 * test can drive them with `ManualClock` instead of waiting.
 */
export interface SandboxClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` after `ms`; returns a function that cancels it. */
  schedule(fn: () => void, ms: number): () => void;
}

/** The wall clock, with timers that never keep the process alive. */
export const realClock: SandboxClock = {
  now: () => Date.now(),
  schedule(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** A clock that moves only when a test calls `advance`, running the timers that fall due in order. */
export class ManualClock implements SandboxClock {
  private current: number;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 0;

  /** @param start - The time it starts at, in milliseconds since the epoch; 2026-01-01T00:00Z by default. */
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  schedule(fn: () => void, ms: number): () => void {
    const id = this.nextId++;
    this.timers.push({ at: this.current + Math.max(0, ms), fn, id });
    return () => {
      this.timers = this.timers.filter((t) => t.id !== id);
    };
  }

  /** Moves time forward, running every timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = target;
  }
}
