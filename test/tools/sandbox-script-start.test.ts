import { describe, expect, it } from "vitest";
import { startSandboxScript } from "../../tools/bench/time-sandbox-start.mts";

// Whether the start is fast (the goal is 2 s) is the bench's to say (`npm run bench:sandbox-start`), not
// a timed test's: a loaded machine would fail it.

describe("npm run sandbox with a current build", () => {
  // The suite's global setup has just built dist/, so the script must find it current and not rebuild:
  // a rebuild took about 10 s and printed the bundler's file table before the greeting.
  it("skips the build: npm's own header, then the greeting", async () => {
    const run = await startSandboxScript();
    try {
      // npm echoes the script it runs ("> name@version sandbox", "> command"); nothing else may come first,
      // and a build announces itself before it starts (tools/build/build.mts), so a rebuild shows here.
      expect(run.before.filter((line) => line.trim() !== "" && !line.startsWith("> "))).toEqual([]);
    } finally {
      await run.stop();
    }
  });
});
