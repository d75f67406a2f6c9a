import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandboxScript } from "../../tools/bench/time-sandbox-start.mts";

/**
 * Files every build writes: a rebuild, even a silent one, changes their times. Whether the start is fast
 * (the goal is 2 s) is the bench's to say (`npm run bench:sandbox-start`), not a timed test's.
 */
const BUILT = ["dist/provider/index.js", "dist/sandbox/index.js", "dist/runtime/index.js"].map((file) =>
  join(__dirname, "../..", file),
);
const builtAt = () => BUILT.map((file) => statSync(file).mtimeMs);

describe("npm run sandbox with a current build", () => {
  // The suite's global setup has just built dist/, so the script must find it current and not rebuild:
  // a rebuild took about 10 s and printed the bundler's file table before the greeting.
  it("skips the build: dist/ left as it was, npm's own header, then the greeting", async () => {
    const before = builtAt();
    const run = await startSandboxScript();
    try {
      expect(builtAt()).toEqual(before);
      // npm echoes the script it runs ("> name@version sandbox", "> command"); nothing else may come first.
      expect(run.before.filter((line) => line.trim() !== "" && !line.startsWith("> "))).toEqual([]);
    } finally {
      await run.stop();
    }
  });
});
