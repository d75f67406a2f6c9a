/**
 * The stored provider's contract under the real engine, from a packed install: a stack whose package was
 * removed before its resources were deleted gets the one sentence the stored text carries, once per
 * resource, never Node's "Cannot find module"; once the package is back, destroy works. Regression: every
 * Delete failed with `Cannot find module '@service/pulumi/runtime'` and nothing said what to do.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CONTRACT, contractNeededMessage } from "../../provider/resource-kit/contract";
import { type Consumer, createConsumer } from "../helpers/consumer";
import { describeUnderEngine, diagnosticsOf, PROGRAM_DIR } from "../helpers/engine";
import { devStack, expectNoSecretIn, type Stage, startStage } from "../helpers/stage";

const root = join(__dirname, "../..");
const NEEDED = contractNeededMessage(CONTRACT)!;

/** Runs npm in the consumer project, quietly and offline where it can. */
function npm(consumer: Consumer, args: readonly string[]): void {
  execFileSync(
    "npm",
    [...args, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
    {
      cwd: consumer.dir,
      stdio: "pipe",
    },
  );
}

describeUnderEngine("a stack whose package is uninstalled before its resources are deleted", () => {
  let consumer: Consumer;
  let stage: Stage;
  beforeAll(async () => {
    consumer = createConsumer(root);
    for (const file of ["Pulumi.yaml", "index.js"]) cpSync(join(PROGRAM_DIR, file), join(consumer.dir, file));
    stage = await startStage();
    await stage.registerHost();
  }, 240_000);
  afterAll(async () => {
    await stage?.close();
    if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
  });

  it("fails each Delete with the sentence, once per resource, and destroys once the package is back", async () => {
    const project = await devStack(
      stage,
      { webhooks: [{ name: "orders" }, { name: "refunds" }] },
      { at: consumer.dir },
    );
    await project.run(["up", "--yes"]);
    expect(await stage.active()).toHaveLength(2);

    const manifest = JSON.parse(readFileSync(join(consumer.dir, "package.json"), "utf8"));
    const tarball: string = manifest.dependencies["@service/pulumi"];
    npm(consumer, ["uninstall", "@service/pulumi"]);
    const refused = await project.run(["destroy", "--yes"], { allowFailure: true });
    expect(refused.status).not.toBe(0);
    expect(refused.output).not.toContain("Cannot find module");
    const diagnostics = diagnosticsOf(refused.output);
    for (const name of ["orders", "refunds"]) {
      const messages = diagnostics.get(`pulumi-nodejs:dynamic/service:Webhook (${name})`) ?? [];
      expect(
        messages.filter((message) => message.includes(NEEDED)),
        refused.output,
      ).toHaveLength(1);
    }
    // The dynamic-provider host also prints each failed Delete on its stderr, which the engine shows on
    // the stack: that echo, one per resource, is the only other place the sentence appears.
    const echoed = diagnostics.get("pulumi:pulumi:Stack (service-e2e-dev)") ?? [];
    expect(echoed.filter((message) => message.includes(NEEDED))).toHaveLength(2);
    expect(await stage.active()).toHaveLength(2);
    // The token and the webhooks' secrets, given in the program's config, are in nothing printed or stored.
    expectNoSecretIn([JSON.stringify(await project.exported())], stage);

    npm(consumer, ["install", tarball]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
  });
});
