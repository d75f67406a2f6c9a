/**
 * What `service-pulumi` writes on stderr (provider/cli/main.ts): each write one line, whatever the input
 * it quotes holds, so that a control or bidirectional character shows as an escape and a newline cannot
 * forge a line of its own.
 */
import { describe, expect, it } from "vitest";
import { stackResource, TYPE, urnOf, useCliFolder } from "../../helpers/cli-inputs";
import { runCli } from "../../helpers/cli-io";

const { dir, writeJson } = useCliFolder("cli-main-");

describe("stderr, on input an attacker wrote", () => {
  it("writes a diagnostic's CR, newline and bidirectional characters as escapes, on one line", async () => {
    const file = writeJson("diagnostic.json", {
      steps: [{ op: "same", urn: stackResource("dev").urn }],
      diagnostics: [{ severity: "error", message: "error: bad\rfake: ok\u202Egnp.exe\u2066x" }],
    });
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "diagnostic.json: the preview failed (bad\\u000dfake: ok\\u202egnp.exe\\u2066x): fix what it says, then preview again.\n",
    );
  });

  it("writes a newline from the input as an escape, so that no line of stderr is forged", async () => {
    const file = writeJson("forged.json", {
      steps: [
        { op: "same", urn: stackResource("dev").urn },
        { op: "same", urn: urnOf("dev", "kept", TYPE, "infra\n##[error]forged") },
      ],
    });
    const run = await runCli(["review", file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")).toHaveLength(2);
    expect(run.stderr).toContain("infra\\u000a##[error]forged/dev");
  });
});
