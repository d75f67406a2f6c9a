/**
 * The token a command is given (provider/cli/credentials.ts): on the command line or in the environment,
 * it is hidden before the first child process runs, so that no line a child repeats on stderr shows it.
 */
import { describe, expect, it, vi } from "vitest";
import { useCliFolder } from "../../helpers/cli-inputs";
import { runCli } from "../../helpers/cli-io";

const { projectFolder } = useCliFolder("cli-credentials-");

describe("a token given to a command", () => {
  it("is hidden before the first child runs, given on the command line or in the environment", async () => {
    const { folder, pulumi } = projectFolder("echo-project");
    const flagToken = "acme-flag-token-9b7d2f4e";
    const envToken = "acme-env-token-3a8c6e1d";
    vi.stubEnv("SERVICE_API_TOKEN", envToken);
    pulumi.stderr("prod", "config", `error: ${flagToken} and ${envToken} are not passphrases\n`);
    const flagged = await runCli(["audit", "--token", flagToken, "--stacks", "prod"], { cwd: folder });
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain(": [REDACTED] and [REDACTED] are not passphrases: ");
  });
});
