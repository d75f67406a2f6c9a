/**
 * `service-pulumi audit`, from a packed install, against the sandbox and the states of real stacks: two
 * stacks; a webhook made out of band (orphaned); one deactivated out of band (drifted); one stack's state
 * imported into a second stack (a conflict). Then `--deactivate-orphans --yes`, which touches only the
 * orphan, and, once the stacks are set right, an audit that exits 0. No output holds a secret.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { oneOfEachAuditReport } from "../helpers/audit-report";
import { describeUnderEngine, webhooksIn } from "../helpers/engine";
import { HOOKS_TOKEN, HOST, ROTATED_TOKEN } from "../helpers/fixtures";
import { packedInstall, servicePulumi } from "../helpers/service-pulumi";
import { devStack, useStage } from "../helpers/stage";

const HOOK = `https://${HOST}/service/events`;

describeUnderEngine("service-pulumi audit under the real engine, from a packed install", () => {
  let installed: string;
  const states = mkdtempSync(join(tmpdir(), "audit-states-"));
  // Installed before the sandbox starts (useStage): npm runs synchronously here.
  beforeAll(() => {
    installed = packedInstall();
  }, 240_000);
  afterAll(() => {
    rmSync(states, { recursive: true, force: true });
  });
  const stages = useStage([HOOKS_TOKEN, ROTATED_TOKEN]);

  it("finds the orphan, the drift and the conflict; deactivates only the orphan; exits 0 once the stacks are set right", async () => {
    const stage = stages.current;
    const dev = await devStack(stage, { webhooks: [{ name: "orders" }, { name: "gone" }] });
    await dev.run(["up", "--yes"]);
    const staging = await devStack(
      stage,
      { webhooks: [{ name: "prints", kind: "fingerprint" }] },
      // A second stack of the same project folder and backend, as in one infra repo, with acme's other
      // token: its listing is dev's, one pass per organization.
      { at: dev.dir, backend: dev.backend, stack: "staging", token: ROTATED_TOKEN },
    );
    await staging.run(["up", "--yes"]);
    const uuidOf = async (project: typeof dev, name: string) =>
      webhooksIn(await project.exported()).find((r) => r.urn.endsWith(`::${name}`))?.outputs
        ?.webhookUuid as string;
    const [orders, gone, prints] = [
      await uuidOf(dev, "orders"),
      await uuidOf(dev, "gone"),
      await uuidOf(staging, "prints"),
    ];

    // The imported state keeps staging's URNs.
    const printsUrn = "urn:pulumi:staging::service-e2e::pulumi-nodejs:dynamic/service:Webhook::prints";
    const byHand = await stage.webhookMadeByHand();
    await stage.api("POST", `/v2/webhooks/${gone}/deactivate`);
    // staging's state, imported into a second stack: both now claim its webhook.
    const exported = join(states, "staging.json");
    writeFileSync(exported, (await staging.run(["stack", "export"])).stdout);
    const copy = await devStack(stage, {}, { at: dev.dir, backend: dev.backend, stack: "copy" });
    // --force: the state names stack staging, as a copied state does.
    await copy.run(["stack", "import", "--file", exported, "--force"]);

    const audit = (args: readonly string[]) =>
      servicePulumi(installed, ["audit", ...args], { cwd: dev.dir, env: dev.env });
    const [domain] = (await stage.api("POST", "/v2/search/domains", { body: {} })).json.items as {
      domain_uuid: string;
    }[];
    const mark = stage.mark();
    const found = await audit(["--stacks", "dev,staging,copy"]);
    expect(found.stderr).toBe("");
    expect(found.status).toBe(1);
    expect(stage.callsSince(mark, "/v2/search/webhooks")).toBe(1);
    expect(stage.callsSince(mark, "/v2/search/domains")).toBe(1);
    expect(stage.callsSince(mark)).toBe(2);
    expect(found.stdout.split("\n")).toEqual(
      oneOfEachAuditReport({
        stacks: ["service-e2e/dev", "service-e2e/staging", "service-e2e/copy"],
        webhooks: [
          `- **conflict** webhook \`${prints}\`: \`${HOOK}\`, \`fingerprint\` records on channel \`prints\`, in \`service-e2e/staging\` (\`prints\`) and \`service-e2e/copy\` (\`prints\`)`,
          `  - each of \`service-e2e/staging\` and \`service-e2e/copy\` would change or delete it: keep it in \`service-e2e/staging\`, and remove it from the others: \`pulumi state delete ${printsUrn} --stack copy --yes\` in project \`service-e2e\`'s folder.`,
          `- **orphaned** webhook \`${byHand}\`: \`${HOOK}\`, \`authentication\` records on channel \`orders\``,
          "  - in no stack's state, it uses a slot of the quota: adopt it, or deactivate it with --deactivate-orphans.",
          `  - adopt with the provider plugin: \`pulumi import service:index:Webhook orders ${byHand}\``,
          `  - adopt with the TypeScript Webhook: \`new Webhook("orders", { endpoint: "${HOOK}", channel: "orders", filters: [{"key":"activity.name","value":"authentication"}], secretKey, adoptWebhookUuid: "${byHand}" })\``,
          `- **drifted** webhook \`${gone}\`: \`${HOOK}\`, \`authentication\` records on channel \`gone\`, in \`service-e2e/dev\` (\`gone\`)`,
          "  - no longer active: run `pulumi refresh --stack dev` in project `service-e2e`'s folder, which drops it from the state (the next `pulumi up` creates it again).",
          `- **managed** webhook \`${orders}\`: \`${HOOK}\`, \`authentication\` records on channel \`orders\`, in \`service-e2e/dev\` (\`orders\`)`,
        ],
        domainUuid: domain!.domain_uuid,
      }),
    );

    // The same from exported files, with the credentials from the environment, as JSON.
    const devFile = join(states, "dev.json");
    writeFileSync(devFile, (await dev.run(["stack", "export"])).stdout);
    const fromFiles = await servicePulumi(
      installed,
      ["audit", "--json", "--state", devFile, "--state", exported],
      {
        cwd: states,
        env: { ...dev.env, SERVICE_API_TOKEN: HOOKS_TOKEN, SERVICE_BASE_URL: stage.sandbox.url },
      },
    );
    expect(fromFiles.status).toBe(1);
    expect(JSON.parse(fromFiles.stdout)).toMatchObject({
      version: 1,
      summary: { managed: 2, conflict: 0, orphaned: 1, drifted: 1, unmanaged: 1 },
      exitCode: 1,
    });

    const cleaned = await audit(["--stacks", "dev,staging,copy", "--deactivate-orphans", "--yes"]);
    // Named before it goes, and again once gone.
    const named = `webhook ${byHand} of organization acme: ${HOOK}, channel orders`;
    expect(cleaned.stderr).toBe(`To deactivate: ${named}.\nDeactivated ${named}.\n`);
    expect(cleaned.status).toBe(1);
    expect((await stage.active()).sort()).toEqual([orders, prints].sort());

    await dev.run(["refresh", "--yes", "--skip-preview"]);
    // What the report says to do about the conflict, as it says it.
    await copy.run(["state", "delete", printsUrn, "--stack", "copy", "--yes"]);
    const clean = await audit(["--stacks", "dev,staging,copy"]);
    expect(clean.stderr).toBe("");
    expect(clean.status).toBe(0);
    expect(clean.stdout).toContain(
      "Clean: every active webhook and registered domain is in one stack's state (a shared domain in the state of the stack that registered it, and of those that adopted it), and every one in a state is active. Exit code 0.",
    );
  });

  it("reads the provider plugin's Webhook and Domain alike", async () => {
    const stage = stages.current;
    // The plugin program, in a folder whose node_modules is the packed install's.
    const dir = mkdtempSync(join(states, "plugin-"));
    for (const file of ["Pulumi.yaml", "index.ts", "tsconfig.json"]) {
      cpSync(join(__dirname, "plugin-program", file), join(dir, file));
    }
    cpSync(join(installed, "package.json"), join(dir, "package.json"));
    symlinkSync(join(installed, "node_modules"), join(dir, "node_modules"));
    const host = "other.acme.test";
    const project = await devStack(
      stage,
      { host, "service:hostOverrides": { [host]: stage.originUrl }, domain: "true" },
      { at: dir, stack: "plugin" },
    );
    await project.run(["up", "--yes"]);
    const state = await project.exported();
    const uuidOf = (type: string) => state.deployment.resources?.find((r) => r.type === type)?.id;
    const run = await servicePulumi(installed, ["audit", "--stacks", "plugin"], {
      cwd: dir,
      env: project.env,
    });
    expect(run.stderr).toBe("");
    const lines = run.stdout.split("\n");
    expect(lines).toContain(
      `- **managed** webhook \`${uuidOf("service:index:Webhook")}\`: \`https://${host}/service/events\`, \`authentication\` records on channel \`orders\`, in \`service-plugin-e2e/plugin\` (\`orders\`)`,
    );
    expect(lines).toContain(
      `- **managed** domain \`${host}\` \`${uuidOf("service:index:DomainVerification")}\`, in \`service-plugin-e2e/plugin\` (\`hooks\`)`,
    );
    await project.run(["destroy", "--yes"]);
  });
});
