/**
 * A state as `pulumi stack export` writes it, read by audit (provider/cli/state-export.ts): a Webhook is
 * known by the uuid its state records, never by a create's placeholder id, and one whose uuid or URN
 * cannot be read refuses the whole audit rather than be left out.
 */
import { describe, expect, it } from "vitest";
import {
  envelope,
  fakeApi,
  HOOK,
  hookResource,
  listedWebhook,
  stackResource,
  stateOf,
  useCliFolder,
} from "../../helpers/cli-inputs";
import { useStage } from "../../helpers/stage";

const { writeJson, auditAt } = useCliFolder("cli-state-export-");
const stages = useStage();

describe("a Webhook in a state, read by audit (regressions)", () => {
  const createHook = (channel: string) => stages.current.webhookMadeByHand(channel);

  it("takes a settled webhook's uuid from its state, not from its create's placeholder id", async () => {
    const settled = await createHook("settled");
    const orphan = await createHook("by-hand");
    const placeholder = "pending-9b2e0f7c-4a51-4d0e-9f43-0c8d1b7a2e11";
    const state = writeJson(
      "settled.json",
      stateOf([stackResource("dev"), { ...hookResource("dev", "settled", settled), id: placeholder }]),
    );
    const run = await auditAt(stages.current.sandbox.url, state, ["--deactivate-orphans", "--yes"]);
    expect(run.stderr).toBe(
      `To deactivate: webhook ${orphan} of organization acme: ${HOOK}, channel by-hand.\nDeactivated webhook ${orphan} of organization acme: ${HOOK}, channel by-hand.\n`,
    );
    expect(await stages.current.active()).toEqual([settled]);
    expect(run.stdout).not.toContain(placeholder);

    // With its uuid secret, a placeholder id stands for nothing: the state cannot be read whole.
    const hidden = writeJson(
      "settled-secret.json",
      stateOf([
        stackResource("dev"),
        { ...hookResource("dev", "settled", settled, { webhookUuid: envelope("DDDD") }), id: placeholder },
      ]),
    );
    await createHook("by-hand-2");
    const refused = await auditAt(stages.current.sandbox.url, hidden, ["--deactivate-orphans", "--yes"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /could not be read \(its uuid is secret and its id is a create's placeholder\)/,
    );
    // An id and a recorded uuid that disagree leave the uuid unknown too.
    const disagree = writeJson(
      "disagree.json",
      stateOf([stackResource("dev"), { ...hookResource("dev", "settled", settled), id: orphan }]),
    );
    const both = await auditAt(stages.current.sandbox.url, disagree, ["--deactivate-orphans", "--yes"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/could not be read \(its webhookUuid cannot be read\)/);
    expect((await stages.current.active()).length).toBe(2);
  });

  it("refuses a Webhook whose URN it cannot read, rather than leave it out", async () => {
    const api = await fakeApi(() => ({
      items: [listedWebhook("u-kept"), listedWebhook("u-other")],
      next_cursor: null,
    }));
    const state = writeJson(
      "bad-urn.json",
      stateOf([
        stackResource("dev"),
        hookResource("dev", "kept", "u-kept"),
        { ...hookResource("dev", "other", "u-other"), urn: "not-a-urn" },
      ]),
    );
    const run = await auditAt(api.url, state, ["--deactivate-orphans", "--yes"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not-a-urn of infra\/dev could not be read \(its URN is not a Pulumi URN\)/);
    expect(api.seen.filter((r) => r.path.includes("deactivate"))).toHaveLength(0);
  });
});
