/**
 * A throwaway project in the system's temp folder, outside this repository, that installs this package
 * from its `npm pack` tarball the way a platform team's infra repo does before the package is published.
 * Nothing above it resolves to this repository: a file that still leans on the repository fails there.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const repoRoot = join(import.meta.dirname, "../..");

export interface Step {
  readonly ok: boolean;
  readonly output: string;
  readonly seconds: number;
}

/** Runs a command to its end and keeps its output, for a report that shows only what failed. */
export function step(command: string, args: readonly string[], cwd: string): Step {
  const started = performance.now();
  const run = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return {
    ok: run.status === 0,
    output: `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}`,
    seconds: (performance.now() - started) / 1000,
  };
}

/** `step` without blocking this process: for installs that run side by side, or beside a server. */
export function stepInBackground(command: string, args: readonly string[], cwd: string): Promise<Step> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({
        ok: !error,
        output: `${stdout}${stderr}${error && !stderr ? String(error) : ""}`,
        seconds: (performance.now() - started) / 1000,
      }),
    );
  });
}

export function newProjectDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `${prefix}-`));
}

/** Packs this repository (already built) into `dir` and returns the tarball's file name. */
export function packInto(dir: string): string {
  execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir], {
    cwd: repoRoot,
    stdio: "pipe",
  });
  const tarball = readdirSync(dir).find((f) => f.startsWith("service-pulumi-") && f.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack wrote no service-pulumi-*.tgz into ${dir}`);
  return tarball;
}

/** `npm install` as a user runs it, reusing npm's cache (the registry is asked only for what is missing). */
const npmInstallArgs = (extra: readonly string[]) => [
  "install",
  ...extra,
  "--prefer-offline",
  "--no-audit",
  "--no-fund",
  "--loglevel=error",
];

/** `npm install` as a user runs it (see npmInstallArgs). */
export function npmInstall(dir: string, extra: readonly string[] = []): Step {
  return step("npm", npmInstallArgs(extra), dir);
}

/** `npmInstall` without blocking this process. */
export function npmInstallInBackground(dir: string, extra: readonly string[] = []): Promise<Step> {
  return stepInBackground("npm", npmInstallArgs(extra), dir);
}

/** Prints one line per step and, for a failed step, its output; returns whether every step passed. */
export function report(title: string, steps: readonly [string, Step][]): boolean {
  process.stdout.write(`${title}\n`);
  for (const [name, result] of steps) {
    process.stdout.write(`  ${result.ok ? "ok  " : "FAIL"} ${name} (${result.seconds.toFixed(1)} s)\n`);
    if (!result.ok) process.stdout.write(`${result.output.trimEnd().replace(/^/gm, "       ")}\n`);
  }
  return steps.every(([, result]) => result.ok);
}

export function removeUnlessKept(dir: string): void {
  if (process.argv.includes("--keep")) process.stdout.write(`kept ${dir}\n`);
  else rmSync(dir, { recursive: true, force: true });
}
