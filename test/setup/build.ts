import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(__dirname, "../..");
const dist = join(root, "dist");

/** Output files whose source is gone: left behind, they would let a test pass against deleted code. */
function pruneOrphans(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      pruneOrphans(path);
      continue;
    }
    const source = relative(dist, path).replace(/(\.d)?\.(js|ts)(\.map)?$/, ".ts");
    if (source.endsWith(".ts") && !existsSync(join(root, source))) rmSync(path);
  }
}

/**
 * Compiles the package into dist/ before any test runs. Many tests load the package by its name, as a
 * user's program does, which resolves to dist/: building here means `npx vitest` alone can never run a
 * stale build. The build is incremental, so an unchanged tree costs about a second.
 */
export default function build(): void {
  pruneOrphans(dist);
  try {
    execFileSync(
      process.execPath,
      [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
      {
        cwd: root,
        stdio: "pipe",
      },
    );
  } catch (error) {
    const out = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(
      `The build failed, so the tests would run a stale dist/:\n${out.stdout?.toString() ?? ""}${out.stderr?.toString() ?? ""}`,
    );
  }
}
