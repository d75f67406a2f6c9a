/**
 * A preview as `pulumi preview --json` writes it, read by review (provider/cli/preview-json.ts): keys
 * that are the names of JavaScript's own properties are read as plain data.
 */
import { describe, expect, it } from "vitest";
import { hookResource, stackResource, urnOf, useCliFolder } from "../../helpers/cli-inputs";
import { runCli } from "../../helpers/cli-io";

const { dir, writeJson } = useCliFolder("cli-preview-json-");

describe("a preview an attacker wrote (regression)", () => {
  it("reads input whose keys are the names of JavaScript's own properties as plain data", async () => {
    const hook = hookResource("dev", "odd", "u-odd", {
      filters: [
        { key: "activity.name", value: "authentication" },
        { key: "constructor", value: "x" },
      ],
    });
    const file = writeJson("own-names.json", {
      steps: [
        { op: "same", urn: stackResource("dev").urn },
        { op: "create", urn: hook.urn, newState: hook },
        { op: "toString", urn: urnOf("dev", "other"), newState: hookResource("dev", "other", "u-other") },
      ],
    });
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("of `constructor` `x` on channel `odd`");
    expect(run.stdout).not.toContain("undefined");
    expect(run.stdout).not.toContain("`other`");
  });
});
