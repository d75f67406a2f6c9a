import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { pruneOrphans, SOURCE_DIRS } from "../../tools/build/build.mts";

/** dist/'s folders that tsc does not emit: the two bundles (rebuilt whole) and the API reference. */
const NOT_EMITTED = new Set(["runtime", "main", "docs"]);

describe("npm run sandbox's staleness check", () => {
  // Regression: contract/ moved out of provider/ and the hand-kept list of watched folders missed it, so
  // an edit of the contract left `npm run sandbox` serving the old build.
  it("watches every folder the build compiles into dist/", () => {
    // The suite's global setup has just built dist/.
    const emitted = readdirSync(join(__dirname, "../../dist"), { withFileTypes: true })
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

describe("the build's pruning of dist/", () => {
  function tree(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), "service-pulumi-prune-"));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    return dir;
  }

  // Regression: bench/, codegen/ and quickstart/ moved under tools/; their emptied output folders stayed in
  // dist/, and the staleness check above took them for folders the build still compiles.
  it("removes the output of deleted sources and the folders that leaves empty, and keeps the rest", () => {
    const root = tree({ "tools/bench/client.ts": "", "provider/index.ts": "" });
    const out = tree({
      "bench/client.js": "",
      "bench/client.d.ts": "",
      "tools/bench/client.js": "",
      "tools/bench/client.js.map": "",
      "provider/index.js": "",
      "provider/gone.js": "",
      "runtime/index.js": "",
      "main/index.js": "",
    });
    try {
      pruneOrphans(out, root, [join(out, "runtime"), join(out, "main")]);
      expect(existsSync(join(out, "bench"))).toBe(false);
      expect(existsSync(join(out, "provider/gone.js"))).toBe(false);
      for (const kept of ["tools/bench/client.js", "tools/bench/client.js.map", "provider/index.js"]) {
        expect(existsSync(join(out, kept)), kept).toBe(true);
      }
      expect(existsSync(join(out, "runtime/index.js"))).toBe(true);
      expect(existsSync(join(out, "main/index.js"))).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });
});
