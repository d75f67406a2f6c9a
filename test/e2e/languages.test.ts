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
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PYTHON_PULUMI_VERSION, pinnedPulumiVersion } from "../../tools/engine/pulumi-engine.mts";
import { type Consumer, createConsumer } from "../helpers/consumer";
import {
  describeUnderEngine,
  diagnosticsOf,
  type PulumiProject,
  pulumiProject,
  STACK_TRACE,
  webhooksIn,
} from "../helpers/engine";
import { FLEET, fleetSeed, HOOKS_TOKEN, HOST } from "../helpers/fixtures";
import { expectShortSecretRefused, SECRET_WAYS } from "../helpers/secret-channels";
import {
  DOMAIN_HOST,
  devStack,
  domainStack,
  expectNoSecretIn,
  expectOneActivePerResource,
  expectSecretsEncrypted,
  type Stage,
  useStage,
} from "../helpers/stage";

const root = join(__dirname, "../..");
/** What Pulumi's Python SDK says on the stack when the engine has stopped the program's resource monitor. */
const PYTHON_MONITOR_STOPPED = "error: Resource monitor has terminated, shutting down";
const pluginVersion = (JSON.parse(readFileSync(join(root, "schema.json"), "utf8")) as { version: string })
  .version;
const GO_SDK_MODULE = "github.com/service-pulumi/service-pulumi/sdk/go";

const TITLE = "programs in Python, YAML and Go on the provider plugin, from a packed install";
/**
 * A preview of a new Domain asks the service once whether its hostname is registered already (issue 42:
 * sharing another stack's domain is said at preview); it calls nothing else.
 */
function expectOnlyTheDomainsListing(stage: Stage, mark: number): void {
  expect(stage.callsSince(mark)).toBeLessThanOrEqual(1);
  expect(stage.callsSince(mark, "/v2/search/domains")).toBe(stage.callsSince(mark));
}

describeUnderEngine(TITLE, { tools: ["python3", "go"] }, () => {
  let consumer: Consumer;
  const dirs = { python: "", yaml: "", go: "" };
  // Installed before the sandbox starts (useStage): npm, pip and go run synchronously here.
  beforeAll(() => {
    consumer = createConsumer(root);
    for (const language of ["python", "yaml", "go"] as const) {
      dirs[language] = join(consumer.dir, language);
      cpSync(join(__dirname, `${language}-program`), dirs[language], { recursive: true });
    }
    // The fleet in Python runs in the Python scenario's virtualenv (its Pulumi.yaml names ../python/venv).
    cpSync(join(__dirname, "python-fleet-program"), join(consumer.dir, "python-fleet"), { recursive: true });
    const run = (command: string, args: string[], cwd: string) =>
      execFileSync(command, args, { cwd, stdio: "pipe", encoding: "utf8" });
    run("python3", ["-m", "venv", "venv"], dirs.python);
    const pulumiPython = `pulumi==${PYTHON_PULUMI_VERSION}`;
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
  const stages = useStage([HOOKS_TOKEN, ...FLEET.map((org) => org.token)], fleetSeed);

  /**
   * A new stack of the language's project, pointed at the stage, with the Domain on DOMAIN_HOST. Each
   * scenario names its own stack: a stack's settings stay in the project's Pulumi.<stack>.yaml.
   */
  const stackOf = (
    stage: Stage,
    language: keyof typeof dirs,
    stack: string,
    settings: Record<string, unknown> = {},
  ) => domainStack(stage, settings, { at: dirs[language], stack });

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
    const project = await stackOf(stage, "python", "python", {
      webhooks: [
        { name: "authentications", kind: "authentication" },
        { name: "fingerprints", kind: "fingerprint" },
      ],
    });
    await lifecycle(stage, project, 2);
    expectNoSecretIn([project.checkpointFile("service-python", "python")], stage);
  });

  it("a Python fleet of organizations, each with its own token, goes up, previews with no call, refreshes with one listing of each kind per organization, and is destroyed", async () => {
    const stage = stages.current;
    const project = await devStack(
      stage,
      {
        fleet: FLEET.map(({ organization, host }) => ({ organization, host })),
        sandboxUrl: stage.sandbox.url,
        "service:hostOverrides": Object.fromEntries(
          [HOST, ...FLEET.map((org) => org.host)].map((host) => [host, stage.originUrl]),
        ),
      },
      { at: join(consumer.dir, "python-fleet"), stack: "fleet" },
    );
    for (const org of FLEET) await project.config(`token-${org.organization}`, org.token, true);

    await project.run(["up", "--yes", "--skip-preview"]);
    for (const org of FLEET) expect(await stage.active(org.token)).toHaveLength(2);
    const state = await project.exported();
    expectSecretsEncrypted(state);

    let mark = stage.mark();
    await project.run(["preview", "--expect-no-changes"]);
    expect(stage.callsSince(mark)).toBe(0);
    // One provider process serves every organization: one listing of each kind per organization.
    mark = stage.mark();
    await project.run(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
    expect(stage.callsSince(mark, "/v2/search/domains")).toBe(FLEET.length);
    expect(stage.callsSince(mark, "/v2/search/webhooks")).toBe(FLEET.length);
    expect(stage.callsSince(mark)).toBe(2 * FLEET.length);

    await project.run(["destroy", "--yes", "--skip-preview"]);
    for (const org of FLEET) expect(await stage.active(org.token)).toEqual([]);
    expectNoSecretIn(
      [JSON.stringify(state), project.checkpointFile("service-python-fleet", "fleet")],
      stage,
      [HOOKS_TOKEN, ...FLEET.map((org) => org.token)],
    );
  });

  it.each(SECRET_WAYS)(
    "a Python program's secret given by %s and too short is refused at preview and up, and no channel holds it",
    async (way) => {
      const project = await stackOf(stages.current, "python", `short-${way}`, {
        host: HOST,
        domain: "false",
      });
      await expectShortSecretRefused(stages.current, project, way, "secret_key");
    },
  );

  it("a Python program with eleven Webhooks for one organization stops at its 11th Check, with no API call", async () => {
    const stage = stages.current;
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `hook-${i}` }));
    const project = await stackOf(stage, "python", "eleven", {
      host: HOST,
      domain: "false",
      webhooks: eleven,
    });
    const mark = stage.mark();
    for (const command of [["preview"], ["up", "--yes"]]) {
      const stopped = await project.run(command, { allowFailure: true });
      expect(stopped.status, command.join(" ")).not.toBe(0);
      expect(stopped.output).toContain("This program declares 11 Webhooks");
      for (const { name } of eleven) expect(stopped.output).toContain(`"${name}"`);
      expect(stopped.output).toMatch(/Remove 1 of them, or give some a `connection`/);
    }
    expect(stage.callsSince(mark)).toBe(0);
    expect(await stage.active()).toEqual([]);
  });

  it("a Python program at ten is warned at preview that a replacement needs an 11th slot, in Python's spelling", async () => {
    const stage = stages.current;
    const ten = Array.from({ length: 10 }, (_, i) => ({ name: `hook-${i}` }));
    const project = await stackOf(stage, "python", "ten", { host: HOST, domain: "false", webhooks: ten });
    await project.run(["up", "--yes"]);
    const moved = ten.map((h) => (h.name === "hook-3" ? { ...h, channel: "hook-3-v2" } : h));
    await project.config("webhooks", JSON.stringify(moved));
    const preview = await project.run(["preview"]);
    expect(preview.output).toMatch(/warning: Webhook "hook-3" would be replaced \(`channel`/);
    expect(preview.output).toContain("needs an 11th slot");
    expect(preview.output).toContain("delete_before_replace=True");
    // Following the advice: the replacement deletes first, and the organization keeps its ten.
    const careful = moved.map((h) => (h.name === "hook-3" ? { ...h, deleteBeforeReplace: true } : h));
    await project.config("webhooks", JSON.stringify(careful));
    await project.run(["up", "--yes"]);
    await expectOneActivePerResource(stage, [project]);
    expect(await stage.active()).toHaveLength(10);
    await project.run(["destroy", "--yes"]);
  });

  /** Sets the stack's `service:hostOverrides` in the typed spelling, an object, key by key. */
  async function typedHostOverrides(project: PulumiProject, overrides: Record<string, string>) {
    await project.run(["config", "rm", "service:hostOverrides"]);
    for (const [host, origin] of Object.entries(overrides)) {
      await project.run(["config", "set", "--path", `service:hostOverrides["${host}"]`, origin]);
    }
  }

  /** The deprecation warnings of the provider's settings in `output`. */
  const oldSpellings = (output: string) =>
    output.match(/was given as a string, as the schema typed it before/g) ?? [];

  it("a Python program's explicit Provider takes the typed settings (a number, a dict) silently, and the old strings with one warning each", async () => {
    const stage = stages.current;
    for (const spelling of ["typed", "strings"] as const) {
      const project = await stackOf(stage, "python", `provider-${spelling}`, {
        host: HOST,
        domain: "false",
        providerSpelling: spelling,
      });
      if (spelling === "typed") await typedHostOverrides(project, { [HOST]: stage.originUrl });
      const up = await project.run(["up", "--yes", "--skip-preview"]);
      expect(up.output).toMatch(/\+\s+pulumi:providers:service\s+explicit\s+created/);
      // The engine shows each warning on the provider, once, in the update's Diagnostics.
      const shown = diagnosticsOf(up.output).get("pulumi:providers:service (explicit)") ?? [];
      if (spelling === "typed") {
        expect(oldSpellings(up.output)).toEqual([]);
      } else {
        // The engine delivers the two in either order.
        expect(shown).toHaveLength(2);
        expect(shown).toEqual(
          expect.arrayContaining([
            expect.stringMatching(
              /^warning: The provider's `host_overrides` .*give `host_overrides` an object/s,
            ),
            expect.stringMatching(
              /^warning: The provider's `retry_budget_seconds` .*give `retry_budget_seconds` a number \(30, not "30"\)/s,
            ),
          ]),
        );
      }
      await expectOneActivePerResource(stage, [project]);
      await project.run(["destroy", "--yes", "--skip-preview"]);
      expect(await stage.active()).toEqual([]);
    }
  });

  it("a YAML program does the same", async () => {
    const stage = stages.current;
    const project = await stackOf(stage, "yaml", "yaml");
    await lifecycle(stage, project, 2);
    expectNoSecretIn([project.checkpointFile("service-yaml", "yaml")], stage);
  });

  it("a Go program compiles against the generated SDK and previews, with no API call but the Domain's one listing", async () => {
    const stage = stages.current;
    const project = await stackOf(stage, "go", "go");
    const mark = stage.mark();
    const preview = await project.run(["preview"]);
    expect(preview.output).toMatch(/\+\s+service:index:Domain\s+hooks\s+create/);
    expect(preview.output).toMatch(/\+\s+service:index:Webhook\s+orders\s+create/);
    expectOnlyTheDomainsListing(stage, mark);
  });

  it("a Go program's explicit Provider takes the typed settings (a float64, a map, an enum) and previews, with no API call but the Domain's one listing", async () => {
    const stage = stages.current;
    const project = await stackOf(stage, "go", "go-provider", { explicitProvider: "true" });
    await typedHostOverrides(project, { [HOST]: stage.originUrl, [DOMAIN_HOST]: stage.originUrl });
    const mark = stage.mark();
    const preview = await project.run(["preview"]);
    expect(preview.output).toMatch(/\+\s+pulumi:providers:service\s+explicit\s+create/);
    expect(preview.output).toMatch(/\+\s+service:index:Webhook\s+orders\s+create/);
    expect(oldSpellings(preview.output)).toEqual([]);
    expectOnlyTheDomainsListing(stage, mark);
  });

  it("a Python project reports the plugin its installed SDK needs, with its version, to pulumi install", async () => {
    // The same program without the plugins entry in Pulumi.yaml: the engine must learn of the plugin from
    // the SDK's pulumi-plugin.json, and with no release to download it from, says which one it looked for
    // and where (the server the SDK names).
    const dir = join(consumer.dir, "python-unlisted");
    mkdirSync(dir);
    cpSync(join(dirs.python, "__main__.py"), join(dir, "__main__.py"));
    writeFileSync(
      join(dir, "Pulumi.yaml"),
      "name: service-python-unlisted\nruntime:\n  name: python\n  options:\n    virtualenv: ../python/venv\n",
    );
    const install = await pulumiProject({ at: dir }).run(["install"], { allowFailure: true });
    expect(install.status).not.toBe(0);
    expect(install.output).toContain(`service-${pluginVersion}`);
    expect(install.output).toContain(`service-pulumi/service-pulumi/releases/tags/v${pluginVersion}`);
  });

  it("pulumi import adopts a webhook made out of band, prints each language's code, and previews clean", async () => {
    const stage = stages.current;
    const uuid = await stage.webhookMadeByHand();
    const project = await stackOf(stage, "python", "imported", { host: HOST, domain: "false" });
    const imported = await project.run(["import", "service:index:Webhook", "orders", uuid, "--yes"]);
    // The code to paste into the program, in the project's language.
    expect(imported.output).toContain("import service_pulumi as service");
    expect(imported.output).toMatch(/orders = service\.Webhook\("orders",\s+channel="orders",/);
    expect(imported.output).toContain("protect=True");
    // The service never returns the secret: the warning says to add it to the program, which has it.
    expect(imported.output).toMatch(
      /secret_key is required: give the key[\s\S]*needs the key it was created with/,
    );
    const [webhook] = webhooksIn(await project.exported());
    expect(webhook?.id).toBe(uuid);

    // The YAML and Go projects print their own language's code for the same webhook; each then forgets it
    // (state delete) so that the Python stack alone manages it.
    for (const [language, code] of [
      ["yaml", /orders:\s+type: service(?::index)?:Webhook\s+properties:\s+channel: orders/],
      [
        "go",
        /service\.NewWebhook\(ctx, "orders", &service\.WebhookArgs\{\s+Channel:\s+pulumi\.String\("orders"\)/,
      ],
    ] as const) {
      const other = await stackOf(stage, language, "imported", { host: HOST });
      const printedCode = await other.run(["import", "service:index:Webhook", "orders", uuid, "--yes"]);
      expect(printedCode.output).toMatch(code);
      const [adopted] = webhooksIn(await other.exported());
      await other.run(["state", "delete", adopted!.urn, "--force", "--yes"]);
    }

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

  it("reports a Webhook that fails to create beside a Python program's Domain once, on the Webhook, and the next up finishes the Domain (regression)", async () => {
    const stage = stages.current;
    // A webhook on the host registered already, created beside the Domain rather than after it.
    const project = await stackOf(stage, "python", "sibling", {
      webhooks: [{ name: "orders", host: HOST, afterDomain: false }],
    });
    // The Domain's Construct is still verifying when the Webhook's create is refused.
    stage.sandbox.addFault({ method: "POST", path: "/v2/domains/finish_registration", delayMs: 3_000 });
    stage.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 400 });
    const failed = await project.run(["up", "--yes"], { allowFailure: true });
    expect(failed.status).not.toBe(0);
    expect(failed.output).not.toMatch(/client connection is closing/);
    expect(failed.output).not.toMatch(STACK_TRACE);
    const diagnostics = diagnosticsOf(failed.output);
    expect([...diagnostics.keys()].sort()).toEqual([
      "pulumi:pulumi:Stack (service-python-sibling)",
      "service:index:Webhook (orders)",
    ]);
    expect(diagnostics.get("service:index:Webhook (orders)")).toEqual([
      expect.stringMatching(/^error: The service refused the webhook .*Nothing was created/),
    ]);
    // The engine v3.274.1 stops the program's resource monitor as soon as the update fails (v3.259.0 let
    // it run on): the Domain's registration, still waiting on its Construct, is answered UNAVAILABLE, which
    // Pulumi's Python SDK reports on the stack in its own words. Nothing of ours is said twice.
    const stackLines = diagnostics.get("pulumi:pulumi:Stack (service-python-sibling)") ?? [];
    expect(stackLines.filter((line) => line !== PYTHON_MONITOR_STOPPED)).toEqual(["error: update failed"]);
    // The engine ends the update on the failure as it happens (the plugin holds none back): the Domain's
    // steps not yet started do not run. The next up, with the fault gone, finishes the Domain.
    await project.run(["up", "--yes"]);
    const verification = (await project.exported()).deployment.resources?.find(
      (r) => r.type === "service:index:DomainVerification",
    );
    expect(verification?.outputs).toMatchObject({ domainName: DOMAIN_HOST, status: "registered" });
    await project.run(["preview", "--expect-no-changes"]);
    await expectOneActivePerResource(stage, [project]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
  });
});
