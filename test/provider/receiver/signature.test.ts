import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  isStale,
  MemoryCounterStore,
  UpdateCounterGuard,
  verifySignature,
} from "../../../provider/receiver/index";
import { SECRET } from "../../helpers/fixtures";
import { hookBody, useRegisteredWorld } from "../../helpers/world";

/** The signature as the openssl command line computes it, independently of node:crypto. */
function opensslSignature(body: string, secret: string): string {
  const digest = execFileSync("openssl", ["dgst", "-sha256", "-hmac", secret, "-binary"], { input: body });
  return `SHA256:${digest.toString("base64")}`;
}

const BODY = JSON.stringify({
  channel: "orders",
  item_count: 1,
  items: [{ service_id: "s1", update_counter: 3 }],
  webhook_uuid: "w",
});

describe("verifySignature", () => {
  it("accepts a signature made by openssl dgst -sha256 -hmac", () => {
    expect(verifySignature(BODY, opensslSignature(BODY, SECRET), [SECRET])).toEqual({
      valid: true,
      secretIndex: 0,
    });
    expect(verifySignature(Buffer.from(BODY), opensslSignature(BODY, SECRET), [SECRET]).valid).toBe(true);
  });

  it("accepts either secret during a rotation and says which matched", () => {
    const next = `${SECRET}-next`;
    expect(verifySignature(BODY, opensslSignature(BODY, next), [SECRET, next])).toEqual({
      valid: true,
      secretIndex: 1,
    });
  });

  it("refuses a changed body, a wrong secret, a missing or malformed header, with the likely cause", () => {
    const header = opensslSignature(BODY, SECRET);
    const reparsed = JSON.stringify(JSON.parse(BODY), null, 2);
    expect(verifySignature(reparsed, header, [SECRET])).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/raw bytes/),
    });
    expect(verifySignature(BODY, header, ["some-other-secret-123"]).valid).toBe(false);
    expect(verifySignature(BODY, header, [`${SECRET}\n`])).toMatchObject({
      reason: expect.stringMatching(/stray newline/),
    });
    expect(verifySignature(BODY, undefined, [SECRET])).toMatchObject({
      reason: expect.stringMatching(/missing/),
    });
    expect(verifySignature(BODY, header.replace("SHA256:", "SHA1:"), [SECRET])).toMatchObject({
      reason: expect.stringMatching(/SHA256:/),
    });
    expect(verifySignature(BODY, "SHA256:bm90LWEtZGlnZXN0", [SECRET])).toMatchObject({
      reason: expect.stringMatching(/not the canonical base64 of a SHA-256 digest/),
    });
    expect(() => verifySignature(BODY, header, [])).toThrow(/at least one secret/);
  });
});

describe("update_counter ordering", () => {
  it("discards only events older than the stored counter", async () => {
    expect(isStale(2, 3)).toBe(true);
    expect(isStale(3, 3)).toBe(false);
    expect(isStale(1, undefined)).toBe(false);
    const guard = new UpdateCounterGuard();
    const item = (id: string, n: number) => ({ service_id: id, update_counter: n });
    expect(await guard.accept([item("a", 2)])).toEqual([item("a", 2)]);
    expect(await guard.accept([item("a", 1), item("b", 1)])).toEqual([item("b", 1)]);
    expect(await guard.accept([item("a", 3)])).toEqual([item("a", 3)]);
  });
});

describe("end to end: sandbox deliveries through the receiver helpers", () => {
  const worldRef = useRegisteredWorld("each");

  it("verifies real deliveries and drops the one that arrives out of order", async () => {
    await worldRef.current.api("POST", "/v2/webhooks", { body: hookBody() });
    const { service_id: serviceId } = worldRef.current.sandbox.upsertSession({
      organization: "acme",
      kind: "authentication",
    });
    worldRef.current.sandbox.upsertSession({
      organization: "acme",
      kind: "authentication",
      service_id: serviceId,
      item: { status: { flag: "review" } },
    });
    await worldRef.current.sandbox.deliveriesIdle();
    const deliveries = worldRef.current.origin.received.filter((r) => r.method === "POST");
    expect(deliveries).toHaveLength(2);
    const guard = new UpdateCounterGuard();
    const processed: number[] = [];
    // Deliveries may arrive out of order: feed the newer one first.
    for (const delivery of [...deliveries].reverse()) {
      const check = verifySignature(delivery.body, delivery.headers["service-signature"] as string, [SECRET]);
      expect(check.valid).toBe(true);
      for (const item of await guard.accept(JSON.parse(delivery.body).items))
        processed.push(item.update_counter);
    }
    expect(processed).toEqual([2]);
  });
});

describe("MemoryCounterStore", () => {
  it("never lowers a counter, so concurrent deliveries finishing out of order keep the newest", async () => {
    const store = new MemoryCounterStore();
    store.set("a", 2);
    store.set("a", 1);
    store.set("b", 1);
    expect([store.get("a"), store.get("b"), store.get("c")]).toEqual([2, 1, undefined]);
    // The guard's default store, so the guard's behaviour is the same.
    const guard = new UpdateCounterGuard();
    await guard.record({ service_id: "a", update_counter: 5 });
    await guard.record({ service_id: "a", update_counter: 4 });
    expect(await guard.isFresh({ service_id: "a", update_counter: 4 })).toBe(false);
  });
});
