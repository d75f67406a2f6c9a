import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../sandbox/index";
import { SECRET } from "../helpers/fixtures";
import { hookBody, registerDomain, startWorld, type World } from "../helpers/world";

/** Webhook deliveries (spec 3.2, 6) and what the admin routes show of them. */
let world: World;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock();
  world = await startWorld({}, { clock });
  await registerDomain(world);
});
afterEach(() => world.close());

const posts = () => world.origin.received.filter((r) => r.method === "POST");

describe("deactivation (regression: a retry scheduled before deactivation still went out)", () => {
  it("sends nothing more to a deactivated webhook, retries already scheduled included", async () => {
    const hook = (await world.api("POST", "/v2/webhooks", { body: hookBody() })).json.webhook_uuid;
    world.origin.postAnswers.push(500, 500, 500);
    world.sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    await world.sandbox.deliveriesIdle();
    expect(posts()).toHaveLength(1);
    // The first retry is now scheduled, one second out.
    expect((await world.api("POST", `/v2/webhooks/${hook}/deactivate`)).json).toEqual({ status: "ok" });
    for (let i = 0; i < 6; i++) {
      clock.advance(60_000);
      await world.sandbox.deliveriesIdle();
    }
    expect(posts()).toHaveLength(1);
    world.sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    await world.sandbox.deliveriesIdle();
    expect(posts()).toHaveLength(1);
  });

  it("keeps retrying a webhook that stays active (the control for the test above)", async () => {
    await world.api("POST", "/v2/webhooks", { body: hookBody() });
    world.origin.postAnswers.push(500);
    world.sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    await world.sandbox.deliveriesIdle();
    clock.advance(1000);
    await world.sandbox.deliveriesIdle();
    expect(posts()).toHaveLength(2);
  });
});

describe("GET /_sandbox/deliveries", () => {
  it("shows each attempt's Service-Signature header, the one the receiver got, and never the secret", async () => {
    await world.api("POST", "/v2/webhooks", { body: hookBody() });
    world.origin.postAnswers.push(503);
    world.sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    await world.sandbox.deliveriesIdle();
    clock.advance(1000);
    await world.sandbox.deliveriesIdle();
    const text = await (await fetch(`${world.sandbox.url}/_sandbox/deliveries`)).text();
    expect(text).not.toContain(SECRET);
    const { deliveries } = JSON.parse(text);
    expect(deliveries).toHaveLength(2);
    for (const [i, attempt] of deliveries.entries()) {
      const received = posts()[i]!;
      expect(attempt.signature).toBe(received.headers["service-signature"]);
      expect(attempt.signature).toBe(
        `SHA256:${createHmac("sha256", SECRET).update(attempt.body).digest("base64")}`,
      );
    }
  });
});

describe("delivery items", () => {
  it("v1.4: the v1.4 search item plus update_counter, keeping timestamp; fingerprints without their parent", async () => {
    await world.api("POST", "/v1/webhooks", {
      body: hookBody({ filters: [{ key: "activity.name", value: "fingerprint" }] }),
    });
    const parent = world.sandbox.upsertSession({ organization: "acme", kind: "fingerprint" }).service_id;
    world.sandbox.upsertSession({
      organization: "acme",
      kind: "fingerprint",
      item: { activity: { mode: "compare" }, fingerprint_parent: { service_id: parent } },
    });
    await world.sandbox.deliveriesIdle();
    const items = posts().map((p) => JSON.parse(p.body).items[0]);
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(item).not.toHaveProperty("fingerprint_parent");
      expect(item.timestamp).toEqual({ display: expect.any(String), epoch: expect.any(Number) });
      expect(item.update_counter).toBe(1);
      expect(item.status).not.toHaveProperty("retake");
      expect(item.status).not.toHaveProperty("flag_reason_id");
    }
  });

  it("carry a growing update_counter as a session changes", async () => {
    await world.api("POST", "/v2/webhooks", { body: hookBody() });
    const { service_id: serviceId } = world.sandbox.upsertSession({
      organization: "acme",
      kind: "authentication",
    });
    world.sandbox.upsertSession({ organization: "acme", kind: "authentication", service_id: serviceId });
    await world.sandbox.deliveriesIdle();
    const counters = posts().map((p) => JSON.parse(p.body).items[0].update_counter);
    expect(counters.sort()).toEqual([1, 2]);
    expect(
      world.sandbox
        .deliveries()
        .map((d) => d.update_counter)
        .sort(),
    ).toEqual([1, 2]);
  });
});

describe("deliveries (spec 3.2)", () => {
  it("delivers a signed snapshot with update_counter and the v2 omissions", async () => {
    const hook = await world.api("POST", "/v2/webhooks", { body: hookBody({ channel: "orders" }) });
    const { service_id: serviceId } = world.sandbox.upsertSession({
      organization: "acme",
      kind: "authentication",
    });
    await world.sandbox.deliveriesIdle();
    const [delivery] = world.origin.received.filter((r) => r.method === "POST");
    expect(delivery!.path).toBe("/service/events");
    const expected = createHmac("sha256", SECRET).update(delivery!.body).digest("base64");
    expect(delivery!.headers["service-signature"]).toBe(`SHA256:${expected}`);
    const body = JSON.parse(delivery!.body);
    expect(body).toMatchObject({ channel: "orders", item_count: 1, webhook_uuid: hook.json.webhook_uuid });
    expect(body.items[0]).toMatchObject({ service_id: serviceId, update_counter: 1 });
    expect(body.items[0].timestamp).toBeUndefined();
    expect(body.items[0].status.flag_reason_id).toBeUndefined();
    expect(body.items[0].status).toHaveProperty("retake");
  });

  it("delivers only to matching webhooks, and v1.4 webhooks keep the timestamp", async () => {
    await world.api("POST", "/v1/webhooks", {
      body: hookBody({ filters: [{ key: "activity.name", value: "fingerprint" }] }),
    });
    world.sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    world.sandbox.upsertSession({ organization: "acme", kind: "fingerprint" });
    await world.sandbox.deliveriesIdle();
    const posts = world.origin.received.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(1);
    const item = JSON.parse(posts[0]!.body).items[0];
    expect(item.activity.name).toBe("fingerprint");
    expect(item.timestamp).toBeDefined();
  });

  it("retries a failed delivery at growing intervals until it succeeds", async () => {
    await world.api("POST", "/v2/webhooks", { body: hookBody() });
    world.origin.postAnswers.push(500, 503);
    world.sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    await world.sandbox.deliveriesIdle();
    clock.advance(999);
    await world.sandbox.deliveriesIdle();
    expect(world.sandbox.deliveries()).toHaveLength(1);
    clock.advance(1);
    await world.sandbox.deliveriesIdle();
    clock.advance(2000);
    await world.sandbox.deliveriesIdle();
    expect(world.sandbox.deliveries().map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
  });

  it("gives up once the maximum delivery time has passed", async () => {
    await world.close();
    world = await startWorld({ deliveryMaxSeconds: 3 }, { clock });
    await registerDomain(world);
    await world.api("POST", "/v2/webhooks", { body: hookBody() });
    world.origin.postAnswers.push(500, 500, 500, 500);
    world.sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    for (let i = 0; i < 5; i++) {
      await world.sandbox.deliveriesIdle();
      clock.advance(4000);
    }
    await world.sandbox.deliveriesIdle();
    expect(world.sandbox.deliveries().map((d) => d.attempt)).toEqual([1, 2]);
  });
});
