import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, type Sandbox, startSandbox } from "../../sandbox/index";
import { SlidingWindowLimiter } from "../../sandbox/rate-limit";
import { HOOKS_TOKEN, testSeed } from "../helpers/fixtures";
import { useClockedWorld } from "../helpers/world";

/**
 * Regression (issue 18, item 5): the rate limiter was keyed by the raw Authorization header, so spacing
 * variants of one token each had a window of their own; and it kept every window it ever opened, so
 * requests with unique headers grew its memory without bound.
 */
const clock = new ManualClock();
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: testSeed("http://127.0.0.1:9", { rateLimitPerSecond: 2 }), clock });
});
afterAll(() => sandbox.close());

const health = (authorization: string) =>
  fetch(`${sandbox.url}/v1/health`, { headers: { authorization, "api-version": "1.4" } });

describe("the sandbox's rate limit", () => {
  it("counts spacing variants of one token in one window", async () => {
    clock.advance(5000);
    const statuses = [];
    for (const header of [`Token ${HOOKS_TOKEN}`, `Token   ${HOOKS_TOKEN}`, `Token ${HOOKS_TOKEN}  `]) {
      statuses.push((await health(header)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("counts requests without a readable token in one window, so junk headers share it", async () => {
    clock.advance(5000);
    const statuses = [];
    for (const header of ["junk-1", "junk-2", "junk-3"]) statuses.push((await health(header)).status);
    expect(statuses).toEqual([401, 401, 429]);
  });
});

describe("SlidingWindowLimiter", () => {
  it("forgets windows with nothing left in them, so unique keys do not pile up", () => {
    const time = new ManualClock();
    const limiter = new SlidingWindowLimiter(10, time);
    // Bounded: 50 seconds of 100 unique keys each.
    for (let second = 0; second < 50; second++) {
      for (let i = 0; i < 100; i++) expect(limiter.take(`key-${second}-${i}`)).toBeUndefined();
      time.advance(1000);
    }
    expect(limiter.size).toBeLessThanOrEqual(200);
    time.advance(1000);
    limiter.take("last");
    expect(limiter.size).toBe(1);
  });
});

describe("the sandbox's rate limit, as a caller meets it", () => {
  const world = useClockedWorld();

  it("answers 429 with Retry-After over the limit, and lets requests through again a second later", async () => {
    await world.restart({ rateLimitPerSecond: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await world.current.api("GET", "/v1/health")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await world.current.api("GET", "/v1/health");
    expect(limited.headers.get("retry-after")).toBe("1");
    world.clock.advance(1000);
    expect((await world.current.api("GET", "/v1/health")).status).toBe(200);
  });
});
