import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AuthenticationItemV1Schema,
  AuthenticationItemV2Schema,
  FingerprintItemV1Schema,
  FingerprintItemV2Schema,
  ItemWarningSchema,
} from "../../../contract/sessions/item-responses";
import {
  createLambdaHandler,
  createNodeHandler,
  type Delivery,
  MalformedDeliveryError,
  parseDelivery,
  type ReceiverFailure,
  type Snapshot,
} from "../../../provider/receiver/index";
import { ManualClock } from "../../../sandbox/index";
import { SECRET } from "../../helpers/fixtures";
import { asFunctionUrl, type ReceiverWorld, startReceiverWorld } from "../../helpers/receiver-server";

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

describe.each(VERSIONS)("API %s items answered by GET, read by the item schemas", (version) => {
  let world: ReceiverWorld;
  beforeEach(async () => {
    world = await startReceiverWorld((_req, res) => res.writeHead(200).end());
  });
  afterEach(() => world.close());

  const prefix = version === "2.0" ? "/v2" : "/v1";
  const schemas =
    version === "2.0"
      ? { authentication: AuthenticationItemV2Schema, fingerprint: FingerprintItemV2Schema }
      : { authentication: AuthenticationItemV1Schema, fingerprint: FingerprintItemV1Schema };

  it("reads an authentication, with the v2 status additions only in v2", async () => {
    const { service_id } = await world.upsert({ kind: "authentication" });
    const got = await world.api("GET", `${prefix}/authentications/${service_id}`);
    const item = schemas.authentication.parse(got.json.item);
    expect(item).toMatchObject({ service_id, activity: { name: "authentication" }, timestamp: {} });
    expect("flag_reason_id" in item.status).toBe(version === "2.0");
  });

  it("reads a compare fingerprint's parent whole when owned, and {} with a warning when not", async () => {
    const owned = await world.upsert({ kind: "fingerprint" });
    const foreign = await world.upsert({ kind: "fingerprint", organization: "globex" });
    const compare = async (parentId: string) => {
      const { service_id } = await world.upsert({
        kind: "fingerprint",
        item: { activity: { mode: "compare" }, fingerprint_parent: { service_id: parentId } },
      });
      return (await world.api("GET", `${prefix}/fingerprints/${service_id}`)).json;
    };
    const whole = await compare(owned.service_id);
    expect(schemas.fingerprint.parse(whole.item).fingerprint_parent).toMatchObject({
      service_id: owned.service_id,
      url: expect.stringMatching(
        new RegExp(`^http://127\\.0\\.0\\.1:\\d+${prefix}/fingerprints/${owned.service_id}$`),
      ),
    });
    const hidden = await compare(foreign.service_id);
    expect(schemas.fingerprint.parse(hidden.item).fingerprint_parent).toEqual({});
    expect(hidden.warnings.map((w: unknown) => ItemWarningSchema.parse(w).code)).toEqual([
      "fingerprint_parent_not_authorized",
    ]);
  });
});

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
