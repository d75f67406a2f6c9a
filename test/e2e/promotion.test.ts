/**
 * Issue 42, item 1, under the real engine: dev and staging, two stacks of one program, on one
 * organization and one hostname. Staging shares the domain dev registered (opting in with `adopt`, or
 * told at preview and at up when it did not), its destroy leaves the domain to dev in one line, and dev
 * goes on unchanged, its deliveries arriving, until its own destroy.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeUnderEngine, type PulumiProject, webhooksIn } from "../helpers/engine";
import { HOOKS_TOKEN } from "../helpers/fixtures";
import { DOMAIN_HOST, domainStack, expectNoSecretIn, type Stage, useStage } from "../helpers/stage";

const STAGING_SECRET = "whsec-staging-secret-5e6f7a8b9c";

/** The organization's registered domains, by hostname. */
async function registered(stage: Stage): Promise<string[]> {
  const listed = await stage.api("POST", "/v2/search/domains", { body: {} });
  return (listed.json.items as { domain_name: string }[]).map((d) => d.domain_name);
}

/** Whether an authentication made now reaches `webhookUuid` (the stage's origin answers 200). */
async function delivered(stage: Stage, webhookUuid: string): Promise<boolean> {
  const { service_id } = stage.sandbox.upsertSession({ organization: "acme", kind: "authentication" });
  await stage.sandbox.deliveriesIdle();
  return stage.sandbox
    .deliveries()
    .some((d) => d.webhook_uuid === webhookUuid && d.service_id === service_id && d.delivered);
}

/** The stack `staging` of dev's project: the same organization (token), hostname and origin. */
async function stagingOf(project: PulumiProject, stage: Stage, settings: Record<string, string>) {
  await project.run(["stack", "init", "staging"]);
  await project.config("service:token", HOOKS_TOKEN, true);
  await project.config("service:baseUrl", stage.sandbox.url);
  await project.config("service:hostOverrides", JSON.stringify({ [DOMAIN_HOST]: stage.originUrl }));
  await project.config("host", DOMAIN_HOST);
  await project.config("filesDir", stage.filesDir);
  await project.config("webhookSecret", STAGING_SECRET, true);
  await project.config("domain", "true");
  await project.config("webhooks", JSON.stringify([{ name: "orders", channel: "staging-orders" }]));
  for (const [key, value] of Object.entries(settings)) await project.config(key, value);
}

const domainOf = async (project: PulumiProject) =>
  (await project.exported()).deployment.resources?.find((r) => r.type.endsWith("DomainVerification"));

/**
 * The lines of a command's diagnostics (the summary after its progress, which shows each message once)
 * that say the domain stays registered.
 */
const stays = (output: string) =>
  (output.split("\nDiagnostics:\n")[1] ?? "").split("\n").filter((line) => /stays registered/.test(line));

describeUnderEngine("under the real engine, promotion on one organization and one hostname", () => {
  const stages = useStage([HOOKS_TOKEN, STAGING_SECRET]);

  it("dev up, staging up (adopt), staging destroy, dev unchanged and delivered to, dev destroy", async () => {
    const stage = stages.current;
    // The origin answers deliveries to https://other.acme.test/service/events with 200.
    mkdirSync(join(stage.filesDir, "service"), { recursive: true });
    writeFileSync(join(stage.filesDir, "service/events"), "ok");

    const project = await domainStack(stage, {
      domain: "true",
      webhooks: [{ name: "orders", channel: "dev-orders" }],
    });
    await project.run(["up", "--yes"]);
    const devDomain = await domainOf(project);
    expect(devDomain?.outputs).toMatchObject({ status: "registered", domainName: DOMAIN_HOST });
    const [devHook] = webhooksIn(await project.exported());
    const devUuid = devHook?.outputs?.webhookUuid as string;
    expect(await delivered(stage, devUuid)).toBe(true);

    // Staging did not opt in: its preview says the hostname is dev's, and how to opt in.
    await stagingOf(project, stage, {});
    const told = await project.run(["preview"]);
    expect(told.output).toMatch(
      new RegExp(`${DOMAIN_HOST.replaceAll(".", "\\.")} is already registered to organization acme`),
    );
    expect(told.output).toMatch(/`adopt` true/);

    // Opted in: up shares dev's domain, recorded as not registered by this stack.
    await project.config("adoptDomain", "true");
    await project.run(["up", "--yes"]);
    const stagingDomain = await domainOf(project);
    expect(stagingDomain?.outputs).toMatchObject({ status: "adopted", domainUuid: devDomain?.id });
    expect(await stage.active()).toHaveLength(2);

    // Staging's destroy removes its webhook, leaves the domain to dev, and says so in one line.
    const destroyed = await project.run(["destroy", "--yes"]);
    expect(stays(destroyed.output)).toHaveLength(1);
    expect(stays(destroyed.output)[0]).toContain(DOMAIN_HOST);
    expect(await registered(stage)).toContain(DOMAIN_HOST);
    expect(await stage.active()).toEqual([devUuid]);

    // Dev: nothing to change, and its deliveries still arrive.
    await project.run(["stack", "select", "dev"]);
    const mark = stage.mark();
    await project.run(["preview", "--expect-no-changes"]);
    expect(stage.callsSince(mark)).toBe(0);
    expect(await delivered(stage, devUuid)).toBe(true);

    await project.run(["destroy", "--yes"]);
    expect(await registered(stage)).not.toContain(DOMAIN_HOST);
    expect(await stage.active()).toEqual([]);
    expectNoSecretIn([project.checkpointFile("service-e2e", "staging")], stage, [
      HOOKS_TOKEN,
      STAGING_SECRET,
    ]);
  });

  it("without adopt: told at up, recorded as adopted; dev's destroy names staging's webhook as outside its state", async () => {
    const stage = stages.current;
    const project = await domainStack(stage, {
      domain: "true",
      webhooks: [{ name: "orders", channel: "dev-orders" }],
    });
    await project.run(["up", "--yes"]);
    const devDomain = await domainOf(project);

    await stagingOf(project, stage, {});
    const up = await project.run(["up", "--yes"]);
    expect(up.output).toMatch(/other\.acme\.test is already registered to organization acme/);
    expect((await domainOf(project))?.outputs).toMatchObject({
      status: "adopted",
      domainUuid: devDomain?.id,
    });
    const [stagingHook] = webhooksIn(await project.exported());
    const stagingUuid = stagingHook?.outputs?.webhookUuid as string;

    // Dev goes first: its domain is refused while staging's webhook targets it, and the message says
    // whose that webhook is and how to find out more, not an option dev's program could set.
    await project.run(["stack", "select", "dev"]);
    const refused = await project.run(["destroy", "--yes"], { allowFailure: true });
    expect(refused.status).not.toBe(0);
    expect(refused.output).toMatch(
      new RegExp(`Not in this stack's state, so another stack's or made by hand:\\s+- ${stagingUuid} `),
    );
    expect(refused.output).toMatch(/service-pulumi audit --stacks <the other stack>,<this stack>/);
    expect(refused.output).not.toMatch(/dependsOn/);
    expect(await stage.active()).toEqual([stagingUuid]);

    await project.run(["stack", "select", "staging"]);
    const destroyed = await project.run(["destroy", "--yes"]);
    expect(stays(destroyed.output)).toHaveLength(1);
    await project.run(["stack", "select", "dev"]);
    await project.run(["destroy", "--yes"]);
    expect(await registered(stage)).not.toContain(DOMAIN_HOST);
    expect(await stage.active()).toEqual([]);
  });
});
