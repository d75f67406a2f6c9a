import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../sandbox/index";
import { hookBody, registerDomain, startWorld, type World } from "../helpers/world";

/** Display strings follow Accept-Language (spec 2.1, 4.1): every `display` member, timestamps included. */
let world: World;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5, 250));
  world = await startWorld({}, { clock });
});
afterEach(() => world.close());

/** A plain call with an Accept-Language header (the shared helper sends fetch's default, `*`). */
async function call(method: string, path: string, language: string | undefined, body?: unknown) {
  const res = await fetch(`${world.sandbox.url}${path}`, {
    method,
    headers: {
      authorization: "Token acme-hooks-token-0123456789",
      "api-version": path.startsWith("/v1") ? "1.4" : "2.0",
      "content-type": "application/json",
      ...(language === undefined ? {} : { "accept-language": language }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

const EN_TIME = "2026-01-02T03:04:05.250Z";
const JA_TIME = "2026/01/02 03:04:05.250 UTC";

describe("session items", () => {
  it("show result, brand, material and timestamp displays in the asked language", async () => {
    const { service_id: serviceId } = world.sandbox.upsertSession({
      organization: "acme",
      kind: "authentication",
    });
    const en = (await call("GET", `/v2/authentications/${serviceId}`, "en")).json.item;
    const ja = (await call("GET", `/v2/authentications/${serviceId}`, "ja")).json.item;
    expect(en.status.result.display).toBe("Authentic");
    expect(ja.status.result.display).toBe("正規品");
    expect(en.properties.material.display).toBe("Leather");
    expect(ja.properties.material.display).toBe("レザー");
    expect(ja.properties.brand.display).not.toBe(en.properties.brand.display);
    expect(en.timestamp).toEqual({ display: EN_TIME, epoch: clock.now() / 1000 });
    expect(ja.timestamp).toEqual({ display: JA_TIME, epoch: clock.now() / 1000 });
    // Both forms keep fractional seconds and a UTC marker, and name the same instant.
    expect(Date.parse(ja.timestamp.display)).toBe(clock.now());
    const listed = (await call("POST", "/v1/search/authentications", "ja", {})).json.items[0];
    expect(listed.status.result.display).toBe("正規品");
  });

  it("answer in English without the header, with an empty one or with *, and match region subtags", async () => {
    const { service_id: serviceId } = world.sandbox.upsertSession({
      organization: "acme",
      kind: "fingerprint",
    });
    for (const language of [undefined, "", "*", "EN", "en-US"]) {
      const res = await call("GET", `/v1/fingerprints/${serviceId}`, language);
      expect(res.json.item.status.result.display, String(language)).toBe("Registered");
    }
    for (const language of ["ja-JP", "fr, ja;q=0.5", "en;q=0.2, ja"]) {
      const res = await call("GET", `/v1/fingerprints/${serviceId}`, language);
      expect(res.json.item.status.result.display, language).toBe("登録済み");
    }
  });

  it("follow a changed result id, and take {en, ja} display pairs given by the admin route", async () => {
    const { service_id: serviceId } = world.sandbox.upsertSession({
      organization: "acme",
      kind: "authentication",
    });
    world.sandbox.upsertSession({
      organization: "acme",
      kind: "authentication",
      service_id: serviceId,
      item: {
        status: { result: { id: "unidentified" }, flag_reason_display: { en: "Blurry", ja: "不鮮明" } },
        properties: { brand: { id: "house-brand" } },
      },
    });
    const ja = (await call("GET", `/v2/authentications/${serviceId}`, "ja")).json.item;
    expect(ja.status.result.display).toBe("判定不能");
    expect(ja.status.flag_reason_display).toBe("不鮮明");
    expect(ja.properties.brand).toEqual({ id: "house-brand", display: "house-brand" });
    const en = (await call("GET", `/v2/authentications/${serviceId}`, "en")).json.item;
    expect(en.status.result.display).toBe("Unidentified");
    expect(en.status.flag_reason_display).toBe("Blurry");
  });
});

describe("webhooks, domains and deliveries", () => {
  it("show create_time / create_timestamp in the asked language", async () => {
    await registerDomain(world);
    const created = await call("POST", "/v2/webhooks", "ja", hookBody());
    expect(created.json.create_time.display).toBe(JA_TIME);
    const uuid = created.json.webhook_uuid;
    expect((await call("GET", `/v1/webhooks/${uuid}`, "ja")).json.create_timestamp.display).toBe(JA_TIME);
    expect((await call("GET", `/v2/webhooks/${uuid}`, "en")).json.create_time.display).toBe(EN_TIME);
    expect((await call("POST", "/v2/search/domains", "ja", {})).json.items[0].create_time.display).toBe(
      JA_TIME,
    );
    expect((await call("POST", "/v1/search/domains", "en", {})).json.items[0].create_timestamp.display).toBe(
      EN_TIME,
    );
  });

  it("deliver in the language the webhook was created with", async () => {
    await registerDomain(world);
    await call("POST", "/v2/webhooks", "ja", hookBody({ channel: "ja" }));
    await call("POST", "/v1/webhooks", "en", hookBody({ channel: "en" }));
    world.sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    await world.sandbox.deliveriesIdle();
    const byChannel = Object.fromEntries(
      world.origin.received
        .filter((r) => r.method === "POST")
        .map((r) => JSON.parse(r.body))
        .map((d) => [d.channel, d.items[0]]),
    );
    expect(byChannel.ja.status.result.display).toBe("正規品");
    expect(byChannel.en.status.result.display).toBe("Authentic");
    expect(byChannel.en.timestamp.display).toBe(EN_TIME);
  });
});

describe("the admin view of a session (regression: it showed bare ids such as sandbox-brand)", () => {
  it("shows the same display strings as the delivery of that session", async () => {
    await registerDomain(world);
    await call("POST", "/v2/webhooks", "en", hookBody());
    const admin = await fetch(`${world.sandbox.url}/_sandbox/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ organization: "acme", kind: "authentication" }),
    });
    const { item } = (await admin.json()) as { item: any };
    await world.sandbox.deliveriesIdle();
    const delivered = world.origin.received.filter((r) => r.method === "POST").map((r) => JSON.parse(r.body));
    const sent = delivered[0].items[0];
    expect(item.properties.brand.display).toBe(sent.properties.brand.display);
    expect(item.properties.material.display).toBe(sent.properties.material.display);
    expect(item.status.result.display).toBe(sent.status.result.display);
    expect(item.status.result.display).toBe("Authentic");
  });
});

describe("an Accept-Language other than en or ja", () => {
  it.each(["fr", "de-DE", "en;q=0"])(
    "answers 400 invalid_headers to %s, naming the header",
    async (language) => {
      const res = await call("GET", "/v1/health", language);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("invalid_headers");
      expect(res.json.error.message).toMatch(/Accept-Language.*send en or ja/);
    },
  );
});
