/**
 * `service-pulumi review`, from a packed install, on the JSON of the real engine's `pulumi preview --json
 * --show-sames` against the sandbox: a change of channel, of filters, an added and a removed webhook and
 * a deleteBeforeReplace replace in one stack beside an unchanged second stack; a change of secret; a Domain
 * change; a stack at 10 of 10 with a replace; and --live, which lists the organization once and names the
 * webhook none of the stacks knows of. Each report is asserted line by line; no output holds a secret.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeUnderEngine, type PulumiProject } from "../helpers/engine";
import { EXAMPLES_HOST, HOOKS_TOKEN, HOST } from "../helpers/fixtures";
import { packedInstall, servicePulumi } from "../helpers/service-pulumi";
import { devStack, useStage } from "../helpers/stage";

const ROTATED = "whsec-rotated-for-review-5c6d7e8f9a";
const HOOK = `https://${HOST}/service/events`;
/** The review's line for a replace that creates first, with the same secret and with a new one. */
const OVERLAP =
  "  - Overlap: the new webhook is created before the old one is deleted, so both deliver for a moment: the receiver may see a delivery twice (deduplicate by update_counter).";
const OVERLAP_NEW_SECRET =
  "  - Overlap: the new webhook is created before the old one is deleted, so both deliver for a moment, each signed with its own secret: the receiver needs both secrets and its update_counter guard.";
/** The review's line for a replace whose secret stays the same. */
const NOT_A_ROTATION =
  "  - Not a rotation: the secret stays the same, so the receiver needs no other secret.";
const FROM_STACKS =
  "Counted from the stacks in this report; webhooks they do not hold are not counted (add --live to list them).";

describeUnderEngine("service-pulumi review under the real engine, from a packed install", () => {
  let installed: string;
  const previews = mkdtempSync(join(tmpdir(), "review-previews-"));
  // Installed before the sandbox starts (useStage): npm runs synchronously here.
  beforeAll(() => {
    installed = packedInstall();
  }, 240_000);
  afterAll(() => {
    rmSync(previews, { recursive: true, force: true });
  });
  const stages = useStage([HOOKS_TOKEN, ROTATED]);

  /** `pulumi preview --json [--show-sames]` of the project's stack, written to a file: its path. */
  async function preview(project: PulumiProject, name: string, sames = true): Promise<string> {
    const run = await project.run(["preview", "--json", ...(sames ? ["--show-sames"] : [])]);
    const path = join(previews, `${name}.json`);
    writeFileSync(path, run.stdout);
    return path;
  }
  const review = (project: PulumiProject, args: readonly string[]) =>
    servicePulumi(installed, ["review", ...args], { cwd: project.dir, env: project.env });

  it("reports two stacks of one organization: channel, filters, added, removed, deleteBeforeReplace; --live names an unknown webhook", async () => {
    const stage = stages.current;
    const dev = await devStack(stage, {
      webhooks: [
        { name: "orders" },
        { name: "prints", kind: "fingerprint" },
        { name: "gone" },
        { name: "careful", channel: "c1", deleteBeforeReplace: true },
      ],
    });
    await dev.run(["up", "--yes"]);
    // A second stack of the same project folder and backend, as in one infra repo.
    const staging = await devStack(stage, {}, { at: dev.dir, backend: dev.backend, stack: "staging" });
    await staging.run(["up", "--yes"]);
    await dev.config(
      "webhooks",
      JSON.stringify([
        { name: "orders", channel: "orders-v2" },
        { name: "prints", kind: "fingerprint", formFactors: ["lightbox"] },
        { name: "careful", channel: "c2", deleteBeforeReplace: true },
        { name: "added", kind: "fingerprint" },
      ]),
    );
    const devPreview = await preview(dev, "dev");
    const stagingPreview = await preview(staging, "staging");

    const report = await review(dev, [devPreview, stagingPreview]);
    expect(report.stderr).toBe("");
    expect(report.status).toBe(0);
    const quota =
      "**Quota:** 5 of 10 webhooks after the change (5 left); up to 8 of 10 while the update runs.";
    expect(report.stdout.split("\n")).toEqual([
      "# Webhook and Domain review",
      "",
      "## Organization `acme`",
      "",
      `${quota} ${FROM_STACKS}`,
      "",
      "### `service-e2e/dev`",
      "",
      "- **Replace** Webhook `careful`, forced by `channel` (delete-before-replace)",
      `  - \`${HOOK}\` stops receiving \`authentication\` records on channel \`c1\`.`,
      `  - \`${HOOK}\` starts receiving \`authentication\` records on channel \`c2\`.`,
      `  - Gap: the old webhook is deleted first (deleteBeforeReplace), so \`${HOOK}\` receives no \`authentication\` records on channel \`c1\` until the new webhook is created.`,
      NOT_A_ROTATION,
      "- **Replace** Webhook `orders`, forced by `channel` (create-before-delete)",
      `  - \`${HOOK}\` stops receiving \`authentication\` records on channel \`orders\`.`,
      `  - \`${HOOK}\` starts receiving \`authentication\` records on channel \`orders-v2\`.`,
      OVERLAP,
      NOT_A_ROTATION,
      "- **Replace** Webhook `prints`, forced by `filters` (create-before-delete)",
      `  - \`${HOOK}\` stops receiving \`fingerprint\` records on channel \`prints\`.`,
      `  - \`${HOOK}\` starts receiving \`fingerprint\` records of form factor \`lightbox\` on channel \`prints\`.`,
      OVERLAP,
      NOT_A_ROTATION,
      "- **Delete** Webhook `gone`",
      `  - \`${HOOK}\` stops receiving \`authentication\` records on channel \`gone\`.`,
      "- **Create** Webhook `added`",
      `  - \`${HOOK}\` starts receiving \`fingerprint\` records on channel \`added\`.`,
      "- Unchanged: 0 Webhooks, 0 Domains.",
      "",
      "### `service-e2e/staging`",
      "",
      "- No Webhook or Domain changes.",
      "- Unchanged: 1 Webhook, 0 Domains.",
      "",
    ]);

    // Without --show-sames the unchanged resources are missing: the report says so rather than guess.
    const partial = await review(dev, [await preview(staging, "staging-partial", false)]);
    expect(partial.stdout).toContain(
      "**Quota:** not known: the preview of `service-e2e/staging` was made without `--show-sames`, so its unchanged webhooks are missing: run `pulumi preview --json --show-sames`, or add `--live` to count the organization's webhooks.",
    );
    expect(partial.stdout).toContain("- Unchanged: not known (the preview was made without `--show-sames`).");

    // --live: one listing of the organization, with the token read from the stacks' config (the preview
    // masks it); the webhook made by hand counts, and is named.
    const byHand = await stage.webhookMadeByHand();
    const mark = stage.mark();
    const live = await review(dev, ["--live", "--stacks", "dev,staging", devPreview, stagingPreview]);
    expect(live.stderr).toBe("");
    expect(stage.callsSince(mark, "/v2/search/webhooks")).toBe(1);
    const lines = live.stdout.split("\n");
    expect(lines.slice(4, 9)).toEqual([
      "**Quota:** 6 of 10 webhooks after the change (4 left); up to 9 of 10 while the update runs. Counted from a listing of the organization's active webhooks (--live).",
      "",
      "Active webhooks that none of these stacks knows of (1):",
      `- \`${byHand}\`: \`${HOOK}\`, \`authentication\` records on channel \`orders\``,
      "",
    ]);
    expect(lines.slice(9)).toEqual(report.stdout.split("\n").slice(6));

    const json = JSON.parse((await review(dev, ["--format", "json", devPreview, stagingPreview])).stdout);
    expect(json.organizations[0].quota).toEqual({
      limit: 10,
      source: "stacks",
      after: 5,
      peak: 8,
      unknownToStacks: [],
      missing: null,
    });
    expect(json.organizations[0].stacks.map((s: { stack: string }) => s.stack)).toEqual([
      "service-e2e/dev",
      "service-e2e/staging",
    ]);
  });

  it("reports a change of secret, then a Domain change", async () => {
    const stage = stages.current;
    const first = "other.acme.test";
    const project = await devStack(
      stage,
      {
        host: first,
        "service:hostOverrides": { [first]: stage.originUrl, [EXAMPLES_HOST]: stage.originUrl },
        domain: "true",
      },
      { stack: "domains" },
    );
    await project.run(["up", "--yes"]);
    await project.config("webhookSecret", ROTATED, true);
    const rotated = await review(project, [await preview(project, "rotated")]);
    expect(rotated.stdout.split("\n").slice(6)).toEqual([
      "### `service-e2e/domains`",
      "",
      "- **Replace** Webhook `orders`, forced by `secretKey` (create-before-delete)",
      `  - \`https://${first}/service/events\` keeps receiving \`authentication\` records on channel \`orders\`, signed with the new secret.`,
      OVERLAP_NEW_SECRET,
      `  - Rotation step one: before the merge, the receiver at \`https://${first}/service/events\` must hold the secret webhook \`orders\` signs with now and its new one (no SecretRotation names them: see docs/receiver.md). Drop the old secret in a later update (step two), once the old webhook's retries have stopped.`,
      "- Unchanged: 0 Webhooks, 1 Domain.",
      "",
    ]);

    await project.run(["config", "rm", "webhookSecret"]);
    await project.config("webhookSecret", "whsec-planted-secret-7f3a9c2e1b", true);
    await project.config("host", EXAMPLES_HOST);
    const moved = await review(project, [await preview(project, "moved")]);
    const lines = moved.stdout.split("\n");
    expect(lines[4]).toBe(
      `**Quota:** 1 of 10 webhooks after the change (9 left); up to 2 of 10 while the update runs. ${FROM_STACKS}`,
    );
    expect(lines.slice(8)).toEqual([
      expect.stringMatching(
        /^- \*\*Replace\*\* Domain `hooks`, forced by (`verifier`, `domainName`|`domainName`, `verifier`) \(create-before-delete\)$/,
      ),
      `  - \`${EXAMPLES_HOST}\` is registered before \`${first}\` is deactivated; webhooks on \`https://${first}/\` must move first (the service refuses to deactivate a domain an active webhook targets).`,
      "- **Replace** Webhook `orders`, forced by `endpoint` (create-before-delete)",
      `  - \`https://${first}/service/events\` stops receiving \`authentication\` records on channel \`orders\`.`,
      `  - \`https://${EXAMPLES_HOST}/service/events\` starts receiving \`authentication\` records on channel \`orders\`.`,
      OVERLAP,
      NOT_A_ROTATION,
      "- Unchanged: 0 Webhooks, 0 Domains.",
      "",
    ]);
  });

  it("reports a stack at 10 of 10 whose replace deletes first, from the stacks and --live", async () => {
    const stage = stages.current;
    const hooks = Array.from({ length: 10 }, (_, i) => ({ name: `hook-${i}`, channel: `channel-${i}` }));
    const project = await devStack(stage, { webhooks: hooks }, { stack: "full" });
    await project.run(["up", "--yes"]);
    await project.config(
      "webhooks",
      JSON.stringify(
        hooks.map((h) =>
          h.name === "hook-3" ? { ...h, channel: "channel-3-v2", deleteBeforeReplace: true } : h,
        ),
      ),
    );
    const file = await preview(project, "full");
    const expected = [
      "### `service-e2e/full`",
      "",
      "- **Replace** Webhook `hook-3`, forced by `channel` (delete-before-replace)",
      `  - \`${HOOK}\` stops receiving \`authentication\` records on channel \`channel-3\`.`,
      `  - \`${HOOK}\` starts receiving \`authentication\` records on channel \`channel-3-v2\`.`,
      `  - Gap: the old webhook is deleted first (deleteBeforeReplace), so \`${HOOK}\` receives no \`authentication\` records on channel \`channel-3\` until the new webhook is created.`,
      NOT_A_ROTATION,
      "- Unchanged: 9 Webhooks, 0 Domains.",
      "",
    ];
    const report = (await review(project, [file])).stdout.split("\n");
    expect(report[4]).toBe(
      `**Quota:** 10 of 10 webhooks after the change (0 left); up to 10 of 10 while the update runs. ${FROM_STACKS}`,
    );
    expect(report.slice(6)).toEqual(expected);
    const mark = stage.mark();
    const live = (await review(project, ["--live", "--stacks", "full", file])).stdout.split("\n");
    expect(stage.callsSince(mark)).toBe(1);
    expect(live[4]).toBe(
      "**Quota:** 10 of 10 webhooks after the change (0 left); up to 10 of 10 while the update runs. Counted from a listing of the organization's active webhooks (--live).",
    );
    expect(live.slice(6)).toEqual(expected);
  });
});
