/**
 * Issue 42, item 3, under the real engine: `pulumi preview --diff` shows what changes, and only that, for a
 * Webhook through the provider plugin from a packed install. A channel change shows `channel`; a secret
 * rotation shows `secretKey` as `[secret]`, once; a token change shows where the credentials come from, in
 * words. None shows the hashes state keeps, and no secret is printed or stored in plain text.
 *
 * Through the dynamic provider it does not hold with Pulumi as released, and the test says so (`it.fails`,
 * which fails once it passes): the dynamic-provider host drops the detailed diff a provider answers, so the
 * engine shows its old outputs against the new inputs, and the package changes nothing in that shared
 * host to carry it. It holds with docs/upstream/pulumi-nodejs-detailed-diff.patch put into the host.
 */
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Consumer, createConsumer } from "../helpers/consumer";
import { describeUnderEngine, PROGRAM_DIR, type PulumiProject } from "../helpers/engine";
import { HOOKS_TOKEN, ROTATED_TOKEN, SECRET } from "../helpers/fixtures";
import { devStack, expectNoSecretIn, type Stage, useStage } from "../helpers/stage";
import { applyDetailedDiffPatch } from "../helpers/upstream-patch";

const ROTATED_SECRET = `${SECRET}-rotated`;
const TOKENS = [HOOKS_TOKEN, ROTATED_TOKEN, ROTATED_SECRET];

/** The property lines `preview --diff` prints under the Webhook: `~ channel`, `+ secretKey`, ... */
function propertyLines(output: string): string[] {
  const lines = output.split("\n");
  const start = lines.findIndex((line) => /Webhook: \((replace|update)\)/.test(line));
  expect(start, output).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, i) => i > start && /--outputs:--|^Resources:/.test(line));
  return lines
    .slice(start + 1, end)
    .filter((line) => /^\s+[~+-] \w/.test(line))
    .map((line) => line.trim());
}

/** The three previews of a stack that is up with one Webhook "orders" on channel "orders". */
async function expectPreviewsSayWhatChanges(
  stage: Stage,
  project: PulumiProject,
  name: string,
  stack: string,
) {
  await project.run(["up", "--yes", "--skip-preview"]);

  await project.config("webhooks", JSON.stringify([{ name: "orders", channel: "orders-eu" }]));
  const channel = await project.run(["preview", "--diff"]);
  expect(propertyLines(channel.output)).toEqual([`~ channel: "orders" => "orders-eu"`]);
  expect(channel.output).toMatch(/\+-1 to replace/);
  await project.config("webhooks", JSON.stringify([{ name: "orders", channel: "orders" }]));

  await project.config("webhookSecret", ROTATED_SECRET, true);
  const rotation = await project.run(["preview", "--diff"]);
  expect(propertyLines(rotation.output)).toEqual(["+ secretKey: [secret]"]);
  expect(rotation.output.match(/\[secret\]/g)).toHaveLength(1);
  await project.config("webhookSecret", SECRET, true);

  await project.config("service:token", ROTATED_TOKEN, true);
  const token = await project.run(["preview", "--diff"]);
  const lines = propertyLines(token.output);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^~ credentials: .*token from service:token \(stack configuration\)/);
  expect(token.output).toMatch(/~ 1 to update/);
  expect(token.output).toContain(stage.sandbox.url);

  for (const preview of [channel, rotation, token]) {
    expect(preview.output).not.toMatch(/secretKeyHash|credentialsHash/);
  }
  await project.run(["destroy", "--yes", "--skip-preview"]);
  expectNoSecretIn([project.checkpointFile(name, stack)], stage, TOKENS);
}

describeUnderEngine("under the real engine, preview --diff of a Webhook", () => {
  const stages = useStage(TOKENS);

  it.fails("through the dynamic provider shows a channel change, a rotation and a token change, and only them", async () => {
    const project = await devStack(stages.current, { webhooks: [{ name: "orders" }] }, { stack: "dynamic" });
    await expectPreviewsSayWhatChanges(stages.current, project, "service-e2e", "dynamic");
  });

  describe("through the provider plugin, from a packed install", () => {
    let consumer: Consumer;
    beforeAll(() => {
      consumer = createConsumer(join(__dirname, "../.."));
      for (const file of ["Pulumi.yaml", "index.ts", "tsconfig.json"]) {
        cpSync(join(__dirname, "plugin-program", file), join(consumer.dir, file));
      }
    }, 240_000);
    afterAll(() => {
      if (consumer) rmSync(consumer.dir, { recursive: true, force: true });
    });

    it("shows a channel change, a rotation and a token change, and only them", async () => {
      const project = await devStack(
        stages.current,
        { webhooks: [{ name: "orders" }] },
        { at: consumer.dir, stack: "plugin" },
      );
      await expectPreviewsSayWhatChanges(stages.current, project, "service-plugin-e2e", "plugin");
    });

    // After the plugin's test: this changes the install's @pulumi/pulumi, which the plugin does not use.
    it("through the dynamic provider, with Pulumi's host patched to carry the detailed diff, shows them and only them", async () => {
      applyDetailedDiffPatch(join(consumer.dir, "node_modules/@pulumi/pulumi"));
      const program = join(consumer.dir, "dynamic");
      cpSync(PROGRAM_DIR, program, { recursive: true });
      const project = await devStack(
        stages.current,
        { webhooks: [{ name: "orders" }] },
        { at: program, stack: "patched" },
      );
      await expectPreviewsSayWhatChanges(stages.current, project, "service-e2e", "patched");
    });
  });
});
