/**
 * A webhook secret's rotation in the two documented steps (SecretRotation), under the real engine, while
 * the sandbox creates a session every 150 ms: no session is lost, and no delivery fails its signature
 * (`npm run bench:changes` also reviews each step, and runs the other changes). It needs the engine: the order that makes the rotation safe, the receiver's
 * update before the webhook's replace (the rotation's dependsOn) and the new webhook before the old one's
 * deletion, is the engine's. The stage and the changes are `npm run bench:changes`'s (changes-stage.mts).
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type ChangesStage,
  firstUp,
  NEW_SECRET,
  OLD_SECRET,
  ROTATION,
  runChanges,
  startChangesStage,
  TOKEN,
} from "../../tools/bench/changes-stage.mts";
import { describeUnderEngine, printed, pulumiProject } from "../helpers/engine";

describeUnderEngine("a secret rotation in two steps, with sessions flowing", () => {
  let stage: ChangesStage;
  beforeAll(async () => {
    stage = await startChangesStage();
  });
  afterAll(async () => {
    await stage?.close();
  });

  it("loses no session and fails no signature", async () => {
    const project = pulumiProject({ from: join(__dirname, "../../tools/bench/changes-program") });
    await firstUp(stage, project, false);
    const rows = await runChanges(stage, project, ROTATION, { receiverApart: false, review: false });

    expect(rows.map((row) => row.change)).toEqual(["rotation step one", "rotation step two"]);
    for (const row of rows) {
      expect(row.selected, row.change).toBeGreaterThan(0);
      expect({ change: row.change, lost: row.lost, badSignature: row.badSignature }).toEqual({
        change: row.change,
        lost: 0,
        badSignature: 0,
      });
    }
    expect(stage.badSignatures()).toBe(0);
    // The program's receiver took its secrets three times: at its create, then at each step.
    expect(stage.secretsSetByProgram()).toBe(3);
    for (const text of printed) {
      for (const secret of [NEW_SECRET, OLD_SECRET, TOKEN]) expect(text).not.toContain(secret);
    }
    const state = JSON.stringify(await project.exported());
    for (const secret of [NEW_SECRET, OLD_SECRET, TOKEN]) expect(state).not.toContain(secret);
  }, 90_000);
});
