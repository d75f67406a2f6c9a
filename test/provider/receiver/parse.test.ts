import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigurationError, ServiceError } from "../../../provider/errors/index";
import {
  InvalidSignatureError,
  isAuthentication,
  isFingerprint,
  MalformedDeliveryError,
  parseDelivery,
  verifySignature,
} from "../../../provider/receiver/index";
import { SECRET } from "../../helpers/fixtures";
import { REQUIRED_MEMBERS, withoutMember } from "../../helpers/item-members";

/** The signature as the openssl command line computes it, independently of the package. */
function opensslSignature(body: string | Buffer, secret: string): string {
  const digest = execFileSync("openssl", ["dgst", "-sha256", "-hmac", secret, "-binary"], { input: body });
  return `SHA256:${digest.toString("base64")}`;
}

/** The signature as node:crypto computes it, for property tests (openssl per case would be slow). */
const sign = (body: string | Uint8Array, secret: string) =>
  `SHA256:${createHmac("sha256", secret).update(body).digest("base64")}`;

const authentication = (overrides: Record<string, unknown> = {}) => ({
  service_id: "auth-1",
  activity: {
    name: "authentication",
    form_factor: "microscopic",
    product_category: "luxury",
    product_group: "bags",
  },
  certificate: { preview: "https://c.example/p", site: "https://c.example/s" },
  owner: { organization: { name: "acme" }, user: { username: "acme-alice" } },
  properties: {
    brand: { id: "b", display: "Brand" },
    material: { id: "leather", display: "Leather" },
  },
  status: { flag: null, result: { id: "authentic", display: "Authentic", final: true }, retake: null },
  text_fields: { customer_item_id: "order-1", identifier: "" },
  update_counter: 3,
  ...overrides,
});

const fingerprint = (overrides: Record<string, unknown> = {}) => ({
  service_id: "fp-1",
  activity: { name: "fingerprint", mode: "register", form_factor: "microscopic" },
  owner: { organization: { name: "acme" }, user: { username: "acme-alice" } },
  status: { flag: null, result: { id: "registered", display: "Registered", final: true }, retake: null },
  text_fields: { customer_item_id: "order-2" },
  update_counter: 1,
  ...overrides,
});

const body = (items: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ channel: "orders", item_count: items.length, items, webhook_uuid: "w-1", ...extra });

/** Signs `raw` with the test secret and parses it as an API 2.0 delivery. */
const parseSigned = (raw: string) => parseDelivery(raw, sign(raw, SECRET), [SECRET]);

/** The error `fn` throws, for assertions on its fields. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("parseDelivery", () => {
  it("verifies an openssl signature and returns the envelope in camelCase with typed items", () => {
    const raw = body([authentication(), fingerprint()]);
    const delivery = parseDelivery(Buffer.from(raw), opensslSignature(raw, SECRET), [SECRET]);
    expect(delivery).toEqual({
      webhookUuid: "w-1",
      channel: "orders",
      items: [authentication(), fingerprint()],
      secretIndex: 0,
    });
    const [first, second] = delivery.items;
    expect(isAuthentication(first!) && first.properties.brand.id).toBe("b");
    expect(isFingerprint(second!) && second.activity.mode).toBe("register");
    expect([isAuthentication(second!), isFingerprint(first!)]).toEqual([false, false]);
  });

  it("says which secret matched during a rotation", () => {
    const raw = body([authentication()]);
    const next = `${SECRET}-next`;
    expect(parseDelivery(raw, opensslSignature(raw, next), [SECRET, next]).secretIndex).toBe(1);
  });

  it("reads API 1.4 items: timestamp required, no status additions", () => {
    const status = { flag: "review", result: { id: "unidentified", display: "Unidentified", final: false } };
    const timestamp = { display: "2026-01-01T00:00:00.000Z", epoch: 1767225600 };
    const v1 = authentication({ timestamp, status });
    const raw = body([v1]);
    expect(parseDelivery(raw, sign(raw, SECRET), [SECRET], { apiVersion: "1.4" }).items).toEqual([v1]);
    const bare = body([authentication({ status })]);
    expect(() => parseDelivery(bare, sign(bare, SECRET), [SECRET], { apiVersion: "1.4" })).toThrow(
      /items\[0\]\.timestamp/,
    );
  });

  it("keeps keys and enum values it does not know, at every level", () => {
    const item = authentication({
      brand_new: { nested: [1, 2] },
      activity: {
        name: "authentication",
        form_factor: "x_ray",
        product_category: "watches",
        product_group: "dials",
        added: true,
      },
      status: {
        flag: "new_flag",
        result: { id: "counterfeit_suspected", display: "?", final: false, reason: "r", score: 0.3 },
        retake: { anything: "goes" },
      },
      images: [{ type: "panorama", url: "https://i.example/1", width: 100 }],
    });
    expect(parseSigned(body([item], { new_envelope_key: 1 })).items).toEqual([item]);
  });

  it("accepts both shapes of images and refuses anything else", () => {
    for (const images of [
      [{ type: "thumbnail", url: "https://i.example/t" }],
      { photos: { front: "https://i.example/f" } },
      { camera: { url: "https://i.example/c" } },
    ]) {
      expect(parseSigned(body([authentication({ images })])).items[0]).toHaveProperty("images", images);
    }
    expect(() => parseSigned(body([authentication({ images: "https://i.example" })]))).toThrow(
      /items\[0\]\.images/,
    );
  });

  it("refuses a bad signature with a typed error that explains the likely cause and hides secrets", () => {
    const raw = body([authentication()]);
    const signature = opensslSignature(raw, SECRET);
    const reserialized = JSON.stringify(JSON.parse(raw), null, 2);
    const error = thrown(() => parseDelivery(reserialized, signature, [SECRET, `${SECRET}-next`]));
    expect(error).toBeInstanceOf(InvalidSignatureError);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: "invalid_signature" });
    expect(error.message).toMatch(/parsed and re-serialized.*raw bytes.*another webhook.*rotation/);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain(signature.slice("SHA256:".length));

    const padded = thrown(() => parseDelivery(raw, signature, [`${SECRET}\n`]));
    expect(padded.message).toMatch(/secret 0 once its leading or trailing whitespace.*stray newline/);
    expect(thrown(() => parseDelivery(raw, undefined, [SECRET])).message).toMatch(/header is missing/);
    expect(
      thrown(() => parseDelivery(JSON.parse(raw) as unknown as string, signature, [SECRET])).message,
    ).toMatch(/parsed object.*express\.raw/);
  });

  it("refuses a signed body that is not a delivery, naming what is wrong", () => {
    const cases: [string | Uint8Array, RegExp][] = [
      ["not json", /the body is not UTF-8 JSON/],
      [Buffer.from([0x7b, 0xff, 0x7d]), /the body is not UTF-8 JSON/],
      [JSON.stringify({ channel: "c", item_count: 0, items: [] }), /webhook_uuid: .*expected string/],
      [body([authentication()], { item_count: 2 }), /item_count is 2 but items holds 1/],
      [body([authentication({ activity: { name: "appraisal" } })]), /items\[0\]\.activity\.name/],
      [body([authentication({ update_counter: "3" })]), /items\[0\]\.update_counter: .*expected number/],
      [body([fingerprint({ status: { flag: null, retake: null } })]), /items\[0\]\.status\.result/],
    ];
    for (const [raw, message] of cases) {
      const error = thrown(() => parseDelivery(raw, sign(raw, SECRET), [SECRET]));
      expect(error).toBeInstanceOf(MalformedDeliveryError);
      expect(error).toMatchObject({ code: "malformed_delivery" });
      expect(error.message).toMatch(message);
      expect(error.message).toMatch(/signature is valid/);
    }
    const named = thrown(() => parseSigned(body([fingerprint({ owner: {} })])));
    expect(named).toMatchObject({ webhookUuid: "w-1" });
    expect(named.message).toMatch(/from webhook w-1.*items\[0\]\.owner\.organization/);
  });

  it("reads the body's bytes as UTF-8, from a Uint8Array as from a Buffer, and refuses any other encoding", () => {
    const raw = body([authentication()]);
    const bytes = new TextEncoder().encode(raw);
    expect(parseDelivery(bytes, sign(bytes, SECRET), [SECRET]).items).toEqual([authentication()]);
    // A byte that is no UTF-8, inside a string: a lenient decoder would read U+FFFD there and parse it.
    const latin1 = Uint8Array.from(Buffer.from(body([authentication()], { channel: "caf\u00e9" }), "latin1"));
    const error = thrown(() => parseDelivery(latin1, sign(latin1, SECRET), [SECRET]));
    expect(error).toBeInstanceOf(MalformedDeliveryError);
    expect(error.message).toMatch(/the body is not UTF-8 JSON/);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it.each(["2.0", "1.4"] as const)(
    "API %s: refuses a delivered item without a member the spec requires, naming the member",
    (apiVersion) => {
      // API 1.4 items carry their timestamp; API 2.0 ones carry the status's retake instead (spec 6).
      const timestamp = { display: "2024-05-01T09:30:00.000Z", epoch: 1714555800 };
      const added =
        apiVersion === "1.4"
          ? ["update_counter", "timestamp.display", "timestamp.epoch"]
          : ["update_counter", "status.retake"];
      const items = {
        authentication: { ...authentication(), ...(apiVersion === "1.4" ? { timestamp } : {}) },
        fingerprint: { ...fingerprint(), ...(apiVersion === "1.4" ? { timestamp } : {}) },
      };
      const parse = (item: unknown) => {
        const raw = body([item]);
        return () => parseDelivery(raw, sign(raw, SECRET), [SECRET], { apiVersion });
      };
      for (const kind of ["authentication", "fingerprint"] as const) {
        expect(parse(items[kind])().items).toEqual([items[kind]]);
        for (const path of [...REQUIRED_MEMBERS[kind], ...added]) {
          const error = thrown(parse(withoutMember(items[kind], path)));
          expect(error, path).toBeInstanceOf(MalformedDeliveryError);
          expect(error.message, path).toContain(`items[0].${path}: `);
        }
      }
    },
  );

  it("refuses an unknown apiVersion before reading anything", () => {
    const raw = body([authentication()]);
    const error = thrown(() =>
      parseDelivery(raw, sign(raw, SECRET), [SECRET], { apiVersion: "3.0" as unknown as "2.0" }),
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(/apiVersion "3\.0".*"2\.0" and "1\.4"/);
  });

  it("is recognised across two copies of the package", () => {
    // The built package, loaded by its name as a user's program does, is a second copy of the module.
    const dist = require("@service/pulumi/receiver") as typeof import("../../../provider/receiver/index");
    const raw = body([authentication()]);
    const error = thrown(() => dist.parseDelivery(raw, sign(raw, "another-secret-value"), [SECRET]));
    expect(error).not.toBeInstanceOf(MalformedDeliveryError);
    expect(error).toBeInstanceOf(InvalidSignatureError);
    expect(error).toBeInstanceOf(ServiceError);
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

  it("any delivery of well-formed items round-trips, unknown keys and values included", () => {
    const text = fc.string({ maxLength: 12 });
    const extras = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !(k in authentication()) && k !== "__proto__"),
      fc.jsonValue(),
      { maxKeys: 3 },
    );
    const item = fc.oneof(
      fc
        .record({ id: text, counter: fc.integer(), form: text, extra: extras })
        .map(({ id, counter, form, extra }) =>
          authentication({
            ...extra,
            service_id: id,
            update_counter: counter,
            activity: { ...authentication().activity, form_factor: form },
          }),
        ),
      fc
        .record({ id: text, counter: fc.integer(), mode: text, extra: extras })
        .map(({ id, counter, mode, extra }) =>
          fingerprint({
            ...extra,
            service_id: id,
            update_counter: counter,
            activity: { ...fingerprint().activity, mode },
          }),
        ),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 5 }), text, (items, channel) => {
        const raw = body(items, { channel });
        const delivery = parseSigned(raw);
        expect(delivery.items).toEqual(JSON.parse(raw).items);
        expect(delivery.channel).toBe(channel);
        const miscounted = body(items, { channel, item_count: items.length + 1 });
        expect(() => parseSigned(miscounted)).toThrow(MalformedDeliveryError);
      }),
    );
  });
});
