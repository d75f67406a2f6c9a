import { beforeEach, describe, expect, it } from "vitest";
import { HOOKS_TOKEN, HOST, OTHER_TOKEN, SECRET } from "../../helpers/fixtures";
import {
  hookBody,
  registerDomain as registerDomainVia,
  useClockedWorld,
  type World,
} from "../../helpers/world";

/** The webhook routes (spec 2.6, 5): create and its rules, the quota, listing and deactivation. */
const world = useClockedWorld();
const api = (...args: Parameters<World["api"]>) => world.current.api(...args);
const registerDomain = (domain = HOST, token = HOOKS_TOKEN) =>
  registerDomainVia(world.current, domain, token);

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
