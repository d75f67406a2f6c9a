/**
 * verifySignature (provider/receiver/signature.ts): a signature made by openssl verifies, during a
 * rotation with either secret; every delivery it cannot verify is refused (`valid` is checked, not only
 * the reason, so that a check that says why but lets the delivery through fails), the header parsed
 * strictly, with the likely cause and no secret in the reason.
 */
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isStale,
  MemoryCounterStore,
  UpdateCounterGuard,
  verifySignature,
} from "../../../provider/receiver/index";
import { opensslSignature, sign } from "../../helpers/delivery-items";
import { SECRET } from "../../helpers/fixtures";
import { hookBody, useRegisteredWorld } from "../../helpers/world";

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

describe("verifySignature refuses", () => {
  const body = '{"items":[]}';

  it.each([
    ["a missing header", undefined, [SECRET], "the Service-Signature header is missing"],
    ["an empty header", "", [SECRET], "the Service-Signature header is missing"],
    ["another scheme", sign(body, SECRET).replace("SHA256:", "SHA512:"), [SECRET], "must start with SHA256:"],
    [
      "a digest of the wrong length",
      "SHA256:bm90LWEtZGlnZXN0",
      [SECRET],
      "not the canonical base64 of a SHA-256 digest",
    ],
    [
      "a signature made with another secret",
      sign(body, "other-secret-0123456789"),
      [SECRET],
      "does not match the secret",
    ],
  ])("%s", (_name, header, secrets, reason) => {
    const result = verifySignature(body, header, secrets);
    expect(result.valid).toBe(false);
    expect(result.valid ? "" : result.reason).toContain(reason);
  });

  it("mentions stray whitespace only when trimming a secret makes it match", () => {
    const other = sign(body, "other-secret-0123456789");
    const plain = verifySignature(body, other, [SECRET, " second-secret-0123456789"]);
    const padded = verifySignature(body, sign(body, SECRET), ["second-secret-0123456789", `${SECRET}\n`]);
    expect(plain.valid ? "" : plain.reason).toBe(
      "the signature does not match any of the 2 secrets. Likely causes: the body was parsed and re-serialized before it was checked (pass the raw bytes received); or the secret is another webhook's (during a rotation, configure the secrets of both the old and the new webhook)",
    );
    expect(padded.valid ? "" : padded.reason).toBe(
      "the signature matches secret 1 once its leading or trailing whitespace is removed: the secret carries a stray newline or space (often from a file or an echo), trim it",
    );
  });
});

describe("verifySignature accepts", () => {
  it("the header of a delivery, naming the first secret that matched", () => {
    const body = '{"items":[]}';
    expect(verifySignature(body, sign(body, SECRET), ["other-secret-0123456789", SECRET, SECRET])).toEqual({
      valid: true,
      secretIndex: 1,
    });
  });
});

/**
 * Regression (issue 18, item 3): the Service-Signature value was trimmed and handed to a lenient base64
 * decoder, so junk characters, URL-safe base64, missing padding, inner whitespace and trailing garbage
 * all verified. Only the spec's form is accepted now: `SHA256:` and the canonical base64 of 32 bytes.
 */
describe("the Service-Signature header is parsed strictly", () => {
  const body = '{"channel":"default","item_count":0,"items":[],"webhook_uuid":"w-1"}';
  const digest = createHmac("sha256", SECRET).update(body).digest();
  const canonical = digest.toString("base64");
  const header = `SHA256:${canonical}`;

  /** The same digest with its 2 unused bits set: a lenient decoder reads the same 32 bytes. */
  function withUnusedBits(value: string): string {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const last = alphabet.indexOf(value[42]!);
    return `${value.slice(0, 42)}${alphabet[last | 1]}=`;
  }

  const SPELLINGS: readonly [string, string, RegExp][] = [
    [
      "a junk character inside",
      `SHA256:${canonical.slice(0, 10)}!${canonical.slice(10)}`,
      /canonical base64/,
    ],
    ["URL-safe base64", `SHA256:${digest.toString("base64url")}=`, /canonical base64/],
    ["missing padding", `SHA256:${canonical.replace(/=$/, "")}`, /canonical base64/],
    ["whitespace inside", `SHA256:${canonical.slice(0, 20)} ${canonical.slice(20)}`, /whitespace/],
    ["a trailing newline", `${header}\n`, /whitespace/],
    ["a space after the prefix", `SHA256: ${canonical}`, /whitespace/],
    ["trailing garbage", `${header}AAAA`, /canonical base64/],
    ["non-zero unused bits", `SHA256:${withUnusedBits(canonical)}`, /canonical base64/],
    ["two values joined by a proxy", `${header}, ${header}`, /several values/],
    ["a lower-case hash name", `sha256:${canonical}`, /must start with SHA256:/],
  ];

  it("accepts the spec's form", () => {
    expect(canonical).toHaveLength(44);
    expect(verifySignature(body, header, [SECRET])).toEqual({ valid: true, secretIndex: 0 });
  });

  it.each(SPELLINGS)("refuses %s, with a reason", (_name, spelled, reason) => {
    const check = verifySignature(body, spelled, [SECRET]);
    expect(check.valid).toBe(false);
    expect(check.valid ? "" : check.reason).toMatch(reason);
    expect(check.valid ? "" : check.reason).not.toContain(canonical);
  });
});

describe("properties", () => {
  const secret = fc.string({ minLength: 16, maxLength: 64 });

  it("a body signed with one of the secrets verifies, and any changed byte does not", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        fc.array(secret, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.nat(),
        (bytes, secrets, pick, at) => {
          const index = pick % secrets.length;
          const header = sign(bytes, secrets[index]!);
          const check = verifySignature(bytes, header, secrets);
          expect(check).toMatchObject({ valid: true });
          // Another secret that signs identically (a duplicate) may come first.
          expect(secrets[(check as { secretIndex: number }).secretIndex]).toBe(secrets[index]);
          const changed = Uint8Array.from(bytes);
          const i = at % changed.length;
          changed[i] = changed[i]! ^ (1 + (at % 255));
          expect(verifySignature(changed, header, secrets).valid).toBe(false);
        },
      ),
    );
  });
});
