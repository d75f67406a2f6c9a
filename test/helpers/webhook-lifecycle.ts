import { expect } from "vitest";
import { UNKNOWN } from "../../provider/lifecycle/unknowns";
import { webhook } from "../../provider/registry";
import { DIFF_NONE, DIFF_SOME, type DynamicHost } from "./dynamic-host";
import { HOOKS_TOKEN, SECRET, webhookArgs } from "./fixtures";
import type { World } from "./world";

/**
 * The engine's sequence for one Webhook, over gRPC: Configure, Check (with unknowns, then known), Create,
 * Diff, Read of a present and of a vanished webhook, Delete. `providerText` is the dynamic provider's
 * serialized text; without it, the host is the provider plugin, which serves `service:index:Webhook`.
 */
export async function webhookLifecycleOverGrpc(
  host: DynamicHost,
  providerText: string | undefined,
  world: World,
): Promise<void> {
  const type = providerText === undefined ? webhook.pluginToken : webhook.token;
  const URN = `urn:pulumi:dev::quickstart::${type}::orders`;
  const news = (overrides: Record<string, unknown> = {}) => ({
    ...(providerText === undefined ? {} : { __provider: providerText }),
    ...webhookArgs(overrides),
  });
  // As the engine configures each: the dynamic host with the stack's namespaced keys, the plugin with its inputs.
  if (providerText === undefined) {
    await host.configureProvider({ token: HOOKS_TOKEN, baseUrl: world.sandbox.url });
  } else {
    await host.configure({ "service:token": HOOKS_TOKEN, "service:baseUrl": world.sandbox.url });
  }

  const preview = await host.check(URN, {}, news({ endpoint: UNKNOWN }));
  expect(preview.failures).toEqual([]);
  expect(preview.inputs.endpoint).toBe(UNKNOWN);
  const bad = await host.check(URN, {}, news({ secretKey: "short" }));
  expect(bad.failures).toEqual([
    {
      property: "",
      reason:
        "secretKey must be 16 to 256 characters on API 2.0 (got 5 characters): use a longer random key, e.g. the output of `openssl rand -hex 24`",
    },
  ]);

  const { inputs } = await host.check(URN, {}, news());
  const created = await host.create(URN, inputs);
  expect(created.properties.webhookUuid).toBe(created.id);
  expect(created.properties.__provider).toBe(providerText);
  expect(JSON.stringify(created.properties)).not.toContain(SECRET);

  expect((await host.diff(URN, created.id, created.properties, inputs)).changes).toBe(DIFF_NONE);
  const changed = (
    await host.check(URN, inputs, news({ filters: [{ key: "activity.name", value: "fingerprint" }] }))
  ).inputs;
  const diff = await host.diff(URN, created.id, created.properties, changed);
  expect(diff).toMatchObject({ changes: DIFF_SOME, replaces: ["filters"] });
  const unknownDiff = await host.diff(URN, created.id, created.properties, { ...inputs, endpoint: UNKNOWN });
  expect(unknownDiff.replaces).toEqual(["endpoint"]);

  const doomed = await host.create(URN, (await host.check(URN, {}, news({ channel: "doomed" }))).inputs);
  await world.api("POST", `/v2/webhooks/${doomed.id}/deactivate`);
  // A refresh that finds the webhook as it was rewrites nothing: the state comes back as stored, and no
  // inputs, so that the engine keeps the stored ones (the secret key among them).
  const present = await host.read(URN, created.id, created.properties);
  expect(present.id).toBe(created.id);
  expect(present.properties).toEqual(created.properties);
  expect(present.inputs).toBeUndefined();
  const gone = await host.read(URN, doomed.id, doomed.properties);
  expect(gone.id).toBe("");

  await host.delete(URN, created.id, created.properties);
  const listed = await world.api("POST", "/v2/search/webhooks", { body: {} });
  expect(listed.json.items).toEqual([]);
  expect(host.output()).not.toContain(SECRET);
  expect(host.output()).not.toContain(HOOKS_TOKEN);
}
