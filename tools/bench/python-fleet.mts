/**
 * The fleet in Python, through the provider plugin, for `npm run bench:engine`: the program a Python
 * platform team writes (test/e2e/python-fleet-program/, which the languages scenario runs too), in a
 * virtualenv of the bench's own with Pulumi's Python SDK from PyPI and this repository's generated SDK
 * (sdk/python), told by the Pulumi.yaml written here to run this repository's plugin.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PYTHON_PULUMI_VERSION } from "../engine/pulumi-engine.mts";
import type { BenchOrganization } from "./engine-stage.mts";

const root = join(import.meta.dirname, "../..");
/** The program's folder; the bench copies it for each stack and writes its Pulumi.yaml (below). */
export const PYTHON_FLEET_PROGRAM = join(root, "test/e2e/python-fleet-program");
/** Kept between runs (git-ignored): PyPI's Pulumi SDK is most of the install's time. */
const VENV = join(root, ".e2e-work/bench-python-venv");

let installed = false;

/**
 * The virtualenv, made on the run's first use. The generated SDK is installed again each run, since the
 * repository's may have changed since the last; pip finds Pulumi's own already there. The adoption's
 * end-to-end test (test/e2e/adopt.test.ts) runs its Python project in it too.
 */
export function virtualenv(): string {
  if (installed) return VENV;
  const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: "pipe" });
  if (!existsSync(join(VENV, "bin/pip"))) run("python3", ["-m", "venv", VENV]);
  const pip = join(VENV, "bin/pip");
  run(pip, ["install", "--quiet", `pulumi==${PYTHON_PULUMI_VERSION}`]);
  // From a copy: pip builds in the source folder (build/, *.egg-info), which must stay as committed, and
  // which other end-to-end files read at the same time (test/e2e/sdk.test.ts).
  const sdk = mkdtempSync(join(tmpdir(), "service-sdk-python-"));
  try {
    cpSync(join(root, "sdk/python"), sdk, { recursive: true });
    run(pip, ["install", "--quiet", "--force-reinstall", "--no-deps", sdk]);
  } finally {
    rmSync(sdk, { recursive: true, force: true });
  }
  installed = true;
  return VENV;
}

/** Makes the bench's copy `dir` of the program run in the virtualenv, on this repository's plugin. */
export const preparePythonFleet = (dir: string): void =>
  preparePythonProgram(dir, "service-bench-python-fleet");

/**
 * Writes the Pulumi.yaml of project `name` in `dir`: a Python program that runs in the virtualenv, on
 * this repository's plugin. The changes bench (changes.mts) runs its Python program so too.
 */
export function preparePythonProgram(dir: string, name: string): void {
  writeFileSync(
    join(dir, "Pulumi.yaml"),
    [
      `name: ${name}`,
      "runtime:",
      "  name: python",
      "  options:",
      "    toolchain: pip",
      `    virtualenv: ${virtualenv()}`,
      "plugins:",
      "  providers:",
      "    - name: service",
      `      path: ${join(root, "plugin")}`,
      "",
    ].join("\n"),
  );
}

/** The program's settings for `organizations`: the fleet, ten webhooks each, and each token as a secret. */
export function pythonFleetSettings(
  organizations: readonly BenchOrganization[],
): [string, string, boolean?][] {
  return [
    ["fleet", JSON.stringify(organizations.map(({ name, host }) => ({ organization: name, host })))],
    ["hooks", "10"],
    ...organizations.map((org): [string, string, boolean] => [`token-${org.name}`, org.token, true]),
  ];
}
