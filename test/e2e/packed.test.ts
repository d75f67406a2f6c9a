/**
 * The way a platform team's infra repo uses the package before it is published: `npm install` of the
 * `npm pack` tarball in a new folder outside this repository, a program of its own, and the real Pulumi CLI.
 * Here every module the stored provider requires resolves through the package's `exports`, as in a user's
 * install, and the policy pack runs from node_modules/@service/pulumi/policy-pack.
 */
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Consumer, createConsumer } from "../helpers/consumer";
import { describeUnderEngine, PROGRAM_DIR } from "../helpers/engine";
import {
  devStack,
  expectNoSecretIn,
  expectOneActivePerResource,
  type Stage,
  startStage,
} from "../helpers/stage";

const root = join(__dirname, "../..");
describeUnderEngine("a packed install in a new folder, under the real engine", () => {
  let consumer: Consumer;
  let stage: Stage;
  beforeAll(async () => {
    // Installed before the sandbox starts: npm runs synchronously here.
    const policy = JSON.parse(readFileSync(join(root, "node_modules/@pulumi/policy/package.json"), "utf8"));
    consumer = createConsumer(root, { dependencies: { "@pulumi/policy": policy.version } });
    for (const file of ["Pulumi.yaml", "index.js"]) cpSync(join(PROGRAM_DIR, file), join(consumer.dir, file));
    stage = await startStage();
  }, 240_000);
  afterAll(async () => {
    await stage?.close();
    if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
  });

  it("goes up with a Domain and two webhooks, previews clean under the shipped policy, and is destroyed", async () => {
    const project = await devStack(
      stage,
      {
        domain: "true",
        webhooks: [
          { name: "authentications", kind: "authentication" },
          { name: "fingerprints", kind: "fingerprint" },
        ],
      },
      { at: consumer.dir },
    );
    await project.run(["up", "--yes"]);
    await expectOneActivePerResource(stage, [project]);

    const mark = stage.mark();
    const preview = await project.run([
      "preview",
      "--expect-no-changes",
      "--policy-pack",
      "node_modules/@service/pulumi/policy-pack",
    ]);
    expect(preview.output).toMatch(/Policies:[\s\S]*service-pulumi/);
    expect(stage.callsSince(mark)).toBe(0);

    await project.run(["refresh", "--yes", "--skip-preview"]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
    expectNoSecretIn([project.checkpointFile("service-e2e", "dev")], stage);
  });
});
