/**
 * Issue 27, under the real engine: a secret the program gives is never printed back, whichever way it is
 * given (config --secret, pulumi.secret(…), a plain string), through the dynamic Webhook. A check failure
 * on the secret names the field and the rule, never the value (the engine prints a failure's property with
 * its value in plain text), and a rotated plain-string secret shows as [secret] in `preview --diff`.
 */
import { expect, it } from "vitest";
import { describeUnderEngine } from "../helpers/engine";
import {
  everyChannel,
  expectNoneHolds,
  expectShortSecretRefused,
  giveSecret,
  SECRET_WAYS,
} from "../helpers/secret-channels";
import { devStack, expectNoSecretIn, useStage } from "../helpers/stage";

describeUnderEngine("under the real engine, a secret given in the program", () => {
  const stages = useStage();

  it.each(SECRET_WAYS)(
    "given by %s and too short, fails preview and up naming the rule, and no channel holds it",
    async (way) => {
      const project = await devStack(stages.current, {}, { stack: `short-${way}` });
      await expectShortSecretRefused(stages.current, project, way, "secretKey");
    },
  );

  it("given as a plain string and rotated, shows as [secret] in preview --diff, and nothing stores it", async () => {
    const first = "plain-secret-first-4b8d2f6a9c1e";
    const second = "plain-secret-second-7e1c3a5b9d2f";
    const project = await devStack(stages.current, {}, { stack: "rotated" });
    await giveSecret(project, "plain", first);
    const up = await everyChannel(project, ["up", "--yes", "--skip-preview"]);
    expect(up.first.status).toBe(0);

    await giveSecret(project, "plain", second);
    const diff = await everyChannel(project, ["preview", "--diff"]);
    expect(diff.first.output).toMatch(/\+ secretKey\s*: \[secret\]/);
    const rotated = await everyChannel(project, ["up", "--yes", "--skip-preview"]);
    const destroyed = await everyChannel(project, ["destroy", "--yes", "--skip-preview"]);
    const stored = [
      JSON.stringify(await project.exported()),
      project.checkpointFile("service-e2e", "rotated"),
    ];
    expectNoneHolds(
      [...up.channels, ...diff.channels, ...rotated.channels, ...destroyed.channels, ...stored],
      [first, second],
    );
    expectNoSecretIn(stored, stages.current);
  });
});
