/**
 * Scenarios 2, 4, 5 and 8 under the real engine: what a reviewer reads in `pulumi preview --diff`, what
 * the checkpoint stores, a webhook deactivated out of band, adopting an existing webhook, and a Domain
 * kept on destroy.
 */
import { expect, it } from "vitest";
import { describeUnderEngine, webhooksIn } from "../helpers/engine";
import { HOOKS_TOKEN } from "../helpers/fixtures";
import { devStack, expectNoSecretIn, expectOneActivePerResource, useStage } from "../helpers/stage";

describeUnderEngine("under the real engine", () => {
  const stages = useStage();

  it("shows a reviewer which input forces a replace, and never prints or stores a secret", async () => {
    const project = await devStack(stages.current);
    await project.run(["up", "--yes"]);

    await project.config("webhooks", JSON.stringify([{ name: "orders", channel: "orders-v2" }]));
    const channel = (await project.run(["preview", "--diff"])).output;
    expect(channel).toMatch(/\+-\s*pulumi-nodejs:dynamic\/service:Webhook: \(replace\)/);
    expect(channel).toMatch(/~ channel\s*: "orders" => "orders-v2"/);
    expect(channel).toMatch(/1 to replace/);
    // The machine-readable plan names the input that forces the replace, as the provider's diff said.
    const plan = JSON.parse((await project.run(["preview", "--json"])).stdout);
    const replace = plan.steps.find((step: { op: string }) => step.op === "replace");
    expect(replace.replaceReasons).toEqual(["channel"]);

    await project.config("webhooks", JSON.stringify([{ name: "orders" }]));
    await project.config("webhookSecret", "whsec-rotated-secret-0a1b2c3d4e", true);
    const rotated = (await project.run(["preview", "--diff"])).output;
    expect(rotated).toMatch(/1 to replace/);
    // State keeps a salted hash of the secret, never the secret, so the new value shows as added.
    expect(rotated).toMatch(/\+ secretKey\s*: \[secret\]/);
    const rotatedPlan = JSON.parse((await project.run(["preview", "--json"])).stdout);
    const rotation = rotatedPlan.steps.find((step: { op: string }) => step.op === "replace");
    expect(rotation.replaceReasons).toEqual(["secretKey"]);
    expect(rotated).not.toContain("whsec-rotated-secret-0a1b2c3d4e");
    await project.run(["up", "--yes"]);

    const exported = JSON.stringify(await project.exported());
    expectNoSecretIn([exported, project.checkpointFile("service-e2e", "dev")], stages.current, [
      HOOKS_TOKEN,
      "whsec-rotated-secret-0a1b2c3d4e",
    ]);
    await expectOneActivePerResource(stages.current, [project]);
    await project.run(["destroy", "--yes"]);
  });

  it("drops a webhook deactivated out of band on refresh, and creates it again on the next up", async () => {
    const project = await devStack(stages.current);
    await project.run(["up", "--yes"]);
    const [first] = await stages.current.active();
    await stages.current.api("POST", `/v2/webhooks/${first}/deactivate`);

    const refresh = (await project.run(["refresh", "--yes", "--skip-preview"])).output;
    expect(refresh).toMatch(/- +pulumi-nodejs:dynamic\/service:Webhook orders deleted/);
    expect(webhooksIn(await project.exported())).toHaveLength(0);
    await project.run(["up", "--yes"]);
    const [second] = await stages.current.active();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    await expectOneActivePerResource(stages.current, [project]);
    await project.run(["destroy", "--yes"]);
  });

  it("adopts an existing webhook the way the README says, with no create and no gap", async () => {
    const uuid = await stages.current.webhookMadeByHand();
    const project = await devStack(stages.current, { webhooks: [{ name: "orders", adopt: uuid }] });
    const mark = stages.current.mark();
    await project.run(["up", "--yes"]);
    expect(stages.current.callsSince(mark, "/v2/webhooks")).toBe(0);
    expect(webhooksIn(await project.exported())[0]?.outputs?.webhookUuid).toBe(uuid);
    const previewMark = stages.current.mark();
    await project.run(["preview", "--expect-no-changes"]);
    expect(stages.current.callsSince(previewMark)).toBe(0);
    await expectOneActivePerResource(stages.current, [project]);
    await project.run(["destroy", "--yes"]);
    expect(await stages.current.active()).toEqual([]);
  });

  it("leaves a Domain with retainOnDelete registered on destroy", async () => {
    // A host of its own, so that the stage's registered HOST stays as it is.
    const domains = async () =>
      (
        (await stages.current.api("POST", "/v2/search/domains", { body: {} })).json.items as {
          domain_name: string;
        }[]
      ).map((d) => d.domain_name);
    const project = await devStack(stages.current, {
      domain: "true",
      retainDomain: "true",
      host: "other.acme.test",
      webhooks: [],
    });
    await project.config(
      "service:hostOverrides",
      JSON.stringify({ "other.acme.test": stages.current.originUrl }),
    );
    await project.run(["up", "--yes"]);
    expect(await domains()).toContain("other.acme.test");
    await project.run(["destroy", "--yes"]);
    expect(await domains()).toContain("other.acme.test");
    expectNoSecretIn([], stages.current);
  });
});
