import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** What a PATH folder holds under a name: a plain file (mode 644), an executable (mode 755) or a folder. */
export type PathEntry = "file" | "exe" | "dir";

/**
 * A maker of fresh PATH folders under one temporary folder, which goes when the test file ends: each call
 * makes a folder holding the given entries and answers its path.
 */
export function usePathFolders(prefix: string): (entries?: Record<string, PathEntry>) => string {
  const base = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  return (entries = {}) => {
    const dir = mkdtempSync(join(base, "bin-"));
    for (const [name, kind] of Object.entries(entries)) {
      const path = join(dir, name);
      if (kind === "dir") mkdirSync(path);
      else {
        writeFileSync(path, "#!/bin/sh\n");
        chmodSync(path, kind === "exe" ? 0o755 : 0o644);
      }
    }
    return dir;
  };
}
