import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { findPulumiCli } from "../../quickstart/pulumi-cli";

/** Set to 1 where the CLI must be present (the repository's GitHub workflow): then its absence fails. */
const REQUIRE_CLI_VARIABLE = "SERVICE_REQUIRE_PULUMI_CLI";

export const PULUMI_SKIP_REASON =
  "SKIPPED: the Pulumi CLI is not on PATH, so the end-to-end `pulumi up/refresh/destroy` tests did not run. " +
  "Install the CLI (https://www.pulumi.com/docs/install/) and run `npm test` again to run them.";

export const PULUMI_MISSING_REASON =
  `The Pulumi CLI is not on PATH, and ${REQUIRE_CLI_VARIABLE}=1 says the end-to-end tests must run here. ` +
  "Install it first (in GitHub Actions: the pulumi/actions step), or unset the variable to skip them.";

/** Whether the CLI tests run, are skipped, or must fail because the CLI is required and missing. */
export function pulumiCliGate(env: NodeJS.ProcessEnv = process.env) {
  const cli = findPulumiCli({ env });
  const required = env[REQUIRE_CLI_VARIABLE] === "1";
  return { cli, missingButRequired: !cli && required, skipped: !cli && !required };
}

const root = join(__dirname, "../..");

/**
 * A copy of a Pulumi project with a fresh local file backend, for `pulumi` commands. The copy lives in a
 * git-ignored folder of this repository, so that node_modules resolves as it does for the original, and the
 * stack files that `pulumi stack init` and `config set` write (Pulumi.<stack>.yaml) land in the copy and
 * never in the repository. Copy and backend are removed when the test finishes, whether it passed or not.
 */
export function localStack(
  project: { readonly dir: string; readonly files: readonly string[] },
  env: NodeJS.ProcessEnv = {},
) {
  const cli = findPulumiCli();
  if (!cli) throw new Error(PULUMI_MISSING_REASON);
  const workRoot = join(root, ".e2e-work");
  mkdirSync(workRoot, { recursive: true });
  const dir = mkdtempSync(join(workRoot, "project-"));
  for (const file of project.files) cpSync(join(project.dir, file), join(dir, file), { recursive: true });
  const backend = mkdtempSync(join(tmpdir(), "pulumi-backend-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(backend, { recursive: true, force: true });
  });
  const fullEnv = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    ...env,
  };
  const run = (...args: string[]) =>
    execFileSync(cli, [...args, "--non-interactive"], { cwd: dir, env: fullEnv, encoding: "utf8" });
  return {
    dir,
    backend,
    run,
    json: (...args: string[]) => JSON.parse(run(...args, "--json")),
  };
}
