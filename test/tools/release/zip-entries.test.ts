/**
 * The zip reader (tools/release/zip-entries.mts) that compares the Go module zip with a commit: stored and
 * deflated files by their names, folders left out, and a file that is no zip refused with its path.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { zipEntries } from "../../../tools/release/zip-entries.mts";

const dir = mkdtempSync(join(tmpdir(), "zip-entries-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("zipEntries", () => {
  it("reads stored and deflated files by name, and leaves folders out", () => {
    const zip = join(dir, "module.zip");
    // Python's zipfile writes both methods, as golang.org/x/mod/zip may.
    execFileSync("python3", [
      "-c",
      `import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("m@v1.0.0/", b"")
    z.writestr("m@v1.0.0/go.mod", b"module m\\n", zipfile.ZIP_STORED)
    z.writestr("m@v1.0.0/a/b.go", b"package a\\n" * 100, zipfile.ZIP_DEFLATED)
    z.comment = b"a comment after the end record"`,
      zip,
    ]);
    const entries = zipEntries(zip);
    expect([...entries.keys()]).toEqual(["m@v1.0.0/go.mod", "m@v1.0.0/a/b.go"]);
    expect(entries.get("m@v1.0.0/go.mod")?.toString()).toBe("module m\n");
    expect(entries.get("m@v1.0.0/a/b.go")?.toString()).toBe("package a\n".repeat(100));
  });

  it("refuses a file that is no zip, naming it", () => {
    const file = join(dir, "not.zip");
    writeFileSync(file, "not a zip at all, but long enough to be searched for an end record");
    expect(() => zipEntries(file)).toThrow(
      `${file} is not a zip this reader knows: no end of central directory.`,
    );
  });
});
