import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ServiceError } from "../../../provider/errors/base";
import type { PendingCreateError } from "../../../provider/errors/lifecycle";
import { webhookLifecycle as webhook } from "../../../provider/webhook/declaration";
import { steppingClock } from "../../helpers/fake-clock";
import { HOOKS_TOKEN, OTHER_TOKEN, ROTATED_TOKEN, SECRET, webhookArgs } from "../../helpers/fixtures";
import { configureStack, nextProcess } from "../../helpers/runtime";
import { registerDomain, startWorld, type World } from "../../helpers/world";

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
