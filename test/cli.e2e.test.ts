import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOKS_TOKEN, HOST, SECRET } from "./helpers/fixtures";
import { findPulumiCli, localStack, PULUMI_SKIP_REASON } from "./helpers/pulumi-cli";
import { registerDomain, startWorld, type World } from "./helpers/world";

const cli = findPulumiCli();
if (!cli) console.warn(PULUMI_SKIP_REASON);

describe.skipIf(!cli)("with the Pulumi CLI, a local-backend stack against the sandbox", () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
    await registerDomain(world);
  });
  afterAll(async () => {
    await world?.close();
  });

  it("goes through up, a filter change, a refresh after an out-of-band deactivation, and destroy", async () => {
    const stack = localStack(join(__dirname, "e2e/webhook-program"), { SERVICE_RATE_LIMIT: "0" });
    stack.run("stack", "init", "dev");
    stack.run("config", "set", "--secret", "service:token", HOOKS_TOKEN);
    stack.run("config", "set", "service:baseUrl", world.sandbox.url);
    stack.run("config", "set", "host", HOST);
    stack.run("config", "set", "--secret", "webhookSecret", SECRET);
    stack.run("up", "--yes");
    const active = async () =>
      (await world.api("POST", "/v2/search/webhooks", { body: {} })).json.items as { webhook_uuid: string }[];
    expect(await active()).toHaveLength(1);

    stack.run("config", "set", "formFactors", "lightbox,microscopic");
    const preview = stack.json("preview");
    const replaces = (preview.steps ?? []).filter((s: { op: string }) => s.op === "replace");
    expect(replaces).toHaveLength(1);
    stack.run("up", "--yes");
    expect(await active()).toHaveLength(1);
    expect(stack.json("preview").changeSummary?.same).toBeGreaterThan(0);

    const [current] = await active();
    await world.api("POST", `/v2/webhooks/${current!.webhook_uuid}/deactivate`);
    stack.run("refresh", "--yes");
    stack.run("up", "--yes");
    expect(await active()).toHaveLength(1);

    const exported = stack.run("stack", "export");
    for (const secret of [SECRET, HOOKS_TOKEN]) expect(exported).not.toContain(secret);

    stack.run("destroy", "--yes");
    expect(await active()).toHaveLength(0);
  }, 300_000);
});
