/**
 * receiveDelivery (provider/receiver/receive.ts): each fresh item passed on in order, stale ones skipped,
 * counters recorded after success, and 401, 400 and 500 answered without a secret in what it reports;
 * then through the Node and the Lambda handler, deliveries from the sandbox, retried and redelivered.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigurationError } from "../../../provider/errors/index";
import {
  type CounterStore,
  createLambdaHandler,
  createNodeHandler,
  type ReceiverFailure,
  receiveDelivery,
} from "../../../provider/receiver/index";
import { ManualClock } from "../../../sandbox/index";
import { delivery, fingerprintItem as item, recorder, sign } from "../../helpers/delivery-items";
import { SECRET } from "../../helpers/fixtures";
import { asFunctionUrl, type ReceiverWorld, startReceiverWorld } from "../../helpers/receiver-server";

describe("receiveDelivery", () => {
  it("passes each fresh item on in order, skips stale ones, and records counters after success", async () => {
    const r = recorder();
    r.store.set("b", 5);
    const raw = delivery(item("a", 1), item("b", 4), item("b", 5), item("c", 2));
    expect(await receiveDelivery(raw, sign(raw), r.options)).toEqual({
      status: 200,
      body: "ok",
      processed: 3,
      skipped: 1,
    });
    expect(r.handled).toEqual(["a@1", "b@5", "c@2"]);
    expect(Object.fromEntries(r.store)).toEqual({ a: 1, b: 5, c: 2 });
  });

  it("passes a redelivery of a processed item on again: an equal counter is not stale", async () => {
    const r = recorder();
    const raw = delivery(item("a", 2));
    for (let i = 0; i < 2; i += 1)
      expect((await receiveDelivery(raw, sign(raw), r.options)).status).toBe(200);
    expect(r.handled).toEqual(["a@2", "a@2"]);
  });

  it("answers 500 when the function throws, stops there, and records only what succeeded", async () => {
    const r = recorder((id) => id === "b");
    const raw = delivery(item("a", 1), item("b", 1), item("c", 1));
    expect(await receiveDelivery(raw, sign(raw), r.options)).toEqual({
      status: 500,
      body: "processing failed; deliver again later",
      processed: 1,
      skipped: 0,
    });
    expect(r.handled).toEqual(["a@1", "b@1"]);
    expect(Object.fromEntries(r.store)).toEqual({ a: 1 });
    expect(r.failures).toEqual([
      {
        status: 500,
        error: new Error("cannot store b"),
        message: expect.stringMatching(
          /^Item b \(update_counter 1\) of a delivery from webhook w-1 failed: cannot store b\. Answered 500.*1 earlier item/,
        ),
      },
    ]);
  });

  it("answers 500 when the store fails, before or after processing", async () => {
    for (const broken of ["get", "set"] as const) {
      const r = recorder();
      const store: CounterStore = {
        get: () => (broken === "get" ? Promise.reject(new Error("table unreachable")) : undefined),
        set: () => (broken === "set" ? Promise.reject(new Error("table unreachable")) : undefined),
      };
      const raw = delivery(item("a", 1));
      expect(await receiveDelivery(raw, sign(raw), { ...r.options, store })).toMatchObject({ status: 500 });
      expect(r.failures[0]!.message).toMatch(/table unreachable/);
    }
  });

  it("answers 401 and 400 without calling the function, and hides secrets from what it reports", async () => {
    const r = recorder();
    const raw = delivery(item("a", 1));
    expect(await receiveDelivery(raw, sign(raw, "some-other-secret"), r.options)).toMatchObject({
      status: 401,
      body: "invalid signature",
    });
    const malformed = "{}";
    expect(await receiveDelivery(malformed, sign(malformed), r.options)).toMatchObject({
      status: 400,
      body: "malformed delivery",
    });
    expect(r.handled).toEqual([]);
    expect(r.failures.map((f) => [f.status, f.error?.constructor.name])).toEqual([
      [401, "InvalidSignatureError"],
      [400, "MalformedDeliveryError"],
    ]);
    // A secret that leaks into the function's error is redacted in the report.
    const leaky = recorder(() => true);
    await receiveDelivery(raw, sign(raw), {
      ...leaky.options,
      handleItem: () => {
        throw new Error(`bad key ${SECRET}`);
      },
    });
    expect(leaky.failures[0]!.message).not.toContain(SECRET);
  });

  it("answers 500 to a delivery it cannot check, such as one read with no secret", async () => {
    const r = recorder();
    const raw = delivery(item("a", 1));
    expect(await receiveDelivery(raw, sign(raw), { ...r.options, secrets: [] })).toEqual({
      status: 500,
      body: "receiver failed",
      processed: 0,
      skipped: 0,
    });
    expect(r.failures).toEqual([
      {
        status: 500,
        error: expect.any(ConfigurationError),
        message: expect.stringMatching(/at least one secret/),
      },
    ]);
    expect(r.handled).toEqual([]);
  });

  it("reports to the console unless told otherwise", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { onFailure: _, ...options } = recorder().options;
      const raw = delivery(item("a", 1));
      await receiveDelivery(raw, "SHA256:", options);
      expect(spy).toHaveBeenCalledWith(
        expect.stringMatching(/^Refused a webhook delivery: .*not the canonical base64/),
      );
    } finally {
      spy.mockRestore();
    }
  });
});

const VERSIONS = ["1.4", "2.0"] as const;

const HANDLERS = {
  node: createNodeHandler,
  lambda: (options: Parameters<typeof createLambdaHandler>[0]) => asFunctionUrl(createLambdaHandler(options)),
} as const;

describe.each(
  VERSIONS.flatMap((version) => (["node", "lambda"] as const).map((kind) => ({ version, kind }))),
)("the $kind handler receiving API $version deliveries from the sandbox", ({ version, kind }) => {
  let world: ReceiverWorld;
  let clock: ManualClock;
  const handled: { service_id: string; update_counter: number; webhookUuid: string; secretIndex: number }[] =
    [];
  const failures: ReceiverFailure[] = [];
  const store = new Map<string, number>();
  let failNext = 0;

  beforeEach(async () => {
    handled.length = 0;
    failures.length = 0;
    store.clear();
    failNext = 0;
    clock = new ManualClock();
    const listener = HANDLERS[kind]({
      secrets: [`${SECRET}-old-one`, SECRET],
      store,
      apiVersion: version,
      onFailure: (f) => failures.push(f),
      handleItem: (item, delivery) => {
        handled.push({
          service_id: item.service_id,
          update_counter: item.update_counter,
          webhookUuid: delivery.webhookUuid,
          secretIndex: delivery.secretIndex,
        });
        if (failNext > 0) {
          failNext -= 1;
          throw new Error("the downstream queue is unavailable");
        }
      },
    });
    world = await startReceiverWorld(listener, { clock });
  });
  afterEach(() => world.close());

  // The body's counter: a DeliveryAttempt's own updateCounter follows the session as it changes later.
  const attempts = () =>
    world.sandbox
      .deliveries()
      .map((d) => ({ counter: JSON.parse(d.body).items[0].update_counter, status: d.status }));

  it("retries a failed item, processes the newer one, then skips the late redelivery of the older", async () => {
    const webhookUuid = await world.createWebhook(version);
    failNext = 1;
    const { service_id } = await world.upsert({ kind: "authentication" });
    expect(store.has(service_id)).toBe(false);
    await world.upsert({ kind: "authentication", service_id, item: { status: { flag: "review" } } });
    expect(store.get(service_id)).toBe(2);
    // The retry of counter 1 falls due only now: it arrives after counter 2.
    clock.advance(1000);
    await world.sandbox.deliveriesIdle();
    expect(attempts()).toEqual([
      { counter: 1, status: 500 },
      { counter: 2, status: 200 },
      { counter: 1, status: 200 },
    ]);
    expect(handled).toEqual([
      { service_id, update_counter: 1, webhookUuid, secretIndex: 1 },
      { service_id, update_counter: 2, webhookUuid, secretIndex: 1 },
    ]);
    expect(store.get(service_id)).toBe(2);
    expect(failures.map((f) => f.status)).toEqual([500]);
    expect(failures[0]!.message).toMatch(
      new RegExp(
        `Item ${service_id} \\(update_counter 1\\).*${webhookUuid}.*downstream queue.*deliver it again`,
      ),
    );
  });

  it("processes a redelivery of an item whose processing failed, and records it only then", async () => {
    await world.createWebhook(version);
    failNext = 1;
    const { service_id } = await world.upsert({ kind: "fingerprint" });
    expect(attempts()).toEqual([]); // an authentication webhook does not deliver fingerprints
    await world.createWebhook(version, { filters: [{ key: "activity.name", value: "fingerprint" }] });
    await world.upsert({ kind: "fingerprint", service_id });
    expect(store.has(service_id)).toBe(false);
    clock.advance(1000);
    await world.sandbox.deliveriesIdle();
    expect(attempts()).toEqual([
      { counter: 2, status: 500 },
      { counter: 2, status: 200 },
    ]);
    expect(handled.map((h) => h.update_counter)).toEqual([2, 2]);
    expect(store.get(service_id)).toBe(2);
  });

  it("answers 401 to a webhook whose secret it does not hold, without processing", async () => {
    await world.createWebhook(version, { secret_key: `${SECRET}-unknown-x` });
    await world.upsert({ kind: "authentication" });
    expect(attempts()).toEqual([{ counter: 1, status: 401 }]);
    expect(handled).toEqual([]);
    expect(failures[0]!.message).toMatch(/does not match any of the 2 secrets.*rotation/);
    expect(failures[0]!.message).not.toContain(SECRET);
  });
});
