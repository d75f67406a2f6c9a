/**
 * The config and states `service-pulumi` reads through the Pulumi CLI (provider/cli/pulumi-cli.ts): a
 * named stack's token, secret or set in plain text, is hidden before its state is exported, so that no
 * line the CLI repeats on stderr shows it.
 */
import { describe, expect, it } from "vitest";
import { useCliFolder } from "../../helpers/cli-inputs";
import { runCli } from "../../helpers/cli-io";
import { useStage } from "../../helpers/stage";

const { projectFolder } = useCliFolder("cli-pulumi-cli-");
const stages = useStage();

describe("a stack's token, on stderr", () => {
  it("hides a token a stack's config holds when `pulumi stack export` repeats it on stderr", async () => {
    const { folder, pulumi } = projectFolder("echo-project");
    const stackToken = "acme-stack-config-token-5c1e0a";
    pulumi.config("dev", {
      "service:token": { value: stackToken, secret: true },
      "service:baseUrl": { value: stages.current.sandbox.url },
    });
    pulumi.stderr("dev", "state", `error: could not decrypt with token ${stackToken}\n`);
    const run = await runCli(["audit", "--stacks", "dev"], { cwd: folder });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("could not decrypt with token [REDACTED]");
    expect(run.stderr).not.toContain(stackToken);
    // The config was read, registering its secrets, before the state was exported.
    expect(pulumi.calls().map((c) => c[0])).toEqual(["config", "stack"]);
  });

  it("hides a token a named stack sets in plain text, before its state is exported", async () => {
    const { folder, pulumi } = projectFolder("plain-token-project");
    const plain = "acme-plain-config-token-2d9f4b";
    pulumi.config("dev", { "service:token": { value: plain, secret: false } });
    pulumi.stderr("dev", "state", `error: token ${plain} was refused\n`);
    const run = await runCli(["audit", "--stacks", "dev"], { cwd: folder });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("token [REDACTED] was refused");
    expect(run.stderr).not.toContain(plain);
  });
});
