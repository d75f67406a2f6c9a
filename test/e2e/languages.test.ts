/**
 * Programs in Python, YAML and Go on the provider plugin, under the real engine, from a packed install in a
 * new folder, the way a platform team's infra repo of that language uses it:
 * - Python: a virtualenv with the Pulumi SDK from PyPI and the generated SDK shipped in the package
 *   (node_modules/@service/pulumi/sdk/python);
 * - YAML: nothing to install;
 * - Go: a module that requires the generated Go SDK (node_modules/@service/pulumi/sdk/go) by a replace.
 * Each project finds the plugin through its Pulumi.yaml (`plugins.providers`). The same checks as the
 * TypeScript scenarios: one active webhook per resource, no API call on an unchanged preview, no
 * plaintext secret in anything printed or stored.
 */
import { execFileSync } from "node:child_process";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pinnedPulumiVersion } from "../../scripts/pulumi-engine.mts";
import { type Consumer, createConsumer } from "../helpers/consumer";
import { HOST } from "../helpers/fixtures";
import { describeUnderEngine, type PulumiProject, webhooksIn } from "./helpers/engine";
import {
  devStack,
  expectNoSecretIn,
  expectOneActivePerResource,
  expectSecretsEncrypted,
  type Stage,
  useStage,
} from "./helpers/stage";

const root = join(__dirname, "../..");
/** A host of the sandbox's seed that no scenario registers beforehand: each language's Domain verifies it. */
const DOMAIN_HOST = "other.acme.test";
const GO_SDK_MODULE = "github.com/service-pulumi/service-pulumi/sdk/go";

describeUnderEngine("programs in Python, YAML and Go on the provider plugin, from a packed install", () => {
  let consumer: Consumer;
  const dirs = { python: "", yaml: "", go: "" };
  // Installed before the sandbox starts (useStage): npm, pip and go run synchronously here.
  beforeAll(() => {
    consumer = createConsumer(root);
    for (const language of ["python", "yaml", "go"] as const) {
      dirs[language] = join(consumer.dir, language);
      cpSync(join(__dirname, `${language}-program`), dirs[language], { recursive: true });
    }
    const run = (command: string, args: string[], cwd: string) =>
      execFileSync(command, args, { cwd, stdio: "pipe", encoding: "utf8" });
    run("python3", ["-m", "venv", "venv"], dirs.python);
    const pulumiPython = `pulumi==${pinnedPulumiVersion().replace(/^v/, "")}`;
    const sdk = join(consumer.dir, "node_modules/@service/pulumi/sdk");
    run("venv/bin/pip", ["install", "--quiet", pulumiPython, join(sdk, "python")], dirs.python);
    writeFileSync(
      join(dirs.go, "go.mod"),
      `module example.com/infra\n\ngo 1.25\n\nreplace ${GO_SDK_MODULE} => ${join(sdk, "go")}\n`,
    );
    run(
      "go",
      ["get", `github.com/pulumi/pulumi/sdk/v3@${pinnedPulumiVersion()}`, `${GO_SDK_MODULE}@v0.0.0`],
      dirs.go,
    );
    run("go", ["mod", "tidy"], dirs.go);
  }, 600_000);
  afterAll(() => {
    if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
  });
  const stages = useStage();

  /** A stack of the language's project, pointed at the stage, with the Domain on DOMAIN_HOST. */
  const stackOf = (stage: Stage, language: keyof typeof dirs, settings: Record<string, unknown> = {}) =>
    devStack(
      stage,
      { host: DOMAIN_HOST, "service:hostOverrides": { [DOMAIN_HOST]: stage.originUrl }, ...settings },
      { at: dirs[language], stack: language },
    );

  /** up, an unchanged preview with no API call, refresh, destroy: the life of a stack. */
  async function lifecycle(stage: Stage, project: PulumiProject, webhooks: number) {
    await project.run(["up", "--yes"]);
    await expectOneActivePerResource(stage, [project]);
    const state = await project.exported();
    expect(webhooksIn(state)).toHaveLength(webhooks);
    const types = new Set((state.deployment.resources ?? []).map((r) => r.type));
    expect([...types]).toEqual(
      expect.arrayContaining([
        "service:index:Domain",
        "service:index:DomainVerification",
        "service:index:Webhook",
      ]),
    );
    expectSecretsEncrypted(state);

    const mark = stage.mark();
    await project.run(["preview", "--expect-no-changes"]);
    expect(stage.callsSince(mark)).toBe(0);
    await project.run(["refresh", "--yes", "--skip-preview"]);
    await project.run(["preview", "--expect-no-changes"]);

    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
    return state;
  }

  it("a Python program goes up with a Domain and two Webhooks, previews with no API call, refreshes and is destroyed", async () => {
    const stage = stages.current;
    const project = await stackOf(stage, "python", {
      webhooks: [
        { name: "authentications", kind: "authentication" },
        { name: "fingerprints", kind: "fingerprint" },
      ],
    });
    await lifecycle(stage, project, 2);
    expectNoSecretIn([project.checkpointFile("service-python", "python")], stage);
  });

  it("a YAML program does the same", async () => {
    const stage = stages.current;
    const project = await stackOf(stage, "yaml");
    await lifecycle(stage, project, 2);
    expectNoSecretIn([project.checkpointFile("service-yaml", "yaml")], stage);
  });

  it("a Go program compiles against the generated SDK and previews, with no API call", async () => {
    const stage = stages.current;
    const project = await stackOf(stage, "go");
    const mark = stage.mark();
    const preview = await project.run(["preview"]);
    expect(preview.output).toMatch(/\+\s+service:index:Domain\s+hooks\s+create/);
    expect(preview.output).toMatch(/\+\s+service:index:Webhook\s+orders\s+create/);
    expect(stage.callsSince(mark)).toBe(0);
  });

  it("a Python project imports a webhook made out of band, prints its Python code, and previews clean", async () => {
    const stage = stages.current;
    const uuid = await stage.webhookMadeByHand();
    const project = await stackOf(stage, "python", { host: HOST, domain: "false" });
    const imported = await project.run(["import", "service:index:Webhook", "orders", uuid, "--yes"]);
    // The code to paste into the program, in the project's language.
    expect(imported.output).toContain("import service_pulumi as service");
    expect(imported.output).toMatch(/orders = service\.Webhook\("orders",\s+channel="orders",/);
    expect(imported.output).toContain("protect=True");
    // The service never returns the secret: the warning says to add it to the program, which has it.
    expect(imported.output).toMatch(/secretKey[\s\S]*needs the key it was created with added to the program/);
    const [webhook] = webhooksIn(await project.exported());
    expect(webhook?.id).toBe(uuid);

    // The program already declares it, with its secret: once unprotected, nothing is left to change.
    await project.run(["state", "unprotect", webhook!.urn, "--yes"]);
    const mark = stage.mark();
    await project.run(["preview", "--expect-no-changes"]);
    expect(stage.callsSince(mark)).toBe(0);
    await project.run(["up", "--yes"]);
    expect(await stage.active()).toEqual([uuid]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
  });
});
