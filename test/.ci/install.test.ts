import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * `.ci/install`, the install step of `.ci/run` (issue 27, item 10): the README's `npm install`, failing
 * with the files it changed and what to do when it turns a clean checkout dirty. Each case is a small git
 * repository of its own with no dependencies, so npm needs no registry.
 */
const SCRIPT = join(__dirname, "../../.ci/install");

/** The environment without what an enclosing `npm test` or git hook sets, which would redirect npm or git. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^(npm_|GIT_)/i.test(key)),
) as NodeJS.ProcessEnv;

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=test", "-c", "user.email=test@example.test", ...args], {
    cwd: dir,
    env,
    stdio: "pipe",
  });

/** A repository whose only commit holds `files`. */
function repository(files: Record<string, string>): void {
  dir = mkdtempSync(join(tmpdir(), "ci-install-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "fixture");
}

const PACKAGE = JSON.stringify({ name: "fixture", version: "1.0.0", private: true });

function install() {
  const run = spawnSync(SCRIPT, { cwd: dir, env, encoding: "utf8", timeout: 60_000 });
  return { status: run.status, stderr: run.stderr };
}

describe(".ci/install", () => {
  it("fails when npm install writes a lockfile the checkout does not have, naming it and the fix", () => {
    repository({ "package.json": PACKAGE });
    const { status, stderr } = install();
    expect(status).toBe(1);
    expect(stderr).toMatch(
      /^npm install changed the work tree \(npm \d+\.\d+\.\d+\); a fresh clone must stay clean/m,
    );
    expect(stderr).toContain("\n  package-lock.json\n");
    expect(stderr).toContain(
      "Run `npm install` in a clean clone and commit\npackage-lock.json as it leaves it",
    );
    expect(stderr).toContain("npx -y -p npm@10 npm install --package-lock-only");
    expect(stderr).not.toContain("An install step wrote the other files");
  });

  it("passes on a checkout whose lockfile is what npm writes, edits in progress left alone", () => {
    repository({ "package.json": PACKAGE });
    install();
    git("add", "package-lock.json");
    git("commit", "-q", "-m", "lockfile");
    // A contributor's uncommitted edit and new file: there before the install, unchanged by it.
    writeFileSync(join(dir, "package.json"), `${PACKAGE}\n`);
    writeFileSync(join(dir, "notes.txt"), "draft");
    const { status, stderr } = install();
    expect(status, stderr).toBe(0);
  });

  it("names a file an install step wrote into the tree, and says where it should go", () => {
    const writes = "require('node:fs').writeFileSync('generated.txt', 'x')";
    repository({
      "package.json": JSON.stringify({
        ...JSON.parse(PACKAGE),
        scripts: { postinstall: `node -e "${writes}"` },
      }),
    });
    install();
    git("add", "package-lock.json");
    git("commit", "-q", "-m", "lockfile");
    rmSync(join(dir, "generated.txt"));
    const { status, stderr } = install();
    expect(status).toBe(1);
    expect(stderr).toContain("\n  generated.txt\n");
    expect(stderr).not.toContain("package-lock.json");
    expect(stderr).toContain("An install step wrote the other files: make it write under node_modules/");
  });
});
