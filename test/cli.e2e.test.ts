import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../sandbox/index";
import { startDirectoryOrigin } from "./helpers/directory-origin";
import { HOOKS_TOKEN, HOST, SECRET, testSeed } from "./helpers/fixtures";
import { plainApi } from "./helpers/http";
import { localStack, PULUMI_MISSING_REASON, PULUMI_SKIP_REASON, pulumiCliGate } from "./helpers/pulumi-cli";
import { registerDomain, startWorld, type World } from "./helpers/world";

const { cli, missingButRequired, skipped } = pulumiCliGate();
if (skipped) console.warn(PULUMI_SKIP_REASON);

// Where the CLI must be present (SERVICE_REQUIRE_PULUMI_CLI=1, as in the GitHub workflow), its absence is
// a failure, not a skip: otherwise a broken install step would turn every run green without testing.
describe.runIf(missingButRequired)("the Pulumi CLI", () => {
  it("is on PATH", () => {
    throw new Error(PULUMI_MISSING_REASON);
  });
});

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
    const stack = localStack(
      { dir: join(__dirname, "e2e/webhook-program"), files: ["Pulumi.yaml", "index.js"] },
      { SERVICE_RATE_LIMIT: "0" },
    );
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
    stack.run("preview", "--expect-no-changes");

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

describe.skipIf(!cli)("with the Pulumi CLI, a Domain published with directoryPublisher", () => {
  it("is brought up, refreshed and destroyed against the sandbox", async () => {
    const files = mkdtempSync(join(tmpdir(), "verification-files-"));
    const origin = await startDirectoryOrigin(files);
    const sandbox = await startSandbox({ seed: testSeed(origin.url) });
    try {
      const stack = localStack(
        { dir: join(__dirname, "e2e/domain-program"), files: ["Pulumi.yaml", "index.js"] },
        { SERVICE_RATE_LIMIT: "0" },
      );
      stack.run("stack", "init", "dev");
      stack.run("config", "set", "--secret", "service:token", HOOKS_TOKEN);
      stack.run("config", "set", "service:baseUrl", sandbox.url);
      stack.run("config", "set", "service:hostOverrides", JSON.stringify({ [HOST]: origin.url }));
      stack.run("config", "set", "host", HOST);
      stack.run("config", "set", "filesDir", files);
      stack.run("up", "--yes");
      const api = plainApi(sandbox.url, { token: HOOKS_TOKEN });
      expect((await api("POST", "/v2/search/domains", { body: {} })).json.items).toHaveLength(1);
      stack.run("refresh", "--yes");
      stack.run("preview", "--expect-no-changes");
      const exported = stack.run("stack", "export");
      expect(exported).not.toContain(HOOKS_TOKEN);
      stack.run("destroy", "--yes");
      expect((await api("POST", "/v2/search/domains", { body: {} })).json.items).toHaveLength(0);
    } finally {
      await sandbox.close();
      await origin.close();
    }
  }, 300_000);
});

describe.skipIf(!cli)("with the Pulumi CLI, the quickstart", () => {
  it("goes through up, a preview with no changes, and destroy", async () => {
    const root = join(__dirname, "..");
    const files = mkdtempSync(join(tmpdir(), "quickstart-files-"));
    const origin = await startDirectoryOrigin(files);
    const seed = JSON.parse(readFileSync(join(root, "quickstart/sandbox-seed.json"), "utf8"));
    const sandbox = await startSandbox({ seed: { ...seed, hosts: { "hooks.quickstart.test": origin.url } } });
    try {
      // The project file and the program, exactly as `pulumi up` runs them from a clone.
      const stack = localStack({ dir: root, files: ["Pulumi.yaml", "quickstart/index.mts"] });
      stack.run("stack", "init", "e2e");
      stack.run("config", "set", "service:token", "quickstart-token");
      stack.run("config", "set", "service:baseUrl", sandbox.url);
      stack.run(
        "config",
        "set",
        "service:hostOverrides",
        JSON.stringify({ "hooks.quickstart.test": origin.url }),
      );
      stack.run("config", "set", "quickstart:hostname", "hooks.quickstart.test");
      stack.run("config", "set", "--secret", "quickstart:webhookSecret", "quickstart-webhook-secret-0001");
      stack.run("config", "set", "quickstart:filesDir", files);
      stack.run("up", "--yes");
      stack.run("preview", "--expect-no-changes");
      const api = plainApi(sandbox.url, { token: "quickstart-token" });
      expect((await api("POST", "/v2/search/webhooks", { body: {} })).json.items).toHaveLength(2);
      stack.run("destroy", "--yes");
      expect((await api("POST", "/v2/search/webhooks", { body: {} })).json.items).toHaveLength(0);
      expect((await api("POST", "/v2/search/domains", { body: {} })).json.items).toHaveLength(0);
    } finally {
      await sandbox.close();
      await origin.close();
    }
  }, 300_000);
});
