import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Regression (issue 27, item 10): a fresh clone must stay clean after `npm install` with whichever npm a
 * contributor or CI runs. npm leaves a lockfile as it is only when it holds nothing that npm would add or
 * drop; these are the two fields on which npm versions and settings disagree (docs/contributing.md, The
 * lockfile). `.ci/install` catches any other drift when CI installs.
 */
const lockfile = JSON.parse(readFileSync(join(__dirname, "../../package-lock.json"), "utf8")) as {
  packages: Record<string, { libc?: string[]; resolved?: string }>;
};
const entries = Object.entries(lockfile.packages);

describe("package-lock.json", () => {
  it("lists no libc field, which npm 10 (the npm of Node 20 and 22) drops on every install", () => {
    const withLibc = entries.filter(([, entry]) => entry.libc !== undefined).map(([path]) => path);
    expect(
      withLibc,
      "npm 11 wrote libc for these entries, and npm 10 drops it, which turns a fresh clone dirty there: " +
        "rewrite the lockfile with `npx -y -p npm@10 npm install --package-lock-only` and commit it",
    ).toEqual([]);
  });

  it("lists no registry URL, which npm drops on install where omit-lockfile-registry-resolved is set", () => {
    const withUrl = entries.filter(([, entry]) => entry.resolved?.startsWith("http")).map(([path]) => path);
    expect(
      withUrl,
      "these entries name their registry URL, which npm set to omit-lockfile-registry-resolved drops: rewrite " +
        "the lockfile with `npm install --package-lock-only --omit-lockfile-registry-resolved` and commit it",
    ).toEqual([]);
  });
});
