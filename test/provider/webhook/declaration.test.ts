/** The Webhook as the registry declares it (provider/webhook/declaration.ts), served by the real dynamic-provider host. */

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { webhook } from "../../../provider/webhook/declaration";
import { WEBHOOK_SECRETS } from "../../../provider/webhook/resource";
import {
  callFailure,
  type DynamicHost,
  type HostCallError,
  type InitFailure,
  startDynamicHost,
} from "../../helpers/dynamic-host";
import { HOOKS_TOKEN, OTHER_TOKEN, SECRET, webhookArgs } from "../../helpers/fixtures";
import { webhookProviderText } from "../../helpers/mocks";
import { webhookLifecycleOverGrpc } from "../../helpers/webhook-lifecycle";
import { registerDomain, startWorld, useRegisteredWorld, type World } from "../../helpers/world";

describe("the registry's entry", () => {
  it("names the secrets that the declaration's fields mark", () => {
    expect(webhook.secrets).toEqual(WEBHOOK_SECRETS);
  });
});

describe("the dynamic-provider host", () => {
  const worldRef = useRegisteredWorld();

  describe("the real dynamic-provider host, over gRPC, in this repository", () => {
    it("runs Configure, Check, Create, Diff, Read and Delete", async () => {
      const providerText = await webhookProviderText();
      const host = await startDynamicHost({ cwd: process.cwd(), env: { SERVICE_RATE_LIMIT: "0" } });
      try {
        await webhookLifecycleOverGrpc(host, providerText, worldRef.current);
      } finally {
        await host.close();
      }
    });
  });
});

describe("faults through the host", () => {
  /**
   * The fault suite, through Pulumi's real dynamic-provider host over gRPC, against the sandbox's injected
   * faults. Each "run" is a new host process, as each `pulumi up` is. What must hold after every scenario:
   * exactly one active webhook per resource, no uuid shared, no planted secret in anything printed or
   * stored, and every failure naming the object, the cause and the next step.
   */
  const URN = (name: string) => `urn:pulumi:dev::quickstart::pulumi-nodejs:dynamic/service:Webhook::${name}`;
  const CONFIG = (world: World) => ({ "service:token": HOOKS_TOKEN, "service:baseUrl": world.sandbox.url });

  let world: World;
  let providerText: string;
  const hosts: DynamicHost[] = [];
  const printed: string[] = [];

  /** One `pulumi up`: a fresh host, configured from the stack. */
  async function run(env: NodeJS.ProcessEnv = {}): Promise<DynamicHost> {
    const host = await startDynamicHost({
      cwd: process.cwd(),
      env: { SERVICE_RATE_LIMIT: "0", SERVICE_RECONCILE_SECONDS: "0", ...env },
    });
    hosts.push(host);
    await host.configure(CONFIG(world));
    return host;
  }

  const news = (overrides: Record<string, unknown> = {}) => ({
    __provider: providerText,
    ...webhookArgs(overrides),
  });

  async function checked(host: DynamicHost, name: string, overrides: Record<string, unknown> = {}) {
    const { inputs, failures } = await host.check(URN(name), {}, news(overrides));
    expect(failures).toEqual([]);
    return inputs;
  }

  /** A failed create or update, as the engine receives it. */
  async function failed(call: Promise<unknown>): Promise<HostCallError> {
    const error = await callFailure(call);
    printed.push(error.message);
    return error;
  }

  const active = async () =>
    (await world.api("POST", "/v2/search/webhooks", { body: {} })).json.items as { webhook_uuid: string }[];

  /** The engine's next `pulumi up` for a resource it kept with init errors: Diff, then Update. */
  async function nextUp(host: DynamicHost, name: string, kept: InitFailure, inputs: Record<string, any>) {
    const diff = await host.diff(URN(name), kept.id, kept.properties, inputs);
    expect(diff.changes).toBe(2);
    expect(diff.replaces).toEqual([]);
    return host.update(URN(name), kept.id, kept.properties, inputs);
  }

  /** The message of a failure says what failed, why, and what to do. */
  function expectActionable(message: string) {
    expect(message).toMatch(/webhook/i);
    expect(message).toMatch(/Run `pulumi up` again|run `pulumi up`|Keep credentials|Set `adoptWebhookUuid`/);
    expect(message).not.toContain("[REDACTED]");
  }

  async function landed(count: number) {
    for (let i = 0; i < 200; i++) {
      const applied = world.sandbox.requests().filter((r) => r.route === "/v2/webhooks" && r.status === 200);
      if (applied.length >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`the sandbox did not apply ${count} creates within 5 s`);
  }

  beforeAll(async () => {
    providerText = await webhookProviderText();
  });

  beforeEach(async () => {
    world = await startWorld();
    await registerDomain(world);
  });

  afterEach(async () => {
    for (const host of hosts.splice(0)) {
      printed.push(host.output());
      await host.close();
    }
    await world.close();
  });

  afterAll(() => {
    const all = printed.join("\n");
    for (const secret of [SECRET, HOOKS_TOKEN, OTHER_TOKEN]) expect(all).not.toContain(secret);
  });

  describe("through the real host: a create whose answer is lost", () => {
    it("adopts what a dropped answer left behind: one webhook", async () => {
      const host = await run();
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", drop: true });
      const created = await host.create(URN("orders"), await checked(host, "orders"));
      expect((await active()).map((w) => w.webhook_uuid)).toEqual([created.id]);
      expect(JSON.stringify(created.properties)).not.toContain(SECRET);
    });

    it("adopts the webhook a create answered 503 after applying it left behind: one webhook (regression)", async () => {
      const host = await run();
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 503, apply: true });
      const created = await host.create(URN("orders"), await checked(host, "orders"));
      expect((await active()).map((w) => w.webhook_uuid)).toEqual([created.id]);
    });

    it("keeps a 503'd create in state as pending, and the next run creates exactly one", async () => {
      const first = await run();
      const inputs = await checked(first, "orders");
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 503 });
      const error = await failed(first.create(URN("orders"), inputs));
      expectActionable(error.message);
      const kept = error.initFailure!;
      expect(kept.id).toMatch(/^pending-/);
      expect(kept.properties.__provider).toBe(providerText);
      expect(JSON.stringify(kept.properties)).not.toContain(SECRET);

      const second = await run();
      const settled = await nextUp(second, "orders", kept, inputs);
      expect((await active()).map((w) => w.webhook_uuid)).toEqual([settled.properties.webhookUuid]);
    });

    it("adopts on the next run a create the service applied after the client's timeout", async () => {
      const first = await run({ SERVICE_TIMEOUT_SECONDS: "0.3" });
      const inputs = await checked(first, "orders");
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 2_500 });
      const error = await failed(first.create(URN("orders"), inputs));
      expectActionable(error.message);
      await landed(1);
      const [applied] = await active();

      const second = await run();
      const settled = await nextUp(second, "orders", error.initFailure!, inputs);
      expect(settled.properties.webhookUuid).toBe(applied!.webhook_uuid);
      expect(await active()).toHaveLength(1);
    });

    it("gives two identical Webhooks a webhook each when one answer is dropped", async () => {
      const host = await run();
      const a = await checked(host, "a", { secretKey: `${SECRET}-a` });
      const b = await checked(host, "b", { secretKey: `${SECRET}-b` });
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", drop: true });
      const [ca, cb] = await Promise.all([host.create(URN("a"), a), host.create(URN("b"), b)]);
      expect(ca.id).not.toBe(cb.id);
      expect((await active()).map((w) => w.webhook_uuid).sort()).toEqual([ca.id, cb.id].sort());
    });

    it("deletes what a pending create left behind on destroy", async () => {
      const first = await run({ SERVICE_TIMEOUT_SECONDS: "0.3" });
      world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", delayMs: 2_500 });
      const error = await failed(first.create(URN("orders"), await checked(first, "orders")));
      await landed(1);
      const second = await run();
      await second.delete(URN("orders"), error.initFailure!.id, error.initFailure!.properties);
      expect(await active()).toEqual([]);
    });
  });

  describe("through the real host: a change of credentials", () => {
    it("refuses to move a webhook to another organization's token, and leaves it as it was", async () => {
      const host = await run();
      const inputs = await checked(host, "orders");
      const created = await host.create(URN("orders"), inputs);
      const moved = { ...inputs, connection: { token: OTHER_TOKEN } };
      const error = await failed(host.update(URN("orders"), created.id, created.properties, moved));
      expect(error.message).toMatch(/cannot see webhook .* organization acme/);
      expectActionable(error.message);
      expect((await active()).map((w) => w.webhook_uuid)).toEqual([created.id]);
    });
  });
});
