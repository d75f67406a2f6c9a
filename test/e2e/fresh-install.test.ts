/**
 * The README's `npm install` in a fresh clone, with npm 10 and with npm 11: quiet (npm 11.16 and later warn
 * about each dependency's install script that package.json's `allowScripts` does not cover) and with
 * Node 24 linked into node_modules/.bin, which the `node` devDependency's preinstall script does. The
 * clone is of the committed tree, with the work tree's package.json and lockfile, so that a change to
 * either is tested before it is committed. .ci/install fails on the same warning with the npm on PATH.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const root = join(__dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "fresh-install-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A clone of HEAD with the work tree's package.json and lockfile, in a folder of its own. */
function freshClone(name: string): string {
  const dir = join(work, name);
  execFileSync("git", ["clone", "--quiet", "--no-hardlinks", root, dir]);
  for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(root, file), join(dir, file));
  return dir;
}

it.each([
  ["10", ["-y", "npm@10", "install"]],
  ["11", ["-y", "npm@11", "install"]],
])(
  "npm %s installs a fresh clone with no install-script warning, and links Node 24",
  (major, npx) => {
    const dir = freshClone(`npm-${major}`);
    const install = spawnSync("npx", [...npx, "--no-audit", "--no-fund", "--prefer-offline"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, npm_config_loglevel: "warn" },
    });
    // npm prints its warnings on stderr.
    expect(install.status, install.stderr).toBe(0);
    expect(`${install.stdout}${install.stderr}`).not.toMatch(/install-scripts|allowScripts/);
    const node = execFileSync(join(dir, "node_modules/.bin/node"), ["--version"], { encoding: "utf8" });
    expect(node.trim()).toMatch(/^v24\./);
  },
  300_000,
);
