/**
 * parseDelivery (provider/receiver/delivery.ts): a signed delivery read into its envelope and typed items
 * of API 2.0 or 1.4, unknown keys kept, and a bad signature or a body that is no delivery refused with a
 * typed error that names the cause; then the deliveries the sandbox sends, in each version.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigurationError, ServiceError } from "../../../provider/errors/index";
import {
  type Delivery,
  InvalidSignatureError,
  isAuthentication,
  isFingerprint,
  MalformedDeliveryError,
  parseDelivery,
  type Snapshot,
} from "../../../provider/receiver/index";
import { opensslSignature, sign } from "../../helpers/delivery-items";
import { SECRET } from "../../helpers/fixtures";
import { REQUIRED_MEMBERS, withoutMember } from "../../helpers/item-members";
import { type ReceiverWorld, startReceiverWorld } from "../../helpers/receiver-server";

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

const VERSIONS = ["1.4", "2.0"] as const;
const V2_DELIVERY_DROPS = ["flag_reason_id", "flag_reason_display", "flag_message"];

/** What the webhook host received: the raw body and the signature, as a hand-written receiver sees them. */
interface Captured {
  readonly body: Buffer;
  readonly signature: string;
}

describe.each(VERSIONS)("API %s deliveries from the sandbox, read by parseDelivery", (version) => {
  let world: ReceiverWorld;
  const captured: Captured[] = [];

  beforeEach(async () => {
    captured.length = 0;
    world = await startReceiverWorld((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        captured.push({
          body: Buffer.concat(chunks),
          signature: req.headers["service-signature"] as string,
        });
        res.writeHead(200).end();
      });
    });
  });
  afterEach(() => world.close());

  const only = (deliveries: Captured[]) => {
    expect(deliveries).toHaveLength(1);
    const parsed = parseDelivery(deliveries[0]!.body, deliveries[0]!.signature, [SECRET], {
      apiVersion: version,
    });
    expect(parsed.items).toHaveLength(1);
    return {
      delivery: parsed as Delivery<typeof version>,
      item: parsed.items[0]! as Snapshot<typeof version>,
    };
  };

  it("reads authentications in the shape of the version", async () => {
    const webhookUuid = await world.createWebhook(version, { channel: "orders" });
    const { service_id } = await world.upsert({
      kind: "authentication",
      item: {
        activity: { form_factor: "lightbox", product_group: "sneakers" },
        text_fields: { style_code: "DD1391-100", us_size: "10.5" },
        status: { result: { id: "invalid", final: false, reason: "blurry" } },
      },
    });
    const { delivery, item } = only(captured);
    expect(delivery).toMatchObject({ webhookUuid, channel: "orders", secretIndex: 0 });
    expect(item).toMatchObject({
      service_id,
      update_counter: 1,
      activity: { name: "authentication", form_factor: "lightbox" },
      text_fields: { style_code: "DD1391-100", us_size: "10.5" },
      status: { flag: null, result: { id: "invalid", final: false, reason: "blurry" } },
      owner: { organization: { name: "acme" } },
    });
    if (version === "2.0") {
      expect(item).not.toHaveProperty("timestamp");
      expect(item.status).toHaveProperty("retake");
      for (const key of V2_DELIVERY_DROPS) expect(item.status).not.toHaveProperty(key);
    } else {
      expect(item).toMatchObject({ timestamp: { display: expect.any(String), epoch: expect.any(Number) } });
      expect(item.status).not.toHaveProperty("retake");
    }
  });

  it("reads fingerprints, register and compare, without fingerprint_parent", async () => {
    await world.createWebhook(version, { filters: [{ key: "activity.name", value: "fingerprint" }] });
    const parent = await world.upsert({ kind: "fingerprint" });
    await world.upsert({
      kind: "fingerprint",
      item: {
        activity: { mode: "compare" },
        status: { result: { id: "match", display: "Match" } },
        fingerprint_parent: { service_id: parent.service_id },
      },
    });
    expect(captured).toHaveLength(2);
    const [register, compare] = captured.map((c) => only([c]).item);
    expect(register).toMatchObject({ activity: { name: "fingerprint", mode: "register" } });
    expect(compare).toMatchObject({
      activity: { name: "fingerprint", mode: "compare" },
      status: { result: { id: "match" } },
    });
    expect(compare).not.toHaveProperty("fingerprint_parent");
    expect("timestamp" in compare!).toBe(version === "1.4");
  });

  it("names the other version when the receiver is set to the wrong one", async () => {
    await world.createWebhook(version);
    await world.upsert({ kind: "authentication" });
    const other = version === "2.0" ? "1.4" : "2.0";
    const read = () =>
      parseDelivery(captured[0]!.body, captured[0]!.signature, [SECRET], { apiVersion: other });
    expect(read).toThrow(MalformedDeliveryError);
    // v2 items lack the timestamp of v1.4 items; v1.4 items lack the status.retake of v2 items.
    const missing = version === "2.0" ? "timestamp" : "status.retake";
    expect(read).toThrow(new RegExp(`items\\[0\\]\\.${missing}.*pass \\{ apiVersion: "${version}" \\}`));
  });
});
