import { describe, expect, it } from "vitest";
import { startSandboxScript } from "../../tools/bench/time-sandbox-start.mts";

/** The goal is 2 s; the bound leaves room for a loaded machine, and a rebuild (7 s and more) still fails it. */
const START_BOUND_MS = 5000;

describe("npm run sandbox with a current build", () => {
  // The suite's global setup has just built dist/, so the script must find it current and not rebuild:
  // a rebuild took about 10 s and printed the bundler's file table before the greeting.
  it("skips the build: npm's own header, then the greeting, quickly", async () => {
    const run = await startSandboxScript();
    try {
      expect(run.elapsedMs).toBeLessThan(START_BOUND_MS);
      // npm echoes the script it runs ("> name@version sandbox", "> command"); nothing else may come first.
      expect(run.before.filter((line) => line.trim() !== "" && !line.startsWith("> "))).toEqual([]);
    } finally {
      await run.stop();
    }
  });
});
