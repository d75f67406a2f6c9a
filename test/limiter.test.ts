import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLimiter } from "../provider/client/limiter";
import { backoffMs, DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from "../provider/client/retry";

describe("RateLimiter (fake time)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("starts at most N requests within a second of the previous answers", async () => {
    const limiter = new RateLimiter(10);
    const granted: number[] = [];
    // Each request is answered 30 ms after it starts.
    const all = Array.from({ length: 25 }, () =>
      limiter.acquire().then((release) => {
        granted.push(Date.now());
        setTimeout(release, 30);
      }),
    );
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all(all);
    expect(granted).toHaveLength(25);
    for (let i = 10; i < granted.length; i++)
      expect(granted[i]! - granted[i - 10]!).toBeGreaterThanOrEqual(1035);
    expect(granted.slice(0, 10).every((t) => t === 0)).toBe(true);
    expect(granted[10]).toBe(1035);
  });

  it("does not start an 11th request while ten are still unanswered", async () => {
    const limiter = new RateLimiter(10);
    const releases: (() => void)[] = [];
    for (let i = 0; i < 10; i++) releases.push(await limiter.acquire());
    let eleventh = false;
    const next = limiter.acquire().then(() => {
      eleventh = true;
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(eleventh).toBe(false);
    releases[0]!();
    await vi.advanceTimersByTimeAsync(1004);
    expect(eleventh).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await next;
    expect(eleventh).toBe(true);
  });

  it("holds every caller until a Retry-After pause ends", async () => {
    const limiter = new RateLimiter(10);
    limiter.pauseUntil(3000);
    let at = -1;
    const done = limiter.acquire().then(() => {
      at = Date.now();
    });
    await vi.advanceTimersByTimeAsync(2999);
    expect(at).toBe(-1);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(at).toBe(3000);
  });
});

describe("retryDelay", () => {
  const base = { attempt: 1, elapsedMs: 0, random: 0.5, retrySafe: true };

  it("backs off exponentially with jitter, capped", () => {
    expect([1, 2, 3, 10].map((n) => backoffMs(DEFAULT_RETRY_POLICY, n, 0))).toEqual([125, 250, 500, 4000]);
    expect(backoffMs(DEFAULT_RETRY_POLICY, 10, 0.999)).toBeLessThan(8000);
  });

  it("retries 5xx and lost answers only for routes that are safe to repeat", () => {
    expect(retryDelay(DEFAULT_RETRY_POLICY, { ...base, failure: { kind: "server", status: 502 } })).toBe(
      187.5,
    );
    expect(
      retryDelay(DEFAULT_RETRY_POLICY, {
        ...base,
        retrySafe: false,
        failure: { kind: "server", status: 503 },
      }),
    ).toBeUndefined();
    expect(
      retryDelay(DEFAULT_RETRY_POLICY, {
        ...base,
        retrySafe: false,
        failure: { kind: "network", sent: true },
      }),
    ).toBeUndefined();
    expect(
      retryDelay(DEFAULT_RETRY_POLICY, {
        ...base,
        retrySafe: false,
        failure: { kind: "network", sent: false },
      }),
    ).toBe(187.5);
  });

  it("honours Retry-After for any route, whatever the attempt, within the budget", () => {
    const limited = (retryAfterMs: number | undefined, more: object = {}) => ({
      ...base,
      retrySafe: false,
      failure: { kind: "rate_limited" as const, retryAfterMs },
      ...more,
    });
    expect(retryDelay(DEFAULT_RETRY_POLICY, limited(2000))).toBe(2000);
    expect(retryDelay(DEFAULT_RETRY_POLICY, limited(2000, { attempt: 40 }))).toBe(2000);
    expect(retryDelay(DEFAULT_RETRY_POLICY, limited(45_000))).toBe(45_000);
    expect(retryDelay(DEFAULT_RETRY_POLICY, limited(45_000, { elapsedMs: 15_001 }))).toBeUndefined();
    expect(retryDelay(DEFAULT_RETRY_POLICY, limited(61_000))).toBeUndefined();
  });

  it("gives up after the attempt and time budgets", () => {
    const failure = { kind: "server" as const, status: 500 };
    expect(retryDelay(DEFAULT_RETRY_POLICY, { ...base, attempt: 6, failure })).toBeUndefined();
    expect(retryDelay(DEFAULT_RETRY_POLICY, { ...base, elapsedMs: 59_900, failure })).toBeUndefined();
  });

  it("parses Retry-After seconds and dates", () => {
    expect(parseRetryAfter("3", 0)).toBe(3000);
    expect(parseRetryAfter(new Date(5000).toUTCString(), 0)).toBe(5000);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
});
