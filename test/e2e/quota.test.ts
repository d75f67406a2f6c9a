/**
 * The organization's quota of 10 active webhooks under the real engine, with no policy pack: a program
 * with eleven Webhooks for one organization stops at `pulumi preview` with no API call, and `pulumi up`
 * creates none of them, with or without `--skip-preview`; at ten, a replacement created before the old
 * webhook is deleted is stopped at preview, and goes through once the Webhook sets deleteBeforeReplace.
 */
import { expect, it } from "vitest";
import { QUOTA_INPUT } from "../../provider/webhook/quota";
import { describeUnderEngine, webhooksIn } from "../helpers/engine";
import { devStack, expectOneActivePerResource, useStage } from "../helpers/stage";

const hooks = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `hook-${i}`, channel: `channel-${i}` }));
/** A line of a stack trace, as Node prints one. */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

describeUnderEngine("under the real engine, the webhook quota", () => {
  const stages = useStage();

  it("stops eleven Webhooks of one organization at preview, naming them, with no API call; up creates none", async () => {
    const stage = stages.current;
    const project = await devStack(stage, { webhooks: hooks(11) });
    const mark = stage.mark();

    const preview = await project.run(["preview"], { allowFailure: true });
    expect(preview.status).not.toBe(0);
    expect(preview.output).toContain("This program declares 11 Webhooks");
    for (let i = 0; i <= 10; i++) expect(preview.output).toContain(`"hook-${i}"`);
    expect(preview.output).toContain("Remove 1 of them, or give some a `connection`");
    expect(preview.output).not.toMatch(STACK_FRAME);
    expect(preview.output).not.toContain("PromiseRejection");
    // The one error, once: in the progress and again under Diagnostics, as the engine prints any error.
    expect(preview.output.split("This program declares 11 Webhooks").length - 1).toBeLessThanOrEqual(2);
    expect(stage.callsSince(mark)).toBe(0);

    for (const up of [
      ["up", "--yes"],
      ["up", "--yes", "--skip-preview"],
    ]) {
      const failed = await project.run(up, { allowFailure: true });
      expect(failed.status, up.join(" ")).not.toBe(0);
      expect(failed.output).toContain("None of them was created.");
      expect(failed.output).not.toContain("PromiseRejection");
    }
    expect(stage.callsSince(mark)).toBe(0);
    expect(await stage.active()).toEqual([]);
  });

  it("stops a create-before-delete replacement at ten at preview, and replaces with deleteBeforeReplace", async () => {
    const stage = stages.current;
    const ten = hooks(10);
    const project = await devStack(stage, { webhooks: ten });
    await project.run(["up", "--yes"]);
    const before = webhooksIn(await project.exported());
    expect(await stage.active()).toHaveLength(10);
    // What the program told each check at ten is never kept, and changes nothing.
    for (const r of before) expect({ ...r.inputs, ...r.outputs }).not.toHaveProperty(QUOTA_INPUT);
    const unchanged = stage.mark();
    await project.run(["preview", "--expect-no-changes"]);
    expect(stage.callsSince(unchanged)).toBe(0);

    const moved = ten.map((h) => (h.name === "hook-3" ? { ...h, channel: "channel-3-v2" } : h));
    await project.config("webhooks", JSON.stringify(moved));
    const mark = stage.mark();
    const preview = await project.run(["preview"], { allowFailure: true });
    expect(preview.status).not.toBe(0);
    expect(preview.output).toContain("resource 'hook-3'");
    expect(preview.output).toContain("This Webhook would be replaced (`channel` changed)");
    expect(preview.output).toContain("needs an 11th slot");
    expect(preview.output).toContain("`deleteBeforeReplace: true`");
    expect(preview.output).not.toMatch(STACK_FRAME);
    const up = await project.run(["up", "--yes"], { allowFailure: true });
    expect(up.status).not.toBe(0);
    expect(stage.callsSince(mark)).toBe(0);

    const careful = moved.map((h) => (h.name === "hook-3" ? { ...h, deleteBeforeReplace: true } : h));
    await project.config("webhooks", JSON.stringify(careful));
    await project.run(["preview"]);
    await project.run(["up", "--yes"]);
    const after = webhooksIn(await project.exported());
    const uuidOf = (resources: typeof before, name: string) =>
      resources.find((r) => r.urn.endsWith(`::${name}`))?.outputs?.webhookUuid;
    expect(uuidOf(after, "hook-3")).not.toBe(uuidOf(before, "hook-3"));
    expect(uuidOf(after, "hook-4")).toBe(uuidOf(before, "hook-4"));
    await expectOneActivePerResource(stage, [project]);
    await project.run(["destroy", "--yes"]);
    expect(await stage.active()).toEqual([]);
  });
});
