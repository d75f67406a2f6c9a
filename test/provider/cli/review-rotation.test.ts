/**
 * What `service-pulumi review` says of a secret rotation: the step a change is at (one, two, or not a
 * rotation), what the receiver must hold before the merge (by fingerprint, never the secret), a step two
 * in the same update as the replace, and a deleteBeforeReplace gap; a hostile rotation record prints
 * nothing of itself but its name, as a code span.
 */
import { describe, expect, it } from "vitest";
import { secretFingerprint } from "../../../provider/receiver/index";
import { runCli } from "../../helpers/cli-io";
import {
  HOOK,
  PLANTED,
  previewFile,
  replace,
  rotationStep,
  same,
  stackStep,
  uuid,
} from "../../helpers/preview-steps";

const NEW = "whsec-new-secret-for-review-7a8b9c";
const OLD = "whsec-old-secret-for-review-0d1e2f";
const [FRESH, STALE] = [secretFingerprint(NEW), secretFingerprint(OLD)];
const STEP_ONE_BY_ROTATION = `  - Rotation step one: before the merge, the receiver at \`${HOOK}\` must hold \`${FRESH}\` (the new secret) and \`${STALE}\` (the old one), as SecretRotation \`orders-rotation\` records them. Drop the old secret in a later update (step two), once the old webhook's retries have stopped.`;

/** The Markdown lines and the JSON of review over one preview of `steps`. */
async function review(name: string, steps: Record<string, unknown>[]) {
  const file = previewFile(name, [stackStep("dev"), ...steps]);
  const markdown = await runCli(["review", file]);
  const json = await runCli(["review", "--format", "json", file]);
  expect(markdown.stderr).toBe("");
  expect(markdown.code).toBe(0);
  for (const output of [markdown.stdout, json.stdout]) {
    for (const secret of [NEW, OLD, PLANTED]) expect(output).not.toContain(secret);
  }
  const stack = JSON.parse(json.stdout).organizations[0].stacks[0];
  return { lines: markdown.stdout.split("\n"), stack };
}

const rekeyed = (deleteFirst = false) =>
  replace("dev", "orders", { uuid: uuid(1) }, {}, ["secretKey"], deleteFirst);

describe("review of a secret rotation", () => {
  it("names step one on the Webhook's replace, with the fingerprints the receiver must hold before the merge", async () => {
    const { lines, stack } = await review("step-one.json", [
      rekeyed(),
      rotationStep("dev", "orders-rotation", "update", {
        step: 1,
        webhook: "orders",
        receiverHolds: [FRESH, STALE],
      }),
    ]);
    const at = lines.indexOf("- **Replace** Webhook `orders`, forced by `secretKey` (create-before-delete)");
    expect(lines.slice(at + 1, at + 4)).toEqual([
      `  - \`${HOOK}\` keeps receiving \`authentication\` records on channel \`orders\`, signed with the new secret.`,
      "  - Overlap: the new webhook is created before the old one is deleted, so both deliver for a moment, each signed with its own secret: the receiver needs both secrets and its update_counter guard.",
      STEP_ONE_BY_ROTATION,
    ]);
    expect(lines).not.toContain("- **Rotation** `orders-rotation`");
    expect(stack.changes[0].rotationStep).toBe(1);
    expect(stack.rotations).toEqual([
      expect.objectContaining({
        rotation: "orders-rotation",
        webhook: "orders",
        step: 1,
        receiverHolds: [FRESH, STALE],
      }),
    ]);
  });

  it("names step two, which changes no Webhook, and what the receiver keeps", async () => {
    const { lines, stack } = await review("step-two.json", [
      same("dev", "orders", { uuid: uuid(1) }),
      rotationStep("dev", "orders-rotation", "update", {
        step: 2,
        webhook: "orders",
        receiverHolds: [FRESH],
      }),
    ]);
    expect(lines).toContain("- **Rotation** `orders-rotation`");
    expect(lines).toContain(
      `  - Rotation step two of Webhook \`orders\`: the receiver drops the old secret and keeps \`${FRESH}\` (the new secret), the secret the webhook signs with since step one; the webhook does not change. Before the merge, make sure step one's update is done and the old webhook's retries have stopped.`,
    );
    expect(lines).not.toContain("- No Webhook or Domain changes.");
    expect(stack.rotations).toEqual([
      expect.objectContaining({ step: 2, webhook: "orders", receiverHolds: [FRESH] }),
    ]);
  });

  it("says a replace for another reason is not a rotation, and an unchanged rotation nothing", async () => {
    const { lines, stack } = await review("not-rotation.json", [
      replace("dev", "orders", { uuid: uuid(1) }, { channel: "orders-v2" }, ["channel"]),
      rotationStep("dev", "orders-rotation", "same", { step: 2, webhook: "orders", receiverHolds: [FRESH] }),
    ]);
    expect(lines).toContain(
      "  - Not a rotation: the secret stays the same, so the receiver needs no other secret.",
    );
    expect(stack.changes[0].rotationStep).toBeNull();
    expect(stack.rotations).toEqual([]);
  });

  it("asks for both secrets when the secret changes without a SecretRotation, and keeps saying a deleteBeforeReplace leaves a gap", async () => {
    const { lines } = await review("gap.json", [rekeyed(true)]);
    const at = lines.indexOf("- **Replace** Webhook `orders`, forced by `secretKey` (delete-before-replace)");
    expect(lines.slice(at + 2, at + 5)).toEqual([
      `  - Gap: the old webhook is deleted first (deleteBeforeReplace), so \`${HOOK}\` receives no \`authentication\` records on channel \`orders\` until the new webhook is created.`,
      `  - Rotation step one: before the merge, the receiver at \`${HOOK}\` must hold the secret webhook \`orders\` signs with now and its new one (no SecretRotation names them: see docs/receiver.md). Drop the old secret in a later update (step two), once the old webhook's retries have stopped.`,
      "  - The old webhook is deleted first (deleteBeforeReplace): the receiver needs the old secret only for its retries, but the records of the gap are not delivered.",
    ]);
  });

  it("warns when step two comes in the same update as the replace", async () => {
    const { lines } = await review("skipped.json", [
      rekeyed(),
      rotationStep("dev", "orders-rotation", "update", {
        step: 2,
        webhook: "orders",
        receiverHolds: [FRESH],
      }),
    ]);
    expect(lines).toContain(
      "  - Warning: SecretRotation `orders-rotation` is at step two in the same update: the receiver drops the old secret while the old webhook still delivers and retries with it, so those deliveries fail their signature. Set it to step one for this update.",
    );
  });

  it("reads nothing of a hostile record but its name, shown as a code span", async () => {
    const hostile = [
      { step: 1, webhook: "orders", receiverHolds: [NEW] },
      { step: 3, webhook: "orders", receiverHolds: [FRESH] },
      { step: 2, webhook: "orders", receiverHolds: [FRESH, STALE, FRESH] },
      { step: 2, webhook: ["orders"], receiverHolds: [FRESH] },
      { step: 2, webhook: "orders", receiverHolds: `${FRESH}\n# heading` },
      { step: 1, webhook: "orders", receiverHolds: "[secret]" },
    ];
    for (const [i, inputs] of hostile.entries()) {
      const { lines, stack } = await review(`hostile-${i}.json`, [
        same("dev", "orders", { uuid: uuid(1) }),
        rotationStep("dev", "x`y <img src=z>", "update", inputs),
      ]);
      expect(lines).toContain("- **Rotation** ``x`y <img src=z>``");
      expect(lines).toContain(
        "  - SecretRotation ``x`y <img src=z>``: its record (step, webhook, fingerprints) is unreadable, so review cannot say which step it is at or what the receiver must hold.",
      );
      expect(stack.rotations[0]).toMatchObject({ step: null, webhook: null, receiverHolds: null });
    }
  });
});
