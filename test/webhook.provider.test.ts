import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clientFor } from "../provider/runtime/credentials";
import { webhook } from "../provider/runtime/index";
import { forgetWebhooks } from "../provider/runtime/listings";
import { UNKNOWN } from "../provider/runtime/unknowns";
import { HOOKS_TOKEN, HOST, OTHER_TOKEN, SECRET } from "./helpers/fixtures";
import { configureStack } from "./helpers/runtime";
import { hookBody, registerDomain, startWorld, type World } from "./helpers/world";

let world: World;

const args = (overrides: Record<string, unknown> = {}) => ({
  endpoint: `https://${HOST}/service/events`,
  secretKey: SECRET,
  filters: [{ key: "activity.name", value: "authentication" }],
  ...overrides,
});

async function created(overrides: Record<string, unknown> = {}) {
  const { inputs, failures } = await webhook.check({}, args(overrides));
  expect(failures).toEqual([]);
  return { inputs, ...(await webhook.create(inputs)) };
}

const active = async () =>
  (await world.api("POST", "/v2/search/webhooks", { body: {} })).json.items as { webhook_uuid: string }[];

beforeEach(async () => {
  process.env.SERVICE_RATE_LIMIT = "0";
  world = await startWorld();
  await registerDomain(world);
  configureStack(world.sandbox.url);
});

afterEach(async () => {
  await world.close();
});

describe("check", () => {
  it("normalizes filter order and value/values, and applies defaults", async () => {
    const a = await webhook.check(
      {},
      args({
        filters: [
          { key: "activity.form_factor", values: ["microscopic", "lightbox"] },
          { key: "activity.name", values: ["authentication"] },
        ],
      }),
    );
    const b = await webhook.check(
      {},
      args({
        filters: [
          { key: "activity.name", value: "authentication" },
          { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
        ],
      }),
    );
    expect(a.failures).toEqual([]);
    expect(a.inputs.filters).toEqual(b.inputs.filters);
    expect(a.inputs).toMatchObject({ channel: "default", apiVersion: "2.0" });
  });

  it.each([
    ["plain http", { endpoint: `http://${HOST}/e` }, "endpoint", /https/],
    ["a query on 2.0", { endpoint: `https://${HOST}/e?a=1` }, "endpoint", /query/],
    ["a fragment on 2.0", { endpoint: `https://${HOST}/e#top` }, "endpoint", /fragment/],
    [
      "a 15-character secret on 2.0",
      { secretKey: "x".repeat(15) },
      "secretKey",
      /at least 16 characters on API 2.0/,
    ],
    [
      "a 19-character secret on 1.4",
      { secretKey: "x".repeat(19), apiVersion: "1.4" },
      "secretKey",
      /at least 20 characters on API 1.4/,
    ],
    [
      "no activity.name",
      { filters: [{ key: "activity.form_factor", value: "lightbox" }] },
      "filters",
      /activity.name/,
    ],
    [
      "activity.name twice",
      {
        filters: [
          { key: "activity.name", value: "authentication" },
          { key: "activity.name", value: "fingerprint" },
        ],
      },
      "filters[1].key",
      /only once/,
    ],
    [
      "an unknown key",
      {
        filters: [
          { key: "activity.name", value: "fingerprint" },
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
          { key: "activity.name", value: "fingerprint" },
          { key: "activity.form_factor", value: "tablet" },
        ],
      },
      "filters[1].value",
      /tablet/,
    ],
    [
      "value and values on 1.4",
      {
        apiVersion: "1.4",
        secretKey: "x".repeat(20),
        filters: [{ key: "activity.name", value: "fingerprint", values: ["fingerprint"] }],
      },
      "filters[0]",
      /exactly one of value or values/,
    ],
    ["neither value nor values", { filters: [{ key: "activity.name" }] }, "filters[0]", /value or values/],
    ["an unknown apiVersion", { apiVersion: "3.0" }, "apiVersion", /2.0 or 1.4/],
    ["an empty channel", { channel: "" }, "channel", /empty/],
  ])("refuses %s, naming %s and the rule", async (_name, override, property, reason) => {
    const { failures } = await webhook.check({}, args(override));
    const failure = failures.find((f) => f.property === property);
    expect(failure, JSON.stringify(failures)).toBeDefined();
    expect(failure!.reason).toMatch(reason);
  });

  it("accepts unknown values at preview and leaves them unknown", async () => {
    const { inputs, failures } = await webhook.check(
      {},
      args({
        endpoint: UNKNOWN,
        filters: [{ key: "activity.name", value: "authentication" }, UNKNOWN],
      }),
    );
    expect(failures).toEqual([]);
    expect(inputs.endpoint).toBe(UNKNOWN);
    const versionUnknown = await webhook.check({}, args({ apiVersion: UNKNOWN, secretKey: "x".repeat(17) }));
    expect(versionUnknown.failures).toEqual([]);
    const stillChecked = await webhook.check({}, args({ endpoint: UNKNOWN, channel: "" }));
    expect(stillChecked.failures.map((f) => f.property)).toEqual(["channel"]);
  });

  it("makes no API call", async () => {
    const before = world.calls();
    await webhook.check({}, args());
    await webhook.check({}, args({ endpoint: "nope" }));
    expect(world.calls()).toBe(before);
  });
});

describe("diff", () => {
  it("sees no change in reordered filters or the same secret, and makes no API call", async () => {
    const { id, outs } = await created({
      filters: [
        { key: "activity.name", value: "authentication" },
        { key: "activity.form_factor", values: ["lightbox", "microscopic"] },
      ],
    });
    const before = world.calls();
    const news = (
      await webhook.check(
        {},
        args({
          filters: [
            { key: "activity.form_factor", values: ["microscopic", "lightbox"] },
            { key: "activity.name", values: ["authentication"] },
          ],
        }),
      )
    ).inputs;
    expect(await webhook.diff(id, outs, news)).toMatchObject({ changes: false, replaces: [] });
    expect(world.calls()).toBe(before);
  });

  it.each([
    ["endpoint", { endpoint: `https://${HOST}/other` }],
    ["filters", { filters: [{ key: "activity.name", value: "fingerprint" }] }],
    ["channel", { channel: "orders" }],
    ["secretKey", { secretKey: `${SECRET}-rotated` }],
    ["apiVersion", { apiVersion: "1.4" }],
  ])("replaces on a change of %s", async (key, override) => {
    const { id, outs } = await created();
    const news = (await webhook.check({}, args(override))).inputs;
    const result = await webhook.diff(id, outs, news);
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual([key]);
  });

  it("updates in place for credentials and language", async () => {
    const { id, outs } = await created();
    for (const override of [
      { connection: { token: HOOKS_TOKEN, baseUrl: world.sandbox.url } },
      { acceptLanguage: "ja" },
    ]) {
      const result = await webhook.diff(id, outs, (await webhook.check({}, args(override))).inputs);
      expect(result).toMatchObject({ changes: true, replaces: [] });
    }
    const updated = await webhook.update(id, outs, { ...args(), acceptLanguage: "ja" });
    expect(updated.outs).toMatchObject({ acceptLanguage: "ja", webhookUuid: id });
  });

  it("treats unknowns as replacing changes", async () => {
    const { id, outs } = await created();
    const result = await webhook.diff(id, outs, { ...outs, endpoint: UNKNOWN, secretKey: UNKNOWN });
    expect(result.replaces).toEqual(["endpoint", "secretKey"]);
  });
});

describe("create", () => {
  it("creates, and keeps only a salted hash of the secret", async () => {
    const { id, outs } = await created({ channel: "orders" });
    expect(outs).toMatchObject({
      webhookUuid: id,
      endpoint: `https://${HOST}/service/events`,
      channel: "orders",
      owner: { organization: "acme", username: "acme-alice" },
    });
    expect(outs.createTime).toMatch(/Z$/);
    expect(JSON.stringify(outs)).not.toContain(SECRET);
    expect(outs.secretKeyHash).toMatch(/^hmac-sha256:[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect((await active()).map((w) => w.webhook_uuid)).toEqual([id]);
  });

  it("adopts the webhook an ambiguous create made instead of creating a duplicate", async () => {
    await world.api("POST", "/v2/webhooks", { body: hookBody() });
    world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", drop: true });
    const { id } = await created();
    expect(world.calls("/v2/webhooks")).toBe(2);
    const after = await active();
    expect(after).toHaveLength(2);
    expect(after[1]!.webhook_uuid).toBe(id);
  });

  it("says so when an ambiguous create left nothing behind", async () => {
    world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 502 });
    const { inputs } = await webhook.check({}, args());
    await expect(webhook.create(inputs)).rejects.toThrow(/did not confirm the create.*nothing was re-sent/s);
    expect(world.calls("/v2/webhooks")).toBe(1);
  });

  it("explains the 10-webhook quota, listing what is active", async () => {
    const uuids = [];
    for (let i = 0; i < 10; i++)
      uuids.push(
        (await world.api("POST", "/v2/webhooks", { body: hookBody({ channel: `c${i}` }) })).json.webhook_uuid,
      );
    const { inputs } = await webhook.check({}, args());
    const error = (await webhook.create(inputs).then(
      () => new Error("created"),
      (e: Error) => e,
    )) as Error;
    expect(error.message).toMatch(/already has 10 active webhooks/);
    for (const uuid of uuids) expect(error.message).toContain(uuid);
    expect(error.message).toContain("channel=c9");
    expect(error.message).toMatch(/create-before-delete/);
    expect(error.message).toMatch(/deleteBeforeReplace: true/);
  });

  it("explains a 409 that races the quota check", async () => {
    for (let i = 0; i < 9; i++)
      await world.api("POST", "/v2/webhooks", { body: hookBody({ channel: `c${i}` }) });
    world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 409 });
    const { inputs } = await webhook.check({}, args());
    await expect(webhook.create(inputs)).rejects.toThrow(/deleteBeforeReplace: true/);
  });
});

describe("read, delete and adopt", () => {
  it("reads a present webhook back with its inputs, and reports one deactivated out of band as gone", async () => {
    const { id, outs, inputs } = await created();
    const read = await webhook.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    const { secretKey: _secret, ...expectedInputs } = inputs as Record<string, unknown>;
    expect(read.inputs).toEqual(expectedInputs);
    await world.api("POST", `/v2/webhooks/${id}/deactivate`);
    // A refresh runs in a new provider process; start from an empty listing cache as it would.
    forgetWebhooks(clientFor({}));
    expect(await webhook.read(id, outs)).toEqual({});
  });

  it("serves a refresh of ten webhooks with one listing call", async () => {
    const made: Awaited<ReturnType<typeof created>>[] = [];
    for (let i = 0; i < 10; i++) made.push(await created({ channel: `c${i}` }));
    const before = world.calls("/v2/search/webhooks");
    const reads = await Promise.all(made.map((m) => webhook.read(m.id, m.outs)));
    expect(reads.every((r, i) => r.id === made[i]!.id)).toBe(true);
    expect(world.calls("/v2/search/webhooks") - before).toBe(1);
  });

  it("deactivates on delete, and counts an inactive or unknown webhook as deleted", async () => {
    const { id, outs } = await created();
    await webhook.remove(id, outs);
    expect(await active()).toEqual([]);
    await webhook.remove(id, outs);
    await webhook.remove("00000000-0000-4000-8000-000000000000", outs);
  });

  it("adopts an existing webhook whose configuration matches, with no gap", async () => {
    const existing = (await world.api("POST", "/v2/webhooks", { body: hookBody() })).json.webhook_uuid;
    const { id } = await created({ adoptWebhookUuid: existing });
    expect(id).toBe(existing);
    expect(world.calls("/v2/webhooks")).toBe(1);
  });

  it("refuses to adopt a webhook that differs, or is not active", async () => {
    const existing = (await world.api("POST", "/v2/webhooks", { body: hookBody({ channel: "orders" }) })).json
      .webhook_uuid;
    const mismatch = (await webhook.check({}, args({ adoptWebhookUuid: existing }))).inputs;
    await expect(webhook.create(mismatch)).rejects.toThrow(
      /Refusing to adopt.*channel is orders, not default/,
    );
    const missing = (
      await webhook.check({}, args({ adoptWebhookUuid: "00000000-0000-4000-8000-000000000000" }))
    ).inputs;
    await expect(webhook.create(missing)).rejects.toThrow(/not an active webhook/);
  });
});

describe("credentials", () => {
  it("prefers the connection input to stack config, and stack config to the environment", async () => {
    const other = await registerDomain(world, "hooks.globex.test", OTHER_TOKEN);
    expect(other.domain_name).toBe("hooks.globex.test");
    process.env.SERVICE_API_TOKEN = "env-token-is-not-used";
    try {
      const { outs } = await created({
        endpoint: "https://hooks.globex.test/e",
        connection: { token: OTHER_TOKEN, baseUrl: world.sandbox.url },
      });
      expect(outs.owner.organization).toBe("globex");
      const { outs: fromStack } = await created();
      expect(fromStack.owner.organization).toBe("acme");
    } finally {
      delete process.env.SERVICE_API_TOKEN;
    }
  });
});
