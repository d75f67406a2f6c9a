/**
 * The incremental build of dist/: tsc (incremental) and the two bundles, with stale output pruned.
 * The test suite's global setup runs it before every run; `npm run sandbox` runs it with `--if-stale`, so
 * that a current build starts the sandbox at once. It prints nothing unless the build fails: the bundler's
 * file table is noise in front of the sandbox's greeting. With `--clean` (`npm run build`, which `npm pack`
 * and `npm run release` run) it first empties dist/, all but dist/release: the artifacts `npm run release`
 * wrote stay until the next release replaces them.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const root = join(import.meta.dirname, "../..");
const dist = join(root, "dist");
/** The bundles (rolldown.config.mjs), rebuilt whole on every build rather than file by file. */
const bundles = [join(dist, "runtime"), join(dist, "main")];
/** Written after a successful build: its time is what "current" is measured against. */
const stamp = join(dist, ".build-stamp");
/** What `npm run release` writes (tools/release/build.mts), which no build of dist/ replaces. */
const release = join(dist, "release");

/**
 * What the build reads: the folders tsconfig.build.json includes (a pattern's folder, a single file's
 * folder), read from it so that a folder added there is watched here too; and the settings that shape
 * the output.
 */
export const SOURCE_DIRS = [
  ...new Set(
    (
      JSON.parse(readFileSync(join(root, "tsconfig.build.json"), "utf8")) as { include: string[] }
    ).include.map((pattern) =>
      pattern.includes("*") ? pattern.slice(0, pattern.indexOf("/*")) : dirname(pattern),
    ),
  ),
];
const SETTINGS = [
  "tsconfig.base.json",
  "tsconfig.build.json",
  "rolldown.config.mjs",
  "package.json",
  "package-lock.json",
];

/**
 * Removes from `out` (what tsc emitted from the sources under `sources`) each file whose source is gone,
 * and each folder that leaves empty; the folders in `keep` (the bundles) are left whole. Left behind, an orphan
 * would let a test pass against deleted code, and an emptied folder (its sources moved elsewhere) would
 * still look like a folder the build emits.
 */
export function pruneOrphans(out: string, sources: string, keep: readonly string[]): void {
  const prune = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (keep.includes(path)) continue;
      if (entry.isDirectory()) {
        prune(path);
        if (readdirSync(path).length === 0) rmdirSync(path);
        continue;
      }
      const source = relative(out, path).replace(/(\.d)?\.(js|ts)(\.map)?$/, ".ts");
      if (source.endsWith(".ts") && !existsSync(join(sources, source))) rmSync(path);
    }
  };
  if (existsSync(out)) prune(out);
}

/**
 * The newest modification time among the sources and their folders. A folder's time changes when a file
 * in it is added, removed or renamed, which a walk over the files alone would miss. Dot-folders (such as
 * tools/quickstart/.well-known-files, which the sandbox writes) are not sources.
 */
function newestSource(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

/** Whether dist/ was built, by this script, after the last change to anything the build reads. */
export function isCurrent(): boolean {
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  const settings = SETTINGS.map((f) => join(root, f)).filter(existsSync);
  const newest = Math.max(
    ...SOURCE_DIRS.map((d) => newestSource(join(root, d))),
    ...settings.map((f) => statSync(f).mtimeMs),
  );
  return newest < built;
}

/** Compiles dist/ incrementally and writes the bundles; throws with the tools' output when either fails. */
export function build(): void {
  pruneOrphans(dist, root, bundles);
  for (const dir of bundles) rmSync(dir, { recursive: true, force: true });
  rmSync(stamp, { force: true });
  const run = (tool: string, ...args: string[]) =>
    execFileSync(process.execPath, [join(root, "node_modules", tool), ...args], { cwd: root, stdio: "pipe" });
  try {
    run("typescript/bin/tsc", "-p", "tsconfig.build.json");
    run("rolldown/bin/cli.mjs", "-c", "--logLevel", "warn");
  } catch (error) {
    const out = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(
      `The build of dist/ failed:\n${out.stdout?.toString() ?? ""}${out.stderr?.toString() ?? ""}`,
    );
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

/** Empties dist/, all but the release's artifacts. */
function clean(): void {
  if (!existsSync(dist)) return;
  for (const entry of readdirSync(dist)) {
    const path = join(dist, entry);
    if (path !== release) rmSync(path, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  try {
    if (process.argv.includes("--clean")) {
      clean();
      build();
    } else if (!process.argv.includes("--if-stale")) build();
    else if (!isCurrent()) {
      // Say why this start waits: `npm run sandbox` after an edit builds first, which takes seconds.
      process.stdout.write("A source changed since dist/ was built: building it first (about 10 s).\n");
      build();
    }
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
