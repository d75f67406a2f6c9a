import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SOURCE_DIRS } from "../tools/build/build.mts";

/** dist/'s folders that tsc does not emit: the runtime bundle (rebuilt whole) and the API reference. */
const NOT_EMITTED = new Set(["runtime", "docs"]);

describe("npm run sandbox's staleness check", () => {
  // Regression: contract/ moved out of provider/ and the hand-kept list of watched folders missed it, so
  // an edit of the contract left `npm run sandbox` serving the old build.
  it("watches every folder the build compiles into dist/", () => {
    // The suite's global setup has just built dist/.
    const emitted = readdirSync(join(__dirname, "../dist"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !NOT_EMITTED.has(entry.name))
      .map((entry) => entry.name);
    expect(emitted).toContain("contract");
    for (const folder of emitted) {
      expect(
        SOURCE_DIRS.some((dir) => dir === folder || dir.startsWith(`${folder}/`)),
        folder,
      ).toBe(true);
    }
  });
});
