/**
 * The provider plugin holds a failure back while a component is under construction, so that the engine
 * does not close the plugin's connection under a healthy Domain (construct-guard.ts). Time is a manual
 * clock: a hold ends by an answer, a Cancel or a stall, never by a wait in the test.
 */
import { describe, expect, it } from "vitest";
import type { Clock } from "../../../provider/context/clock";
import { ConstructGuard, insideComponent } from "../../../provider/plugin/construct-guard";

const WEBHOOK = "urn:pulumi:dev::infra::service:index:Webhook::orders";
const DOMAIN_CHILD =
  "urn:pulumi:dev::infra::service:index:Domain$service:index:DomainVerification::hooks-verification";

/** A clock that moves only when told to: sleeps resolve once `advance` has passed their time. */
function manualClock() {
  let now = 0;
  const sleepers: { until: number; wake: () => void }[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => new Promise<void>((wake) => sleepers.push({ until: now + ms, wake })),
  };
  return {
    clock,
    async advance(ms: number) {
      now += ms;
      for (const sleeper of sleepers.filter((s) => s.until <= now)) {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        sleeper.wake();
      }
      await flush();
    },
  };
}

/** Lets every pending promise callback run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `promise` has settled yet. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await flush();
  return done;
}

const fail = (message: string) => async () => {
  throw new Error(message);
};

describe("a failure while a component is under construction", () => {
  it("is answered once the Construct has been, not before (regression: the Domain's 'client connection is closing')", async () => {
    const { clock } = manualClock();
    const guard = new ConstructGuard(clock);
    const answered = guard.constructing();
    const failure = guard.call(WEBHOOK, fail("refused"));
    expect(await settled(failure)).toBe(false);
    answered();
    await expect(failure).rejects.toThrow("refused");
  });

  it("holds a Check that answers failures, and lets a success through at once", async () => {
    const guard = new ConstructGuard(manualClock().clock);
    const answered = guard.constructing();
    const checked = guard.call(
      WEBHOOK,
      async () => ({ failures: [{ property: "endpoint" }] }),
      (a) => a.failures.length > 0,
    );
    expect(await settled(checked)).toBe(false);
    await expect(guard.call(WEBHOOK, async () => "created")).resolves.toBe("created");
    answered();
    await expect(checked).resolves.toEqual({ failures: [{ property: "endpoint" }] });
  });

  it("is not held when it is inside a Domain: it is that component's own", async () => {
    const guard = new ConstructGuard(manualClock().clock);
    guard.constructing();
    await expect(guard.call(DOMAIN_CHILD, fail("file not served"))).rejects.toThrow("file not served");
  });

  it("goes at once when a step inside a Domain fails: that Domain cannot finish, and the deployment ends (regression: a sibling held 5 s)", async () => {
    const guard = new ConstructGuard(manualClock().clock);
    guard.constructing();
    const failure = guard.call(WEBHOOK, fail("no token"));
    expect(await settled(failure)).toBe(false);
    await expect(guard.call(DOMAIN_CHILD, fail("no token"))).rejects.toThrow("no token");
    await expect(failure).rejects.toThrow("no token");
    // And a failure after it is not held either.
    await expect(guard.call(WEBHOOK, fail("refused"))).rejects.toThrow("refused");
  });

  it("goes once nothing has moved for a while (the engine may be waiting for the held step), and not sooner", async () => {
    const time = manualClock();
    const guard = new ConstructGuard(time.clock, 5_000);
    guard.constructing();
    let childDone!: () => void;
    const child = guard.call(DOMAIN_CHILD, () => new Promise<void>((resolve) => (childDone = resolve)));
    const failure = guard.call(WEBHOOK, fail("refused"));
    await flush();
    await time.advance(10_000);
    expect(await settled(failure)).toBe(false); // a call of the component is still in flight
    childDone();
    await child;
    await time.advance(4_000);
    expect(await settled(failure)).toBe(false);
    await time.advance(1_250);
    await expect(failure).rejects.toThrow("refused");
  });

  it("goes at once when the engine cancels", async () => {
    const guard = new ConstructGuard(manualClock().clock);
    guard.constructing();
    const failure = guard.call(WEBHOOK, fail("refused"));
    expect(await settled(failure)).toBe(false);
    guard.release();
    await expect(failure).rejects.toThrow("refused");
  });
});

describe("insideComponent", () => {
  it("tells a Domain's resources from the program's own", () => {
    expect(insideComponent(DOMAIN_CHILD)).toBe(true);
    expect(insideComponent(WEBHOOK)).toBe(false);
    expect(insideComponent("urn:pulumi:dev::infra::my:index:Platform$service:index:Webhook::orders")).toBe(
      false,
    );
  });
});
