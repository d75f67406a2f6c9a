import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLimitError } from "../../../provider/client/index";
import { LimiterRegistry, RateLimiter, sharedLimiter } from "../../../provider/client/limiter";
import { ProcessContext, setProcessContext } from "../../../provider/context/process";
import { HOOKS_TOKEN } from "../../helpers/fixtures";
import { useHooksSandbox } from "../../helpers/hooks-sandbox";

import {
  clientOf,
  clock,
  failureOf,
  scripted,
  TOKEN,
  useScriptedServers,
} from "../../helpers/scripted-server";

/** Client rate limiting: the per-token limiter, Retry-After pauses, and the limiter's windows. */

describe("rate limiting", () => {
  useScriptedServers();

  it("waits on no limiter when given limiter: null, whatever rateLimitPerSecond says", async () => {
    const server = await scripted(() => ({ status: "ok" }));
    const client = clientOf(server.url, { rateLimitPerSecond: 1, limiter: null, sleep: clock.sleep });
    const started = performance.now();
    await Promise.all([client.health(), client.health(), client.health()]);
    // The shared limiter at 1 per second would hold the third call for two seconds.
    expect(performance.now() - started).toBeLessThan(900);
  });

  it("holds every caller of a token while the service's Retry-After runs, even past the budget", async () => {
    const server = await scripted((_r, index, res) => {
      if (index === 0) {
        res.writeHead(429, { "retry-after": "45" }).end();
        return undefined;
      }
      return { status: "ok" };
    });
    const limiter = new RateLimiter(100, clock);
    const client = clientOf(server.url, { limiter, retry: { maxElapsedMs: 30_000 } });
    const started = clock.now();
    const error = (await failureOf(client.health())) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterSeconds).toBe(45);
    expect(error.retryAt).toEqual(new Date(started + 45_000));
    expect(clock.slept).toEqual([]);
    // The next call of the same token waits for the pause to end before it is sent.
    await clientOf(server.url, { limiter }).health();
    expect(clock.slept).toEqual([45_000]);
  });

  it("backs off after a 429 without Retry-After, and says nothing about when", async () => {
    const server = await scripted((_r, _i, res) => {
      res.writeHead(429).end();
    });
    const error = (await failureOf(
      clientOf(server.url, { retry: { maxElapsedMs: 100 }, random: () => 0 }).health(),
    )) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(error.retryAt).toBeUndefined();
  });

  it("keeps one limiter per token: another token's calls do not wait", async () => {
    const server = await scripted(() => ({ status: "ok" }));
    const limiters = new LimiterRegistry(clock);
    const of = (token: string) =>
      clientOf(server.url, {
        token,
        limiter: limiters.limiterFor({ token, baseUrl: server.url, perSecond: 1 }),
      });
    await Promise.all([of(`${TOKEN}-a`).health(), of(`${TOKEN}-b`).health()]);
    expect(clock.slept).toEqual([]);
    // The same token's second call waits for the first one's slot.
    await of(`${TOKEN}-a`).health();
    expect(clock.slept).toHaveLength(1);
  });
});

describe("RateLimiter", () => {
  useScriptedServers();

  it("waits out a pause from wherever the clock stands", async () => {
    const limiter = new RateLimiter(10, clock);
    limiter.pauseUntil(clock.now() + 3_000);
    limiter.pauseUntil(clock.now() + 1_000);
    await limiter.acquire();
    expect(clock.slept).toEqual([3_000]);
  });

  it("counts a slot from its first release: releasing it again changes nothing", async () => {
    const limiter = new RateLimiter(1, clock);
    const release = await limiter.acquire();
    release();
    await clock.sleep(500);
    release();
    await limiter.acquire();
    // Free again 1005 ms after the first release, not after the second.
    expect(clock.slept).toEqual([500, 505]);
  });
});

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

describe("a client's limiter, against the sandbox", () => {
  // The shared limiter waits on the process's clock: the real one here, not a stepping clock an
  // earlier test of this file gave the process.
  beforeEach(() => {
    setProcessContext(new ProcessContext());
  });
  const world = useHooksSandbox();
  const { client } = world;

  it("is shared by default by every client of a token, through SHARED_LIMITERS", async () => {
    const token = `${HOOKS_TOKEN}-shared-default`;
    const a = client({ token, rateLimitPerSecond: 2 });
    const b = client({ token, rateLimitPerSecond: 2 });
    const started = performance.now();
    // The shared limiter runs on real time; the sandbox answers 401 to the unknown token, at once.
    await Promise.allSettled([a.health(), b.health(), a.health(), b.health()]);
    // Two of the four had to wait for the first two's slots: one limiter for both clients.
    expect(performance.now() - started).toBeGreaterThan(900);
    expect(sharedLimiter({ token, baseUrl: world.sandbox.url, perSecond: 2 })).toBe(
      sharedLimiter({ token, baseUrl: world.sandbox.url, perSecond: 2 }),
    );
  });

  it("is the one given in the options when there is one, on its own clock", async () => {
    const limiter = new RateLimiter(2, world.clock);
    const a = client({ limiter });
    const b = client({ limiter });
    await Promise.all([a.health(), b.health(), a.health(), b.health()]);
    expect(world.clock.slept.length).toBeGreaterThan(0);
    expect(Math.max(...world.clock.slept)).toBeGreaterThan(900);
  });
});
