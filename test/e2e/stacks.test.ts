/**
 * Scenarios 6 and 7 under the real engine: two stacks of one program, each with its own Pulumi.<stack>.yaml
 * and secret token, and the shipped policy pack run by `pulumi preview --policy-pack`, which the engine
 * starts through the language host's RunPlugin.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeUnderEngine, webhooksIn } from "../helpers/engine";
import { HOOKS_TOKEN } from "../helpers/fixtures";
import { devStack, expectNoSecretIn, useStage } from "../helpers/stage";

const POLICY_PACK = join(__dirname, "../../policy-pack");

describeUnderEngine("under the real engine, stacks and policy", () => {
  const stages = useStage();

  it("keeps dev and staging apart: each stack manages only its own webhooks", async () => {
    const project = await devStack(stages.current, { webhooks: [{ name: "orders", channel: "orders-dev" }] });
    await project.run(["up", "--yes"]);
    // The second stack of the same program, configured the way the README tells a team to.
    await project.run(["stack", "init", "staging"]);
    await project.config("service:token", HOOKS_TOKEN, true);
    await project.config("service:baseUrl", stages.current.sandbox.url);
    await project.config("host", "hooks.acme.test");
    await project.config("webhookSecret", "whsec-staging-secret-5e6f7a8b9c", true);
    await project.config("webhooks", JSON.stringify([{ name: "orders", channel: "orders-staging" }]));
    await project.run(["up", "--yes"]);
    expect(await stages.current.active()).toHaveLength(2);

    const staging = webhooksIn(await project.exported());
    await project.run(["stack", "select", "dev"]);
    const dev = webhooksIn(await project.exported());
    expect(dev[0]?.outputs?.webhookUuid).not.toBe(staging[0]?.outputs?.webhookUuid);

    await project.run(["destroy", "--yes"]);
    expect(await stages.current.active()).toEqual([staging[0]?.outputs?.webhookUuid]);
    await project.run(["stack", "select", "staging"]);
    await project.run(["preview", "--expect-no-changes"]);
    await project.run(["destroy", "--yes"]);
    expect(await stages.current.active()).toEqual([]);
    expectNoSecretIn([project.checkpointFile("service-e2e", "staging")], stages.current, [
      HOOKS_TOKEN,
      "whsec-staging-secret-5e6f7a8b9c",
    ]);
  });

  // Beyond the service's 10 the program itself stops first (quota.test.ts); the policy's `quota` is for
  // organizations with webhooks outside the stack.
  it("stops a preview over the policy's quota, naming the webhooks, and makes no API call", async () => {
    const three = Array.from({ length: 3 }, (_, i) => ({ name: `hook-${i}`, channel: `channel-${i}` }));
    // The stage registered the host: the Domain adopts it, so that the preview asks the service nothing.
    const project = await devStack(stages.current, { webhooks: three, domain: "true", adoptDomain: "true" });
    const config = join(project.dir, "policy-config.json");
    writeFileSync(config, JSON.stringify({ "service-webhook-quota": { quota: 2 } }));
    const mark = stages.current.mark();
    const preview = await project.run(
      ["preview", "--policy-pack", POLICY_PACK, "--policy-pack-config", config],
      { allowFailure: true },
    );
    expect(preview.status).not.toBe(0);
    expect(preview.output).toMatch(/service-webhook-quota/);
    expect(preview.output).toMatch(/mandatory/);
    expect(preview.output).toMatch(/hook-2/);
    expect(stages.current.callsSince(mark)).toBe(0);
  });

  it("stops a preview whose webhook host has no Domain in the stack, naming the webhook", async () => {
    const project = await devStack(stages.current);
    const preview = await project.run(["preview", "--policy-pack", POLICY_PACK], { allowFailure: true });
    expect(preview.status).not.toBe(0);
    expect(preview.output).toMatch(/service-webhook-domain-in-stack/);
    expect(preview.output).toMatch(/orders/);
    expect(preview.output).toMatch(/hooks\.acme\.test/);
  });
});
