/** The Webhook's lifecycle (provider/webhook/lifecycle.ts) against the sandbox, and under faults. */

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServiceError } from "../../../provider/errors/base";
import type { PendingCreateError } from "../../../provider/errors/lifecycle";
import { UNKNOWN } from "../../../provider/lifecycle/unknowns";
import { webhookLifecycle } from "../../../provider/webhook/declaration";
import { ManualClock } from "../../../sandbox/index";
import { failedFields, failureOn } from "../../helpers/check-failures";
import { steppingClock } from "../../helpers/fake-clock";
import { HOOKS_TOKEN, HOST, OTHER_TOKEN, ROTATED_TOKEN, SECRET, webhookArgs } from "../../helpers/fixtures";
import { configureStack, nextProcess, underProvider } from "../../helpers/runtime";
import { hookBody, registerDomain, startWorld, type World } from "../../helpers/world";

const webhook = underProvider(webhookLifecycle);

describe("the six methods", () => {
  let world: World;

  const args = webhookArgs;

  async function created(overrides: Record<string, unknown> = {}) {
    const { inputs, failures } = await webhook.check({}, args(overrides));
    expect(failures).toEqual([]);
    return { inputs, ...(await webhook.create(inputs)) };
  }

  const active = async () =>
    (await world.api("POST", "/v2/search/webhooks", { body: {} })).json.items as { webhook_uuid: string }[];

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected a failure");
      },
      (e: unknown) => e as ServiceError,
    );

  beforeEach(async () => {
    vi.stubEnv("SERVICE_RATE_LIMIT", "0");
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
        /^secretKey must be 16 to 256 characters on API 2.0 \(got 15 characters\): use a longer random key/,
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
      const failure = failureOn(failures, property);
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
      const versionUnknown = await webhook.check(
        {},
        args({ apiVersion: UNKNOWN, secretKey: "x".repeat(17) }),
      );
      expect(versionUnknown.failures).toEqual([]);
      const stillChecked = await webhook.check({}, args({ endpoint: UNKNOWN, channel: "" }));
      expect(failedFields(stillChecked.failures)).toEqual(["channel"]);
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
    it("points a refused token at Pulumi config, not at client options (regression)", async () => {
      configureStack(world.sandbox.url, "unknown-token-0123456789");
      const { inputs } = await webhook.check({}, args());
      const error = await failure(webhook.create(inputs));
      expect(error.code).toBe("authentication");
      expect(error.message).toContain("`pulumi config set --secret service:token <token>`");
      expect(error.message).not.toContain("the client's `token` option");
    });

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

    it("adopts the webhook its lost create made, not an identical one made a minute earlier", async () => {
      await world.close();
      // The sandbox's clock runs a minute ahead of this machine's: the provider must read the service's time.
      const clock = new ManualClock(Date.now() + 60_000);
      world = await startWorld({}, { clock });
      await registerDomain(world);
      configureStack(world.sandbox.url);
      const earlier = (await world.api("POST", "/v2/webhooks", { body: hookBody() })).json.webhook_uuid;
      clock.advance(60_000);
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", drop: true });
      const { id } = await created();
      expect(id).not.toBe(earlier);
      expect((await active()).map((w) => w.webhook_uuid).sort()).toEqual([earlier, id].sort());
    });

    it("will not guess between an identical webhook made just before and the one its lost create made", async () => {
      const before = (await world.api("POST", "/v2/webhooks", { body: hookBody() })).json.webhook_uuid;
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", drop: true });
      const { inputs } = await webhook.check({}, args());
      const error = await failure(webhook.create(inputs));
      expect(error.code).toBe("reconcile_conflict");
      expect(error.message).toContain(before);
      expect(error.message).toMatch(/Set `adoptWebhookUuid` on this Webhook to the one it should keep/);
      expect(world.calls("/v2/webhooks")).toBe(2);
    });

    it("explains the 10-webhook quota, listing what is active", async () => {
      const uuids = [];
      for (let i = 0; i < 10; i++)
        uuids.push(
          (await world.api("POST", "/v2/webhooks", { body: hookBody({ channel: `c${i}` }) })).json
            .webhook_uuid,
        );
      const { inputs } = await webhook.check({}, args());
      const error = await failure(webhook.create(inputs));
      expect(error.code).toBe("quota_reached");
      expect(error.message).toMatch(/already has 10 active webhooks/);
      for (const uuid of uuids) expect(error.message).toContain(uuid);
      expect(error.message).toContain("channel=c9");
      expect(error.message).toMatch(/create-before-delete/);
      expect(error.message).toMatch(/deleteBeforeReplace: true/);
    });

    it("makes one call per create: no listing before it", async () => {
      const before = world.calls();
      await created();
      expect(world.calls() - before).toBe(1);
    });

    it("names the organization's registered domains when the endpoint's host is not one of them", async () => {
      const { inputs } = await webhook.check({}, args({ endpoint: "https://other.acme.test/events" }));
      const error = await failure(webhook.create(inputs));
      expect(error.code).toBe("endpoint_domain_not_registered");
      expect(error.message).toMatch(
        /its host other\.acme\.test is not a registered domain of this organization \(registered: hooks\.acme\.test\)/,
      );
      expect(error.message).toMatch(/a Domain for other\.acme\.test .*dependsOn/);
      expect(await active()).toEqual([]);
    });

    it("says once that the service refused the inputs, with what it said and one next step (regression)", async () => {
      const { inputs } = await webhook.check({}, args());
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 400 });
      const error = await failure(webhook.create(inputs));
      expect(error.code).toBe("input_refused");
      expect(error.message).toMatch(
        /^The service refused the webhook for \S+ \(channel \S+\): POST http:\/\/127\.0\.0\.1:\d+\/v2\/webhooks answered 400: [^.]+ \(request id \S+\)\. Nothing was created\. Correct the Webhook's inputs and run `pulumi up` again\.$/,
      );
      expect(error.message.match(/refused/g)).toHaveLength(1);
    });
  });

  describe("read, delete and adopt", () => {
    it("reads a present webhook back as stored, without inputs, and reports one deactivated out of band as gone", async () => {
      const { id, outs } = await created();
      // Keys in another order, as the engine hands stored state back: still nothing new.
      const stored = Object.fromEntries(Object.entries({ ...outs, __provider: "code" }).reverse());
      const read = await webhook.read(id, stored);
      // The stored state itself and no inputs: the engine keeps what it has, and the refresh rewrites nothing.
      expect(read).toEqual({ id, props: stored });
      await world.api("POST", `/v2/webhooks/${id}/deactivate`);
      // A refresh runs in a new provider process.
      nextProcess();
      expect(await webhook.read(id, outs)).toEqual({});
    });

    it("reads back what the service shows when state is behind it, with the inputs that state implies", async () => {
      const { id, outs, inputs } = await created();
      // State written before createTime was recorded: the refresh has something new to keep.
      const { createTime, ...behind } = outs;
      const read = await webhook.read(id, behind);
      expect(read.props).toEqual(outs);
      expect(createTime).toBeDefined();
      // Not the secret, and not the words check adds about the credentials: state's outputs hold neither.
      const {
        secretKey: _secret,
        credentials: _words,
        ...expectedInputs
      } = inputs as Record<string, unknown>;
      expect(read.inputs).toEqual(expectedInputs);
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
      const existing = (await world.api("POST", "/v2/webhooks", { body: hookBody({ channel: "orders" }) }))
        .json.webhook_uuid;
      const mismatch = (await webhook.check({}, args({ adoptWebhookUuid: existing }))).inputs;
      const refused = await failure(webhook.create(mismatch));
      expect(refused.code).toBe("adopt_mismatch");
      expect(refused.message).toMatch(/Refusing to adopt.*channel is orders, not default/);
      const missing = (
        await webhook.check({}, args({ adoptWebhookUuid: "00000000-0000-4000-8000-000000000000" }))
      ).inputs;
      const gone = await failure(webhook.create(missing));
      expect(gone.code).toBe("adopt_not_found");
    });

    it("refuses to let two resources adopt the same webhook", async () => {
      const existing = (await world.api("POST", "/v2/webhooks", { body: hookBody() })).json.webhook_uuid;
      await created({ adoptWebhookUuid: existing });
      const second = (await webhook.check({}, args({ adoptWebhookUuid: existing }))).inputs;
      const error = await failure(webhook.create(second));
      expect(error.code).toBe("adopt_mismatch");
      expect(error.message).toMatch(/already stands for it/);
    });
  });

  describe("credentials", () => {
    it("prefers the connection input to stack config, and stack config to the environment", async () => {
      const other = await registerDomain(world, "hooks.globex.test", OTHER_TOKEN);
      expect(other.domain_name).toBe("hooks.globex.test");
      vi.stubEnv("SERVICE_API_TOKEN", "env-token-is-not-used");
      const { outs } = await created({
        endpoint: "https://hooks.globex.test/e",
        connection: { token: OTHER_TOKEN, baseUrl: world.sandbox.url },
      });
      expect(outs.owner.organization).toBe("globex");
      const { outs: fromStack } = await created();
      expect(fromStack.owner.organization).toBe("acme");
    });

    it("takes a connection without baseUrl to the stack's base URL, not the local default (regression)", async () => {
      await registerDomain(world, "hooks.globex.test", OTHER_TOKEN);
      const { outs } = await created({
        endpoint: "https://hooks.globex.test/e",
        connection: { token: OTHER_TOKEN },
      });
      expect(outs.owner.organization).toBe("globex");
    });
  });
});

describe("under faults", () => {
  /**
   * A lost or ambiguous answer must never leave a duplicate or an orphaned webhook: after any single fault,
   * and after the user does what the error says, each resource has exactly one active webhook of its own.
   */
  let world: World;
  const PROVIDER = "exports.handler = function () {}";

  const args = (overrides: Record<string, unknown> = {}) => ({
    __provider: PROVIDER,
    ...webhookArgs(overrides),
  });

  const checked = async (overrides: Record<string, unknown> = {}) => {
    const { inputs, failures } = await webhook.check({}, args(overrides));
    expect(failures).toEqual([]);
    return inputs;
  };

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected a failure");
      },
      (e: unknown) => e as ServiceError,
    );

  const active = async () =>
    (await world.api("POST", "/v2/search/webhooks", { body: {} })).json.items as {
      webhook_uuid: string;
      channel: string;
    }[];

  /** Resolves once the sandbox has answered `count` creates, however late (a delayed create lands late). */
  async function createsLanded(count: number): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if (
        world.sandbox.requests().filter((r) => r.route === "/v2/webhooks" && r.status === 200).length >= count
      )
        return;
      await new Promise((resolve) => setImmediate(resolve));
      await world.sandbox.deliveriesIdle();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`the sandbox did not apply ${count} creates within 5 s`);
  }

  beforeEach(async () => {
    vi.stubEnv("SERVICE_RATE_LIMIT", "0");
    world = await startWorld();
    await registerDomain(world);
    configureStack(world.sandbox.url, HOOKS_TOKEN, {}, { clock: steppingClock(Date.now()) });
  });
  afterEach(async () => {
    await world.close();
  });

  describe("a create whose answer is lost", () => {
    it("adopts the webhook a dropped answer left behind", async () => {
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", drop: true });
      const made = await webhook.create(await checked());
      const after = await active();
      expect(after.map((w) => w.webhook_uuid)).toEqual([made.id]);
      expect(world.calls("/v2/webhooks")).toBe(1);
    });

    it.each([500, 502, 503, 504])(
      "after a %i that applied nothing, goes pending with the attempt's time, then the next run creates exactly one",
      async (status) => {
        world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status });
        const inputs = await checked();
        const error = (await failure(webhook.create(inputs))) as PendingCreateError;
        expect(error.code).toBe("outcome_unknown");
        expect(error.id).toMatch(/^pending-/);
        expect(error.properties).toMatchObject({ __provider: PROVIDER, endpoint: inputs.endpoint });
        expect(Date.parse(error.properties.pendingSince as string)).toBeGreaterThan(Date.now() - 60_000);
        expect(JSON.stringify(error.properties)).not.toContain(SECRET);
        expect(error.message).toMatch(
          /did not confirm the create of the webhook for https:\/\/hooks\.acme\.test/,
        );
        expect(error.message).toMatch(/Run `pulumi up` again: it adopts the webhook .* creates it only if/);
        expect(error.message).not.toMatch(/\[REDACTED\]/);
        expect(world.calls("/v2/webhooks")).toBe(1);

        nextProcess();
        const diff = await webhook.diff(error.id, error.properties, inputs);
        expect(diff).toMatchObject({ changes: true, replaces: [] });
        const settled = await webhook.update(error.id, error.properties, inputs);
        const after = await active();
        expect(after.map((w) => w.webhook_uuid)).toEqual([settled.outs.webhookUuid]);
        expect(world.calls("/v2/webhooks")).toBe(2);
      },
    );

    it.each([500, 503])(
      "after a %i answered once the create was applied, adopts that webhook instead of making a second (regression)",
      async (status) => {
        world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status, apply: true });
        const made = await webhook.create(await checked());
        expect((await active()).map((w) => w.webhook_uuid)).toEqual([made.id]);
        expect(world.calls("/v2/webhooks")).toBe(1);
      },
    );

    it("after a create the service applied late, past the timeout, adopts it on the next run instead of creating", async () => {
      vi.stubEnv("SERVICE_TIMEOUT_SECONDS", "0.2");
      vi.stubEnv("SERVICE_RECONCILE_SECONDS", "0");
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 2_000 });
      const inputs = await checked();
      const error = (await failure(webhook.create(inputs))) as PendingCreateError;
      expect(error.code).toBe("outcome_unknown");
      expect(error.message).not.toMatch(/nothing was re-sent|run `pulumi up` again to create/i);
      await createsLanded(1);
      const [landed] = await active();

      nextProcess();
      const settled = await webhook.update(error.id, error.properties, inputs);
      expect(settled.outs.webhookUuid).toBe(landed!.webhook_uuid);
      expect(await active()).toHaveLength(1);
      expect(world.calls("/v2/webhooks")).toBe(1);
    });

    it("finds a create applied late while it is still re-listing", async () => {
      vi.stubEnv("SERVICE_TIMEOUT_SECONDS", "0.2");
      vi.stubEnv("SERVICE_RECONCILE_SECONDS", "10");
      // Real time here: the create lands while the provider re-lists.
      configureStack(world.sandbox.url);
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 2_000 });
      const made = await webhook.create(await checked());
      expect((await active()).map((w) => w.webhook_uuid)).toEqual([made.id]);
    });

    it("reports a pending webhook's real id on refresh once it appeared", async () => {
      vi.stubEnv("SERVICE_TIMEOUT_SECONDS", "0.2");
      vi.stubEnv("SERVICE_RECONCILE_SECONDS", "0");
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 2_000 });
      const error = (await failure(webhook.create(await checked()))) as PendingCreateError;
      nextProcess();
      const still = await webhook.read(error.id, error.properties);
      expect(still).toMatchObject({ id: error.id, props: { pendingSince: error.properties.pendingSince } });
      await createsLanded(1);
      nextProcess();
      const found = await webhook.read(error.id, error.properties);
      expect(found.id).toBe((await active())[0]!.webhook_uuid);
      expect(found.props).toMatchObject({ webhookUuid: found.id, owner: { organization: "acme" } });
      expect(found.props).not.toHaveProperty("pendingSince");
    });

    it("deactivates what a pending create left behind when the resource is deleted", async () => {
      vi.stubEnv("SERVICE_TIMEOUT_SECONDS", "0.2");
      vi.stubEnv("SERVICE_RECONCILE_SECONDS", "0");
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 2_000 });
      const error = (await failure(webhook.create(await checked()))) as PendingCreateError;
      await createsLanded(1);
      nextProcess();
      await webhook.remove(error.id, error.properties);
      expect(await active()).toEqual([]);
    });
  });

  describe("two Webhooks with the same endpoint, channel and filters", () => {
    it.each([0, 1])("each keep their own webhook when the answer to create #%i is dropped", async (lost) => {
      const a = await checked({ secretKey: `${SECRET}-a` });
      const b = await checked({ secretKey: `${SECRET}-b` });
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", drop: true });
      // The fault catches whichever create reaches the sandbox first; both run at once, as in one `pulumi up`.
      const [first, second] = lost === 0 ? [a, b] : [b, a];
      const results = await Promise.all([webhook.create(first), webhook.create(second)]);
      expect(new Set(results.map((r) => r.id)).size).toBe(2);
      expect((await active()).map((w) => w.webhook_uuid).sort()).toEqual(results.map((r) => r.id).sort());
    });

    it("do not create the twin while the first one's create is pending, and settle both on the next run", async () => {
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 503 });
      const a = await checked({ secretKey: `${SECRET}-a` });
      const b = await checked({ secretKey: `${SECRET}-b` });
      const pending = (await failure(webhook.create(a))) as PendingCreateError;
      const blocked = await failure(webhook.create(b));
      expect(blocked.code).toBe("identical_create_pending");
      expect(blocked.message).toMatch(/Nothing was created\. Run `pulumi up` again/);
      expect(await active()).toEqual([]);

      nextProcess();
      const [settled, twin] = await Promise.all([
        webhook.update(pending.id, pending.properties, a),
        webhook.create(b),
      ]);
      expect(settled.outs.webhookUuid).not.toBe(twin.id);
      expect(await active()).toHaveLength(2);
    });

    it("never settle a pending one onto the twin created meanwhile in another run", async () => {
      vi.stubEnv("SERVICE_TIMEOUT_SECONDS", "0.2");
      vi.stubEnv("SERVICE_RECONCILE_SECONDS", "0");
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 2_000 });
      const a = await checked({ secretKey: `${SECRET}-a` });
      const b = await checked({ secretKey: `${SECRET}-b` });
      const pending = (await failure(webhook.create(a))) as PendingCreateError;
      await createsLanded(1);
      const [landed] = await active();

      // The next run creates the twin first, then settles the pending one.
      nextProcess();
      const twin = await webhook.create(b);
      const settled = await webhook.update(pending.id, pending.properties, a);
      expect(settled.outs.webhookUuid).toBe(landed!.webhook_uuid);
      expect(twin.id).not.toBe(landed!.webhook_uuid);
      expect(await active()).toHaveLength(2);
    });
  });

  describe("ten creates at once", () => {
    it("make exactly ten calls and leave ten webhooks", async () => {
      const inputs = await Promise.all(Array.from({ length: 10 }, (_, i) => checked({ channel: `c${i}` })));
      const before = world.calls();
      const made = await Promise.all(inputs.map((i) => webhook.create(i)));
      expect(world.calls() - before).toBe(10);
      expect(new Set(made.map((m) => m.id)).size).toBe(10);
    });
  });

  describe("a change of credentials", () => {
    async function made() {
      const inputs = await checked();
      return { inputs, ...(await webhook.create(inputs)) };
    }

    it("to another organization's token fails the update with one call, and changes nothing", async () => {
      await registerDomain(world, "hooks.globex.test", OTHER_TOKEN);
      const { id, outs, inputs } = await made();
      const news = { ...inputs, connection: { token: OTHER_TOKEN } };
      expect(await webhook.diff(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
      const before = world.calls();
      const error = await failure(webhook.update(id, outs, news));
      expect(world.calls() - before).toBe(1);
      expect(error.code).toBe("credentials_changed");
      expect(error.message).toMatch(/cannot see webhook .* which belongs to organization acme/);
      expect(error.message).toMatch(/Keep credentials of acme for this Webhook, or move it/);
      expect((await active()).map((w) => w.webhook_uuid)).toEqual([id]);
    });

    it("to another token of the same organization updates in place", async () => {
      const { id, outs, inputs } = await made();
      const updated = await webhook.update(id, outs, { ...inputs, connection: { token: ROTATED_TOKEN } });
      expect(updated.outs.webhookUuid).toBe(id);
      expect(updated.outs.credentialsHash).not.toBe(outs.credentialsHash);
    });

    it("in the stack config shows in preview as an update, with no API call", async () => {
      const { id, outs, inputs } = await made();
      configureStack(world.sandbox.url, OTHER_TOKEN);
      const before = world.calls();
      expect(await webhook.diff(id, outs, inputs)).toMatchObject({ changes: true, replaces: [] });
      expect(world.calls()).toBe(before);
    });

    it("never lets refresh report the webhook gone, nor destroy forget it, under another organization's token", async () => {
      const { id, outs } = await made();
      configureStack(world.sandbox.url, OTHER_TOKEN);
      await registerDomain(world, "hooks.globex.test", OTHER_TOKEN);
      const refresh = await failure(webhook.read(id, outs));
      expect(refresh.code).toBe("foreign_credentials");
      expect(refresh.message).toMatch(
        /belongs to organization acme, but the credentials in use now belong to globex/,
      );
      const destroy = await failure(webhook.remove(id, outs));
      expect(destroy.code).toBe("foreign_credentials");
      expect(destroy.message).toMatch(/run `pulumi destroy --run-program`/);
      expect((await active()).map((w) => w.webhook_uuid)).toEqual([id]);
    });

    it("still reports gone, under a new token of the same organization, a webhook deactivated out of band", async () => {
      const { id, outs } = await made();
      await world.api("POST", `/v2/webhooks/${id}/deactivate`);
      configureStack(world.sandbox.url, ROTATED_TOKEN);
      expect(await webhook.read(id, outs)).toEqual({});
      await webhook.remove(id, outs);
    });

    it("refuses to guess when the new credentials see nothing at all", async () => {
      const { id, outs } = await made();
      configureStack(world.sandbox.url, OTHER_TOKEN);
      const error = await failure(webhook.remove(id, outs));
      expect(error.code).toBe("credentials_unverified");
      expect(error.message).toMatch(/pulumi state delete/);
      expect(await active()).toHaveLength(1);
    });
  });
});
