import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** The Pulumi CLI on PATH, if any. The engine and its plugins cannot be installed from npm. */
export function findPulumiCli(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, "pulumi");
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export const PULUMI_SKIP_REASON =
  "SKIPPED: the Pulumi CLI is not on PATH, so the end-to-end `pulumi up/refresh/destroy` tests did not run. " +
  "Install the CLI (https://www.pulumi.com/docs/install/) and run `npm test` again to run them.";

/** Runs `pulumi` in a project folder against a fresh local file backend. */
export function localStack(projectDir: string, env: NodeJS.ProcessEnv = {}) {
  const backend = mkdtempSync(join(tmpdir(), "pulumi-backend-"));
  const fullEnv = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    ...env,
  };
  const run = (...args: string[]) =>
    execFileSync(findPulumiCli()!, [...args, "--non-interactive"], {
      cwd: projectDir,
      env: fullEnv,
      encoding: "utf8",
    });
  return {
    backend,
    run,
    json: (...args: string[]) => JSON.parse(run(...args, "--json")),
  };
}
