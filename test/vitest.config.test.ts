import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..");

/** Every file under `dir`, as a path relative to the repository. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/**
 * The unit project's tests (vitest.config.mts) are found by file: test/<path>/<name>.test.ts tests the
 * module, script, document or manifest <path>/<name>.<its extension>. End-to-end tests (test/e2e/) test the
 * product as a whole, and stay apart.
 */
describe("the unit tests' layout", () => {
  const unitTests = filesUnder("test").filter(
    (file) => file.endsWith(".test.ts") && !file.startsWith(join("test", "e2e")),
  );

  it("finds the unit tests", () => {
    expect(unitTests.length).toBeGreaterThan(50);
  });

  it("gives each unit test file a source of the same path and name", () => {
    const withoutSource = unitTests.filter((file) => {
      const source = join(dirname(relative("test", file)), basename(file, ".test.ts"));
      const folder = join(root, dirname(source));
      if (!existsSync(folder)) return true;
      const name = basename(source);
      return !readdirSync(folder, { withFileTypes: true }).some(
        (entry) => entry.isFile() && (entry.name === name || entry.name.startsWith(`${name}.`)),
      );
    });
    expect(withoutSource, "move each into test/<path of its module>/<module>.test.ts").toEqual([]);
  });
});
