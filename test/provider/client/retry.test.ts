import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AttemptFailure,
  backoffMs,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  type RetryInput,
  type RetryPolicy,
  retryDelay,
} from "../../../provider/client/retry";

/** Client retries: when a failure may be repeated and how long to wait. */

describe("retryDelay and backoffMs, by example", () => {
  const base = { attempt: 1, elapsedMs: 0, random: 0.5, retrySafe: true };

  it("allows a wait that ends exactly at the budget", () => {
    const failure = { kind: "rate_limited" as const, retryAfterMs: 1_000 };
    const input = { attempt: 1, elapsedMs: 59_000, failure, retrySafe: true, random: 0 };
    expect(retryDelay(DEFAULT_RETRY_POLICY, input)).toBe(1_000);
    expect(retryDelay(DEFAULT_RETRY_POLICY, { ...input, elapsedMs: 59_001 })).toBeUndefined();
  });

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

/**
 * retryDelay decides, alone, whether a failed request is sent again. Its promises: no wait ends past the
 * request's budget; a 429 is waited out however many attempts it takes; and a request that is not safe to
 * repeat is never sent again once it may have reached the service (a duplicate webhook otherwise).
 */
const policy: fc.Arbitrary<RetryPolicy> = fc
  .record({
    maxAttempts: fc.integer({ min: 1, max: 10 }),
    maxElapsedMs: fc.integer({ min: 0, max: 120_000 }),
    baseDelayMs: fc.integer({ min: 1, max: 2_000 }),
    extraDelayMs: fc.integer({ min: 0, max: 30_000 }),
  })
  .map(({ extraDelayMs, ...p }) => ({ ...p, maxDelayMs: p.baseDelayMs + extraDelayMs }));

const failure: fc.Arbitrary<AttemptFailure> = fc.oneof(
  fc.record({
    kind: fc.constant("rate_limited" as const),
    retryAfterMs: fc.option(fc.integer({ min: 0, max: 90_000 }), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant("server" as const), status: fc.integer({ min: 500, max: 599 }) }),
  fc.record({ kind: fc.constant("network" as const), sent: fc.boolean() }),
);

const input = (f: fc.Arbitrary<AttemptFailure> = failure): fc.Arbitrary<RetryInput> =>
  fc.record({
    attempt: fc.integer({ min: 1, max: 50 }),
    elapsedMs: fc.integer({ min: 0, max: 130_000 }),
    failure: f,
    retrySafe: fc.boolean(),
    random: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  });

describe("retryDelay (property)", () => {
  it("never waits past the budget, and never a negative time", () => {
    fc.assert(
      fc.property(policy, input(), (p, i) => {
        const delay = retryDelay(p, i);
        if (delay === undefined) return;
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(i.elapsedMs + delay).toBeLessThanOrEqual(p.maxElapsedMs);
      }),
      { numRuns: 500 },
    );
  });

  it("never repeats an unsafe request after a failure that may have reached the service", () => {
    const sent = fc.oneof(
      fc.record({ kind: fc.constant("server" as const), status: fc.integer({ min: 500, max: 599 }) }),
      fc.record({ kind: fc.constant("network" as const), sent: fc.constant(true) }),
    );
    fc.assert(
      fc.property(policy, input(sent), (p, i) => {
        expect(retryDelay(p, { ...i, retrySafe: false })).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("repeats any request that certainly never left, like a safe one, within both budgets", () => {
    const unsent = fc.record({ kind: fc.constant("network" as const), sent: fc.constant(false) });
    fc.assert(
      fc.property(policy, input(unsent), (p, i) => {
        const unsafe = retryDelay(p, { ...i, retrySafe: false });
        expect(unsafe).toBe(retryDelay(p, { ...i, retrySafe: true }));
        const backoff = backoffMs(p, i.attempt, i.random);
        const allowed = i.attempt < p.maxAttempts && i.elapsedMs + backoff <= p.maxElapsedMs;
        expect(unsafe).toBe(allowed ? backoff : undefined);
      }),
      { numRuns: 300 },
    );
  });

  it("waits out a 429 on any route whatever the attempt count, for exactly its Retry-After", () => {
    fc.assert(
      fc.property(
        policy,
        input(),
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 0, max: 90_000 }),
        (p, i, otherAttempt, retryAfterMs) => {
          const limited = { ...i, failure: { kind: "rate_limited" as const, retryAfterMs } };
          const delay = retryDelay(p, limited);
          expect(retryDelay(p, { ...limited, attempt: otherAttempt, retrySafe: !i.retrySafe })).toBe(delay);
          expect(delay).toBe(i.elapsedMs + retryAfterMs <= p.maxElapsedMs ? retryAfterMs : undefined);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("backs off a 429 without Retry-After past maxAttempts, as long as the budget allows", () => {
    fc.assert(
      fc.property(policy, input(), (p, i) => {
        fc.pre(i.attempt >= p.maxAttempts);
        const limited = { ...i, failure: { kind: "rate_limited" as const, retryAfterMs: undefined } };
        const backoff = backoffMs(p, i.attempt, i.random);
        expect(retryDelay(p, limited)).toBe(i.elapsedMs + backoff <= p.maxElapsedMs ? backoff : undefined);
      }),
      { numRuns: 300 },
    );
  });

  it("gives up on 5xx once the attempts are spent, even for a safe route", () => {
    const server = fc.record({
      kind: fc.constant("server" as const),
      status: fc.integer({ min: 500, max: 599 }),
    });
    fc.assert(
      fc.property(policy, input(server), (p, i) => {
        const delay = retryDelay(p, { ...i, retrySafe: true });
        if (i.attempt >= p.maxAttempts) expect(delay).toBeUndefined();
        else {
          const backoff = backoffMs(p, i.attempt, i.random);
          expect(delay).toBe(i.elapsedMs + backoff <= p.maxElapsedMs ? backoff : undefined);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("backoffMs (property)", () => {
  it("stays between half the step and the step, and never shrinks from one attempt to the next", () => {
    fc.assert(
      fc.property(
        policy,
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (p, attempt, random) => {
          const step = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (attempt - 1));
          const delay = backoffMs(p, attempt, random);
          expect(delay).toBeGreaterThanOrEqual(step / 2);
          expect(delay).toBeLessThanOrEqual(step);
          expect(backoffMs(p, attempt + 1, random)).toBeGreaterThanOrEqual(delay);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("parseRetryAfter (property)", () => {
  it("reads seconds as milliseconds and dates as the time left, never negative", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: -100_000, max: 100_000 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        (seconds, offsetSeconds, nowSeconds) => {
          const now = nowSeconds * 1000;
          expect(parseRetryAfter(String(seconds), now)).toBe(seconds * 1000);
          expect(parseRetryAfter(` ${seconds} `, now)).toBe(seconds * 1000);
          expect(parseRetryAfter(String(-seconds), now)).toBe(0);
          const date = new Date(now + offsetSeconds * 1000).toUTCString();
          expect(parseRetryAfter(date, now)).toBe(Math.max(0, offsetSeconds * 1000));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads nothing from an absent, blank or unreadable header", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constant(undefined), fc.stringMatching(/^\s*$/), fc.stringMatching(/^[a-z]{1,10}$/)),
        (header) => {
          expect(parseRetryAfter(header, 0)).toBeUndefined();
        },
      ),
      { numRuns: 100 },
    );
  });
});
