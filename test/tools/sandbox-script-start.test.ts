import { cpSync, mkdtempSync, rmSync, symlinkSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSandboxScript } from "../../tools/bench/time-sandbox-start.mts";

// Whether the start is fast (the goal is 2 s) is the bench's to say (`npm run bench:sandbox-start`), not
// a timed test's: a loaded machine would fail it.

const root = join(__dirname, "../..");
/** What `npm run sandbox` reads: its script, the build's staleness check and settings, the sources, dist/. */
const TREE = [
  "package.json",
  "tsconfig.base.json",
  "tsconfig.build.json",
  "rolldown.config.mjs",
  "contract",
  "provider",
  "sandbox",
  "tools",
  "test/helpers",
  "dist",
];

/**
 * A copy of the repository as a fresh build leaves it. The script runs there, because other unit tests
 * rebuild the repository's own dist/ beside this one (`npm pack` runs a clean build) or write next to its
 * sources (the quickstart's served files), and either makes a current build look stale for a moment.
 */
function builtCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "service-sandbox-script-"));
  for (const path of TREE) cpSync(join(root, path), join(dir, path), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  // Copying gave every file and folder the time of the copy: date the build a minute later, newer than all
  // of them, as a build made after them would be.
  const now = new Date();
  utimesSync(join(dir, "dist/.build-stamp"), now, new Date(now.getTime() + 60_000));
  return dir;
}

describe("npm run sandbox with a current build", () => {
  const copy = builtCopy();
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it("skips the build: npm's own header, then the greeting", async () => {
    const run = await startSandboxScript(copy);
    try {
      // npm echoes the script it runs ("> name@version sandbox", "> command"); nothing else may come first,
      // and a build announces itself before it starts (tools/build/build.mts), so a rebuild shows here.
      expect(run.before.filter((line) => line.trim() !== "" && !line.startsWith("> "))).toEqual([]);
    } finally {
      await run.stop();
    }
  });
});
