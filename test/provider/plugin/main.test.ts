import { join } from "node:path";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { domainRegistration, domainVerification, webhook } from "../../../provider/registry";
import {
  DIFF_NONE,
  DIFF_SOME,
  type DynamicHost,
  HostCallError,
  startDynamicHost,
} from "../../helpers/dynamic-host";
import { startFakeEngine } from "../../helpers/engine-log-server";
import { HOOKS_TOKEN, HOST, SECRET } from "../../helpers/fixtures";
import { webhookLifecycleOverGrpc } from "../../helpers/webhook-lifecycle";
import { hookBody, useRegisteredWorld } from "../../helpers/world";

/**
 * The provider plugin as the engine runs it (provider/plugin/main.ts, through its entry plugin/index.js)
 * in a process of its own, spoken to over gRPC. Beyond the lifecycle, these check what @pulumi/pulumi/provider's server would drop and the
 * plugin reads itself: the configuration Configure sends, a Read with no properties (`pulumi import`), and
 * the stored inputs a Diff carries.
 */
const ENTRY = join(__dirname, "../../../plugin/index.js");
const urn = (type: string, name: string) => `urn:pulumi:dev::infra::${type}::${name}`;
const isSecret = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  (value as Record<string, unknown>)[specialSigKey] === specialSecretSig;

const worldRef = useRegisteredWorld();
let host: DynamicHost;

beforeEach(async () => {
  host = await startDynamicHost({ cwd: process.cwd(), entry: ENTRY, env: { SERVICE_RATE_LIMIT: "0" } });
  await host.configureProvider({
    token: { [specialSigKey]: specialSecretSig, value: HOOKS_TOKEN },
    baseUrl: worldRef.current.sandbox.url,
  });
});
afterEach(async () => {
  expect(host.output()).not.toContain(SECRET);
  expect(host.output()).not.toContain(HOOKS_TOKEN);
  await host.close();
});

describe("the provider plugin's process, over gRPC", () => {
  it("runs the Webhook's lifecycle with the credentials Configure sent", async () => {
    await webhookLifecycleOverGrpc(host, undefined, worldRef.current);
  });

  it("answers secret inputs and outputs as secrets, also those that arrived in plain text", async () => {
    const URN = urn(webhook.pluginToken, "orders");
    const { inputs } = await host.check(URN, {}, hookInputs());
    expect(isSecret(inputs.secretKey)).toBe(true);
    const created = await host.create(URN, inputs);
    for (const key of ["secretKeyHash", "credentialsHash"])
      expect(isSecret(created.properties[key])).toBe(true);
    expect(isSecret(created.properties.endpoint)).toBe(false);
    await host.delete(URN, created.id, created.properties);
  });

  it("adopts a webhook by its uuid alone, as `pulumi import` reads it, and takes the program's secret for its own", async () => {
    const uuid = await webhookMadeByHand();
    const URN = urn(webhook.pluginToken, "orders");
    const read = await host.read(URN, uuid, undefined);
    expect(read.id).toBe(uuid);
    expect(read.inputs).toEqual({
      endpoint: `https://${HOST}/service/events`,
      channel: "orders",
      filters: [{ key: "activity.name", value: "authentication" }],
    });
    expect(read.properties).toMatchObject({ webhookUuid: uuid, owner: { organization: "acme" } });
    expect(read.properties.secretKeyHash).toBeUndefined();

    // The program then gives the secret: no change, as nothing says it is not the webhook's.
    const given = (await host.check(URN, read.inputs!, { ...read.inputs, secretKey: SECRET })).inputs;
    expect((await host.diff(URN, uuid, read.properties, given)).changes).toBe(DIFF_NONE);
    // Once that secret is stored with the inputs (the engine sends them with Diff), a new one replaces.
    const rotated = (await host.check(URN, given, { ...given, secretKey: `${SECRET}-rotated` })).inputs;
    expect(await host.diff(URN, uuid, read.properties, given, given)).toMatchObject({ changes: DIFF_NONE });
    expect(await host.diff(URN, uuid, read.properties, rotated, given)).toMatchObject({
      changes: DIFF_SOME,
      replaces: ["secretKey"],
    });
    // The first update records the secret's hash, and from then on state alone decides.
    const updated = await host.update(URN, uuid, read.properties, given);
    expect(isSecret(updated.properties.secretKeyHash)).toBe(true);
    expect((await host.diff(URN, uuid, updated.properties, rotated)).replaces).toEqual(["secretKey"]);
  });

  it("imports a registered domain by its hostname, adopted, under its domain_uuid", async () => {
    const URN = urn(domainVerification.pluginToken, "hooks");
    const read = await host.read(URN, HOST, undefined);
    expect(read.inputs).toEqual({ domainName: HOST, adopt: true });
    expect(read.properties).toMatchObject({ domainName: HOST, status: "adopted", domainUuid: read.id });
    expect(await host.read(URN, read.id, undefined)).toMatchObject({ id: read.id });
    const program = (await host.check(URN, read.inputs!, { domainName: HOST, adopt: true })).inputs;
    expect((await host.diff(URN, read.id, read.properties, program)).changes).toBe(DIFF_NONE);
  });

  it.each([
    [
      "a webhook that is not active",
      webhook.pluginToken,
      "9b2f7c1e-3a4d-4e5f-8a6b-7c8d9e0f1a2b",
      /Cannot import webhook 9b2f7c1e-.*credentials.*`pulumi import` again/,
    ],
    [
      "a domain that is not registered",
      domainVerification.pluginToken,
      "nowhere.acme.test",
      /Cannot import domain nowhere\.acme\.test.*declaring it in the program/,
    ],
    [
      "a DomainRegistration",
      domainRegistration.pluginToken,
      "verifier",
      /import its DomainVerification instead/,
    ],
  ])("refuses to import %s, saying what to do", async (_what, type, id, message) => {
    const error = await host.read(urn(type, "x"), id, undefined).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HostCallError);
    expect((error as HostCallError).message).toMatch(message);
  });
});

describe("the provider plugin's count of an organization's Webhooks, over gRPC", () => {
  it("fails the Check beyond 10 naming all eleven with no call, and warns the engine of a replacement at 10", async () => {
    const engine = await startFakeEngine();
    const plugin = await startDynamicHost({
      cwd: process.cwd(),
      entry: ENTRY,
      env: { SERVICE_RATE_LIMIT: "0" },
      engineAddress: engine.address,
    });
    try {
      await plugin.configureProvider({ token: HOOKS_TOKEN, baseUrl: worldRef.current.sandbox.url });
      const calls = worldRef.current.calls();
      const ORDERS = urn(webhook.pluginToken, "orders");
      const created = (await plugin.check(ORDERS, {}, { ...hookInputs(), channel: "orders" })).inputs;
      const replaced = await plugin.check(ORDERS, created, { ...hookInputs(), channel: "orders-v2" });
      expect(replaced.failures).toEqual([]);
      for (let i = 0; i < 9; i++) {
        const hook = await plugin.check(
          urn(webhook.pluginToken, `hook-${i}`),
          {},
          { ...hookInputs(), channel: `c${i}` },
        );
        expect(hook.failures).toEqual([]);
      }
      await vi.waitFor(() => expect(engine.logs).toHaveLength(1), { timeout: 5_000 });
      expect(engine.logs[0]).toMatchObject({ severity: "WARNING", urn: ORDERS });
      expect(engine.logs[0]!.message).toMatch(/^Webhook "orders" would be replaced/);
      expect(engine.logs[0]!.message).toContain("needs an 11th slot");

      const eleventh = await plugin.check(
        urn(webhook.pluginToken, "hook-9"),
        {},
        { ...hookInputs(), channel: "c9" },
      );
      expect(eleventh.failures).toEqual([
        { property: "", reason: expect.stringContaining("This program declares 11 Webhooks") },
      ]);
      expect(eleventh.failures[0]!.reason).toContain('"orders", "hook-0"');
      expect(worldRef.current.calls()).toBe(calls);
      expect(plugin.output()).not.toContain(HOOKS_TOKEN);
    } finally {
      await plugin.close();
      await engine.close();
    }
  });
});

const hookInputs = () => ({
  endpoint: `https://${HOST}/service/events`,
  secretKey: SECRET,
  filters: [{ key: "activity.name", value: "authentication" }],
});

async function webhookMadeByHand(): Promise<string> {
  const created = await worldRef.current.api("POST", "/v2/webhooks", {
    body: hookBody({ channel: "orders" }),
  });
  return created.json.webhook_uuid as string;
}
