import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock, type Sandbox, startSandbox } from "../../sandbox/index";
import {
  HOOKS_TOKEN,
  HOST,
  OTHER_HOST,
  OTHER_TOKEN,
  PLAIN_TOKEN,
  SECRET,
  testSeed,
} from "../helpers/fixtures";
import { plainApi } from "../helpers/http";
import { type OriginAnswer, startOrigin, type TestOrigin } from "../helpers/origin";
import { hookBody, registerDomain as registerDomainVia } from "../helpers/world";

let origin: TestOrigin;
let sandbox: Sandbox;
let api: ReturnType<typeof plainApi>;
let clock: ManualClock;

async function boot(settings: Parameters<typeof testSeed>[1] = {}) {
  sandbox = await startSandbox({ seed: testSeed(origin.url, settings), clock });
  api = plainApi(sandbox.url, { token: HOOKS_TOKEN });
}

beforeEach(async () => {
  origin = await startOrigin();
  clock = new ManualClock();
  await boot();
});

afterEach(async () => {
  await sandbox.close();
  await origin.close();
});

const registerDomain = (domain = HOST, token = HOOKS_TOKEN) =>
  registerDomainVia({ api, origin }, domain, token);

describe("auth and versions", () => {
  it("answers 401 to a missing or unknown token", async () => {
    expect((await api("GET", "/v1/health", { token: null })).status).toBe(401);
    expect((await api("GET", "/v1/health", { token: "nope" })).status).toBe(401);
    expect((await api("GET", "/v1/health")).json).toEqual({ status: "ok" });
  });

  it("answers 400 to a missing or wrong Api-Version", async () => {
    expect((await api("GET", "/v1/health", { version: null })).status).toBe(400);
    expect((await api("GET", "/v1/health", { version: "2.0" })).status).toBe(400);
    expect((await api("POST", "/v2/search/domains", { version: "1.4", body: {} })).status).toBe(400);
  });

  it("takes 1.3 for webhook creation on /v1 but 1.4 only elsewhere", async () => {
    await registerDomain();
    expect((await api("POST", "/v1/webhooks", { version: "1.3", body: hookBody() })).status).toBe(200);
    expect((await api("POST", "/v1/search/webhooks", { version: "1.3", body: {} })).status).toBe(400);
  });

  it("refuses webhook and domain operations to a token without webhooks, saying so", async () => {
    const res = await api("POST", "/v2/search/webhooks", { token: PLAIN_TOKEN, body: {} });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.json)).toMatch(/webhooks enabled/);
    expect((await api("GET", "/v1/health", { token: PLAIN_TOKEN })).status).toBe(200);
  });

  it("answers 400 to malformed JSON", async () => {
    expect((await api("POST", "/v2/webhooks", { rawBody: "{not json" })).status).toBe(400);
    expect((await api("POST", "/v2/search/domains", { rawBody: "[" })).status).toBe(400);
  });

  it("answers 404 naming an unknown route", async () => {
    const res = await api("GET", "/v2/nothing/here");
    expect(res.status).toBe(404);
    expect(res.json.error.message).toContain("GET /v2/nothing/here");
  });

  it("answers 405 with Allow to a route's path asked with another method", async () => {
    const res = await api("DELETE", "/v2/webhooks/9c1e0000-0000-4000-8000-000000000000");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(res.json.error.message).toMatch(/^\/v2\/webhooks\/\{webhook_uuid\} takes GET, not DELETE/);
    expect((await api("GET", "/v2/search/webhooks")).headers.get("allow")).toBe("POST");
    // HEAD is GET without a body, as HTTP has it.
    expect((await api("HEAD", "/v1/health")).status).toBe(200);
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After over the limit, and lets requests through again a second later", async () => {
    await sandbox.close();
    await boot({ rateLimitPerSecond: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await api("GET", "/v1/health")).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await api("GET", "/v1/health");
    expect(limited.headers.get("retry-after")).toBe("1");
    clock.advance(1000);
    expect((await api("GET", "/v1/health")).status).toBe(200);
  });
});

describe("domains", () => {
  it("starts a registration for a bare hostname only", async () => {
    for (const bad of [
      "https://hooks.acme.test",
      "hooks.acme.test/",
      "hooks.acme.test/x",
      "localhost",
      "HOOKS.acme.test",
    ]) {
      const res = await api("POST", "/v2/domains/start_registration", { body: { domain_name: bad } });
      expect(res.status, bad).toBe(400);
      expect(res.json.error.fields[0].field).toBe("domain_name");
    }
    const res = await api("POST", "/v2/domains/start_registration", { body: { domain_name: HOST } });
    expect(res.status).toBe(200);
    expect(res.json.url).toBe(`https://${HOST}/service_url_registration/${res.json.verifier}`);
    expect(typeof res.json.register_token).toBe("string");
    expect(Date.parse(res.json.expires_at)).toBe(clock.now() + 3600_000);
  });

  it("finishes when the file holds exactly the token, and again idempotently", async () => {
    const first = await registerDomain();
    const again = await api("POST", "/v2/domains/finish_registration", {
      body: { domain_name: HOST, verifier: first.verifier },
    });
    expect(again.status).toBe(200);
    expect(again.json.domain_uuid).toBe(first.domain_uuid);
    const listed = await api("POST", "/v2/search/domains", { body: {} });
    expect(listed.json.items.map((d: { domain_uuid: string }) => d.domain_uuid)).toEqual([first.domain_uuid]);
    expect(listed.json.items[0].create_time.epoch).toBe(clock.now() / 1000);
    const v1 = await api("POST", "/v1/search/domains", { body: {} });
    expect(v1.json.items[0].create_timestamp).toBeDefined();
  });

  it("refuses a wrong verifier for a registered domain (regression: any verifier finished it)", async () => {
    const first = await registerDomain();
    const finish = (verifier: string) =>
      api("POST", "/v2/domains/finish_registration", { body: { domain_name: HOST, verifier } });
    const wrong = await finish("anything");
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.message).toMatch(/already registered.*not the one that registered it/);
    expect(wrong.json.error.fields[0].field).toBe("verifier");
    // A fresh start's verifier, with its file served, finishes to the same domain.
    const start = await api("POST", "/v2/domains/start_registration", { body: { domain_name: HOST } });
    origin.files.set(`/service_url_registration/${start.json.verifier}`, {
      status: 200,
      body: start.json.register_token,
    });
    const again = await finish(start.json.verifier);
    expect(again.status).toBe(200);
    expect(again.json.domain_uuid).toBe(first.domain_uuid);
  });

  it("counts wrong verifiers as failed finishes towards the 429", async () => {
    await sandbox.close();
    await boot({ maxFailedFinishAttempts: 2 });
    await registerDomain();
    const finish = () =>
      api("POST", "/v2/domains/finish_registration", { body: { domain_name: HOST, verifier: "guess" } });
    expect((await finish()).status).toBe(400);
    expect((await finish()).status).toBe(400);
    expect((await finish()).status).toBe(429);
  });

  it("answers not registered to a finish for a domain never started", async () => {
    const res = await api("POST", "/v2/domains/finish_registration", {
      body: { domain_name: "never.acme.test", verifier: "v" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/not registered/);
  });

  it("lists 20 domains a page by default on v2 and 25 on v1.4", async () => {
    const token = sandbox.store.tokens.get(HOOKS_TOKEN)!;
    for (let i = 0; i < 26; i++) {
      sandbox.store.completeRegistration(token, sandbox.store.startRegistration(token, `d${i}.acme.test`));
    }
    const v2 = await api("POST", "/v2/search/domains", { body: {} });
    expect(v2.json.item_count).toBe(20);
    const rest = await api("POST", "/v2/search/domains", { body: { cursor: v2.json.next_cursor } });
    expect(rest.json).toMatchObject({ item_count: 6, next_cursor: null });
    expect((await api("POST", "/v1/search/domains", { body: { limit: null } })).json.item_count).toBe(25);
    for (const limit of [0, 21, 2.5])
      expect((await api("POST", "/v2/search/webhooks", { body: { limit } })).status, String(limit)).toBe(400);
  });

  it.each<[string, OriginAnswer, RegExp]>([
    ["a wrong body", { status: 200, body: "wrong" }, /not exactly the register token/],
    ["a trailing newline", { status: 200, body: "TOKEN\n" }, /not exactly the register token/],
    ["a redirect", { status: 302, headers: { location: "/elsewhere" } }, /redirect/],
    ["a 404", { status: 404 }, /answered 404/],
  ])("explains a failed check: %s", async (_name, answer, reason) => {
    const start = await api("POST", "/v2/domains/start_registration", { body: { domain_name: HOST } });
    const body = answer.body === "TOKEN\n" ? `${start.json.register_token}\n` : answer.body;
    origin.files.set(`/service_url_registration/${start.json.verifier}`, { ...answer, body });
    const res = await api("POST", "/v2/domains/finish_registration", {
      body: { domain_name: HOST, verifier: start.json.verifier },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/check failed/);
    expect(res.json.error.message).toMatch(reason);
    expect(JSON.stringify(res.json)).not.toContain(start.json.register_token);
  });

  it("answers 429 after too many failed finishes", async () => {
    await sandbox.close();
    await boot({ maxFailedFinishAttempts: 2, finishBlockSeconds: 30 });
    const start = await api("POST", "/v2/domains/start_registration", { body: { domain_name: HOST } });
    const finish = () =>
      api("POST", "/v2/domains/finish_registration", {
        body: { domain_name: HOST, verifier: start.json.verifier },
      });
    expect((await finish()).status).toBe(400);
    expect((await finish()).status).toBe(400);
    const blocked = await finish();
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toBe("30");
  });

  it("refuses a finish after expires_at", async () => {
    const start = await api("POST", "/v2/domains/start_registration", { body: { domain_name: HOST } });
    origin.files.set(`/service_url_registration/${start.json.verifier}`, {
      status: 200,
      body: start.json.register_token,
    });
    clock.advance(3600_000);
    const res = await api("POST", "/v2/domains/finish_registration", {
      body: { domain_name: HOST, verifier: start.json.verifier },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/expired.*start registration again/);
  });

  it("deactivates: 409 while a webhook targets the domain, 400 once removed", async () => {
    const domain = await registerDomain();
    const hook = await api("POST", "/v2/webhooks", { body: hookBody() });
    const busy = await api("POST", `/v2/domains/${domain.domain_uuid}/deactivate`);
    expect(busy.status).toBe(409);
    expect(busy.json.error.message).toContain(hook.json.webhook_uuid);
    await api("POST", `/v2/webhooks/${hook.json.webhook_uuid}/deactivate`);
    expect((await api("POST", `/v2/domains/${domain.domain_uuid}/deactivate`)).json).toEqual({
      status: "ok",
    });
    const again = await api("POST", `/v2/domains/${domain.domain_uuid}/deactivate`);
    expect(again.status).toBe(400);
    expect(again.json.error.message).toMatch(/not registered/);
  });

  it("takes a v2 search limit of 1 to 20 and a v1.4 one up to 25", async () => {
    for (const limit of [0, 21])
      expect((await api("POST", "/v2/search/domains", { body: { limit } })).status).toBe(400);
    expect((await api("POST", "/v2/search/domains", { body: { limit: 20 } })).status).toBe(200);
    expect((await api("POST", "/v2/search/domains", { body: { limit: null } })).status).toBe(200);
    expect((await api("POST", "/v1/search/domains", { body: { limit: 25 } })).status).toBe(200);
    expect((await api("POST", "/v1/search/domains", { body: { limit: 26 } })).status).toBe(400);
  });
});

describe("webhooks", () => {
  beforeEach(async () => {
    await registerDomain();
  });

  it("creates with channel default and never returns the secret", async () => {
    const res = await api("POST", "/v2/webhooks", { body: hookBody() });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      channel: "default",
      endpoint: { type: "url", value: `https://${HOST}/service/events` },
      webhook_owner: { organization: { name: "acme" }, user: { username: "acme-alice" } },
    });
    expect(res.json.create_time).toBeDefined();
    const got = await api("GET", `/v2/webhooks/${res.json.webhook_uuid}`);
    const listed = await api("POST", "/v2/search/webhooks", { body: {} });
    for (const text of [res, got, listed].map((r) => JSON.stringify(r.json)))
      expect(text).not.toContain(SECRET);
    const v1 = await api("GET", `/v1/webhooks/${res.json.webhook_uuid}`);
    expect(v1.json.create_timestamp).toBeDefined();
    // format_options is a v2-only member of the webhook resource (spec 2.6)
    expect(res.json.format_options).toEqual({});
    expect(v1.json).not.toHaveProperty("format_options");
    expect(v1.json).not.toHaveProperty("create_time");
  });

  it.each([
    ["plain http", { endpoint: { type: "url", value: `http://${HOST}/e` } }, "endpoint.value", /https/],
    [
      "a query on v2",
      { endpoint: { type: "url", value: `https://${HOST}/e?x=1` } },
      "endpoint.value",
      /query/,
    ],
    [
      "a fragment on v2",
      { endpoint: { type: "url", value: `https://${HOST}/e#x` } },
      "endpoint.value",
      /fragment/,
    ],
    ["a short secret", { secret_key: "x".repeat(15) }, "secret_key", /16 to 256 characters.*longer/],
    ["a long secret", { secret_key: "x".repeat(257) }, "secret_key", /16 to 256 characters.*shorter/],
    [
      "no activity.name",
      { filters: [{ key: "activity.form_factor", value: "lightbox" }] },
      "filters",
      /activity.name/,
    ],
    [
      "two activity names",
      { filters: [{ key: "activity.name", values: ["authentication", "fingerprint"] }] },
      "filters[0].values",
      /exactly one/,
    ],
    [
      "an unknown key",
      {
        filters: [
          { key: "activity.name", value: "authentication" },
          { key: "status.flag", value: "x" },
        ],
      },
      "filters[1].key",
      /must be one of/,
    ],
    [
      "a bad form factor",
      {
        filters: [
          { key: "activity.name", value: "authentication" },
          { key: "activity.form_factor", values: ["tablet"] },
        ],
      },
      "filters[1].values",
      /tablet/,
    ],
    ["neither value nor values", { filters: [{ key: "activity.name" }] }, "filters[0]", /value or values/],
    [
      "a wrong endpoint type",
      { endpoint: { type: "email", value: `https://${HOST}/e` } },
      "endpoint.type",
      /url/,
    ],
  ])("refuses %s on v2 with 400 naming %s", async (_name, override, field, message) => {
    const res = await api("POST", "/v2/webhooks", { body: hookBody(override) });
    expect(res.status).toBe(400);
    const problem = res.json.error.fields.find((f: { field: string }) => f.field === field);
    expect(problem?.message).toMatch(message);
  });

  it("applies the v1.4 rules: 20-character secrets, exactly one of value or values", async () => {
    expect(
      (await api("POST", "/v1/webhooks", { body: hookBody({ secret_key: "x".repeat(19) }) })).status,
    ).toBe(400);
    expect(
      (await api("POST", "/v1/webhooks", { body: hookBody({ secret_key: "x".repeat(20) }) })).status,
    ).toBe(200);
    const both = { filters: [{ key: "activity.name", value: "authentication", values: ["authentication"] }] };
    expect((await api("POST", "/v1/webhooks", { body: hookBody(both) })).status).toBe(400);
    expect((await api("POST", "/v2/webhooks", { body: hookBody(both) })).status).toBe(200);
  });

  it("answers 403 on v1.4 and 400 on v2 for parameters invalid for the token", async () => {
    const stranger = hookBody({
      filters: [
        { key: "activity.name", value: "authentication" },
        { key: "owner.user.username", value: "globex-carol" },
      ],
    });
    const unregistered = hookBody({ endpoint: { type: "url", value: "https://other.acme.test/e" } });
    for (const body of [stranger, unregistered]) {
      expect((await api("POST", "/v1/webhooks", { body })).status).toBe(403);
      expect((await api("POST", "/v2/webhooks", { body })).status).toBe(400);
    }
    const member = hookBody({
      filters: [
        { key: "activity.name", value: "authentication" },
        { key: "owner.user.username", value: "acme-bob" },
      ],
    });
    expect((await api("POST", "/v2/webhooks", { body: member })).status).toBe(200);
  });

  it("allows 10 active webhooks and answers 409 to the 11th", async () => {
    const made = [];
    for (let i = 0; i < 10; i++)
      made.push(await api("POST", "/v2/webhooks", { body: hookBody({ channel: `c${i}` }) }));
    expect(made.every((r) => r.status === 200)).toBe(true);
    expect((await api("POST", "/v2/webhooks", { body: hookBody() })).status).toBe(409);
    await api("POST", `/v2/webhooks/${made[0]!.json.webhook_uuid}/deactivate`);
    expect((await api("POST", "/v2/webhooks", { body: hookBody() })).status).toBe(200);
  });

  it("deactivates only active webhooks and lists active ones only, page by page", async () => {
    const uuids: string[] = [];
    for (let i = 0; i < 5; i++)
      uuids.push(
        (await api("POST", "/v2/webhooks", { body: hookBody({ channel: `c${i}` }) })).json.webhook_uuid,
      );
    expect((await api("POST", `/v2/webhooks/${uuids[0]}/deactivate`)).json).toEqual({ status: "ok" });
    expect((await api("POST", `/v2/webhooks/${uuids[0]}/deactivate`)).status).toBe(403);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { json: { items: { webhook_uuid: string }[]; next_cursor: string | null } } = await api(
        "POST",
        "/v2/search/webhooks",
        { body: { limit: 2, cursor } },
      );
      seen.push(...page.json.items.map((w) => w.webhook_uuid));
      cursor = page.json.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(uuids.slice(1));
  });

  it("keeps organizations apart: a foreign id answers 403 like an unknown one", async () => {
    const mine = await api("POST", "/v2/webhooks", { body: hookBody() });
    const foreign = await api("GET", `/v2/webhooks/${mine.json.webhook_uuid}`, { token: OTHER_TOKEN });
    const unknown = await api("GET", "/v2/webhooks/00000000-0000-0000-0000-000000000000");
    expect(foreign.status).toBe(403);
    expect(unknown.status).toBe(403);
    expect(
      (await api("POST", `/v2/webhooks/${mine.json.webhook_uuid}/deactivate`, { token: OTHER_TOKEN })).status,
    ).toBe(403);
    expect((await api("POST", "/v2/search/webhooks", { token: OTHER_TOKEN, body: {} })).json.items).toEqual(
      [],
    );
  });
});

describe("sessions and deliveries", () => {
  beforeEach(async () => {
    await registerDomain();
  });

  it("delivers a signed snapshot with update_counter and the v2 omissions", async () => {
    const hook = await api("POST", "/v2/webhooks", { body: hookBody({ channel: "orders" }) });
    const { service_id: serviceId } = sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    await sandbox.deliveriesIdle();
    const [delivery] = origin.received.filter((r) => r.method === "POST");
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
    await api("POST", "/v1/webhooks", {
      body: hookBody({ filters: [{ key: "activity.name", value: "fingerprint" }] }),
    });
    sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    sandbox.upsertSession({ organization: "acme", kind: "fingerprint" });
    await sandbox.deliveriesIdle();
    const posts = origin.received.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(1);
    const item = JSON.parse(posts[0]!.body).items[0];
    expect(item.activity.name).toBe("fingerprint");
    expect(item.timestamp).toBeDefined();
  });

  it("retries a failed delivery at growing intervals until it succeeds", async () => {
    await api("POST", "/v2/webhooks", { body: hookBody() });
    origin.postAnswers.push(500, 503);
    sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    await sandbox.deliveriesIdle();
    clock.advance(999);
    await sandbox.deliveriesIdle();
    expect(sandbox.deliveries()).toHaveLength(1);
    clock.advance(1);
    await sandbox.deliveriesIdle();
    clock.advance(2000);
    await sandbox.deliveriesIdle();
    expect(sandbox.deliveries().map((d) => [d.attempt, d.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
  });

  it("gives up once the maximum delivery time has passed", async () => {
    await sandbox.close();
    await boot({ deliveryMaxSeconds: 3 });
    await registerDomain();
    await api("POST", "/v2/webhooks", { body: hookBody() });
    origin.postAnswers.push(500, 500, 500, 500);
    sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    for (let i = 0; i < 5; i++) {
      await sandbox.deliveriesIdle();
      clock.advance(4000);
    }
    await sandbox.deliveriesIdle();
    expect(sandbox.deliveries().map((d) => d.attempt)).toEqual([1, 2]);
  });

  it("serves get, lookup and cursor search of sessions to their organization only", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      ids.push(
        sandbox.upsertSession({
          organization: "acme",
          kind: "authentication",
          item: { text_fields: { customer_item_id: `SKU-${i}` } },
        }).service_id,
      );
    }
    expect((await api("GET", `/v2/authentications/${ids[0]}`)).json.item.service_id).toBe(ids[0]);
    expect((await api("GET", `/v2/authentications/${ids[0]}`, { token: OTHER_TOKEN })).status).toBe(403);
    expect((await api("GET", "/v1/lookup/authentications/SKU-1")).json.item.service_id).toBe(ids[1]);
    const v1 = await api("GET", `/v1/authentications/${ids[0]}`);
    expect(v1.json.item.status.flag_reason_id).toBeUndefined();
    const first = await api("POST", "/v1/search/authentications", { body: { limit: 2 } });
    expect(first.json.item_count).toBe(2);
    const second = await api("POST", "/v1/search/authentications", {
      body: { limit: 2, cursor: first.json.next_cursor },
    });
    expect(second.json.next_cursor).toBeNull();
    const canonical = await api("POST", "/v1/search/authentications", {
      body: { filters: [{ key: "text_fields.customer_item_id", value: "sku 2" }], return: "service_ids" },
    });
    expect(canonical.json).toEqual({ service_id_count: 1, service_ids: [ids[2]], next_cursor: null });
    const badKey = await api("POST", "/v1/search/authentications", {
      body: { filters: [{ key: "nope", value: "x" }] },
    });
    expect(badKey.status).toBe(400);
  });
});

describe("admin output", () => {
  it("never shows a secret key, register token, API token or issued credential", async () => {
    await registerDomain();
    const pending = await api("POST", "/v2/domains/start_registration", {
      body: { domain_name: OTHER_HOST },
    });
    await api("POST", "/v2/webhooks", { body: hookBody() });
    const voucher = await api("POST", "/v2/integrations/app-login-voucher", {
      body: { unique_user_id: "user-0001", email: "a@example.com" },
    });
    const signed = await api("POST", "/v2/integrations/authorize-user", {
      body: { unique_user_id: "user-0001", email: "a@example.com", sdk_authorization_request: "r" },
    });
    sandbox.upsertSession({ organization: "acme", kind: "authentication" });
    await sandbox.deliveriesIdle();
    const secrets = [
      SECRET,
      HOOKS_TOKEN,
      pending.json.register_token,
      voucher.json.login_voucher,
      signed.json.signed_authorization_request,
    ];
    for (const route of ["/_sandbox/state", "/_sandbox/requests", "/_sandbox/deliveries", "/_sandbox"]) {
      const text = await (await fetch(`${sandbox.url}${route}`)).text();
      for (const secret of secrets) expect(text, route).not.toContain(secret);
    }
  });
});

describe("faults", () => {
  it("answers a chosen status for the next N matching requests", async () => {
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 503, count: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api("GET", "/v1/health")).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  it("applies a request, then drops the connection", async () => {
    await registerDomain();
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: "/v2/webhooks", drop: true }),
    });
    await expect(api("POST", "/v2/webhooks", { body: hookBody() })).rejects.toThrow();
    const listed = await api("POST", "/v2/search/webhooks", { body: {} });
    expect(listed.json.items).toHaveLength(1);
  });

  it("applies a request, then answers a chosen status anyway", async () => {
    await registerDomain();
    await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: "/v2/webhooks", status: 503, apply: true }),
    });
    expect((await api("POST", "/v2/webhooks", { body: hookBody() })).status).toBe(503);
    expect((await api("POST", "/v2/search/webhooks", { body: {} })).json.items).toHaveLength(1);
    const refused = await fetch(`${sandbox.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: "/v2/webhooks", apply: true }),
    });
    expect(refused.status).toBe(400);
  });

  it("sends the Date of its own clock", async () => {
    const response = await fetch(`${sandbox.url}/v1/health`, {
      headers: { authorization: `Token ${HOOKS_TOKEN}`, "api-version": "1.4" },
    });
    expect(Date.parse(response.headers.get("date")!)).toBe(Math.floor(clock.now() / 1000) * 1000);
  });

  it("holds a request for a delay before handling it", async () => {
    sandbox.addFault({ method: "GET", path: "/v1/*", delayMs: 50 });
    const started = performance.now();
    expect((await api("GET", "/v1/health")).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });
});

describe("fault paths (regression: a route template was accepted with 200 and never fired)", () => {
  const arm = (fault: object) =>
    fetch(`${sandbox.url}/_sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(fault),
    });

  it.each([
    ["a route template", "GET", "/v2/webhooks/{webhook_uuid}"],
    ["a path no route has", "POST", "/v2/webhook"],
    ["a route of another method", "GET", "/v2/search/webhooks"],
    ["a prefix no route starts with", "GET", "/v3/*"],
  ])("refuses %s with 400, naming the path syntax", async (_what, method, path) => {
    const refused = await arm({ method, path, status: 503 });
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { message: string; fields: { field: string }[] } };
    expect(error.fields.map((f) => f.field)).toEqual(["path"]);
    expect(error.message).toContain("with each {parameter} of the route filled in");
  });

  it("arms a filled-in path and a prefix, which then fire", async () => {
    const hook = (await api("GET", "/v2/webhooks/0f0e0d0c-0000-4000-8000-000000000000")).status;
    expect(
      (await arm({ method: "GET", path: "/v2/webhooks/0f0e0d0c-0000-4000-8000-000000000000", status: 502 }))
        .status,
    ).toBe(200);
    expect((await arm({ method: "POST", path: "/v2/search/web*", status: 504 })).status).toBe(200);
    expect((await api("GET", "/v2/webhooks/0f0e0d0c-0000-4000-8000-000000000000")).status).toBe(502);
    expect((await api("POST", "/v2/search/webhooks", { body: {} })).status).toBe(504);
    expect(hook).not.toBe(502);
  });
});

describe("addFault (regression: it skipped the checks POST /_sandbox/faults makes)", () => {
  it("refuses an impossible fault instead of arming an inert one", () => {
    expect(() => sandbox.addFault({ method: "POST", path: "/v2/webhooks", apply: true })).toThrow(
      /apply needs a status/,
    );
    expect(() => sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 503, drop: true })).toThrow(
      /status and drop exclude each other/,
    );
  });

  it("arms a fault for one request when count is given as undefined", async () => {
    sandbox.addFault({ method: "GET", path: "/v1/health", status: 503, count: undefined });
    expect((await api("GET", "/v1/health")).status).toBe(503);
    expect((await api("GET", "/v1/health")).status).toBe(200);
  });
});
