import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(__dirname, "../..");
const dist = join(root, "dist");

/** The runtime bundle (rolldown.config.mjs), rebuilt whole on every run rather than file by file. */
const bundle = join(dist, "runtime");

/** Output files whose source is gone: left behind, they would let a test pass against deleted code. */
function pruneOrphans(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (path === bundle) continue;
    if (entry.isDirectory()) {
      pruneOrphans(path);
      continue;
    }
    const source = relative(dist, path).replace(/(\.d)?\.(js|ts)(\.map)?$/, ".ts");
    if (source.endsWith(".ts") && !existsSync(join(root, source))) rmSync(path);
  }
}

/**
 * Compiles the package into dist/, and bundles its runtime, before any test runs. Many tests load the
 * package by its name, as a user's program does, which resolves to dist/: building here means
 * `npx vitest` alone can never run a stale build. The compile is incremental and the bundle takes a
 * fraction of a second, so an unchanged tree costs about two.
 */
export default function build(): void {
  pruneOrphans(dist);
  rmSync(bundle, { recursive: true, force: true });
  try {
    const run = (tool: string, ...args: string[]) =>
      execFileSync(process.execPath, [join(root, "node_modules", tool), ...args], {
        cwd: root,
        stdio: "pipe",
      });
    run("typescript/bin/tsc", "-p", "tsconfig.build.json");
    run("rolldown/bin/cli.mjs", "-c", "--logLevel", "warn");
  } catch (error) {
    const out = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(
      `The build failed, so the tests would run a stale dist/:\n${out.stdout?.toString() ?? ""}${out.stderr?.toString() ?? ""}`,
    );
  }
}
