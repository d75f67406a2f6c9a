/**
 * The provider text stored in state, through the real dynamic-provider host: the one line this version
 * stores, and the serialized closure that earlier versions stored, which state still holds after an
 * upgrade until each resource is next updated. Regression: the closure was 3.6 KB, stored twice per
 * resource, and the engine rewrote it with the whole checkpoint on every step.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { webhook } from "../../../provider/registry";
import { storedProviderText } from "../../../provider/resource-kit/stored-provider";
import { DIFF_NONE, startDynamicHost } from "../../helpers/dynamic-host";
import { HOOKS_TOKEN, webhookArgs } from "../../helpers/fixtures";
import { webhookProviderText } from "../../helpers/mocks";
import { webhookLifecycleOverGrpc } from "../../helpers/webhook-lifecycle";
import { useRegisteredWorld } from "../../helpers/world";

/** What version 0.1.0 stored as a Webhook's `__provider`: Pulumi's serialization of its provider class. */
const RELEASED_TEXT = readFileSync(join(__dirname, "released-webhook-provider.txt"), "utf8");
const URN = `urn:pulumi:dev::quickstart::${webhook.token}::orders`;

const worldRef = useRegisteredWorld();

describe("the provider text stored in state", () => {
  it("is one line of under 100 bytes that names the resource's key, as a program registers it", async () => {
    const text = await webhookProviderText();
    expect(text).toBe(storedProviderText(webhook.key));
    expect(text.length).toBeLessThan(100);
  });

  it("still runs as earlier versions stored it, and an upgrade's new text changes nothing", async () => {
    const host = await startDynamicHost({ cwd: process.cwd(), env: { SERVICE_RATE_LIMIT: "0" } });
    try {
      await webhookLifecycleOverGrpc(host, RELEASED_TEXT, worldRef.current);

      // State written by the earlier version, and a program of this one: no change to propose.
      const released = { __provider: RELEASED_TEXT, ...webhookArgs() };
      const { inputs } = await host.check(URN, {}, released);
      const created = await host.create(URN, inputs);
      const upgraded = { ...inputs, __provider: storedProviderText(webhook.key) };
      const checked = (await host.check(URN, inputs, upgraded)).inputs;
      expect((await host.diff(URN, created.id, created.properties, checked)).changes).toBe(DIFF_NONE);
      await host.delete(URN, created.id, created.properties);
      expect(host.output()).not.toContain(HOOKS_TOKEN);
    } finally {
      await host.close();
    }
  });
});
