import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The README's route to Node 24 for a machine whose Node is older and which reaches only the npm registry
 * (issue 27, item 12): its commands, as the README prints them, run in a shell whose `node` is the
 * machine's own (v20 on the machine this was written on), in a folder outside this repository, so that
 * neither this repository's `node` devDependency nor npx's local bins can stand in for them.
 */
const root = join(__dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** The first sh block after the "Requires Node.js" paragraph: the commands to run, as printed. */
function readmeRoute(): string {
  const from = readme.indexOf("**Requires Node.js 22.19 or later**");
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(from));
  if (from < 0 || !block)
    throw new Error("README.md no longer gives the route to Node 24 after its Node paragraph");
  return block[1]!;
}

/** PATH without this repository's (or any) node_modules/.bin, whose `node` is Node 24 already. */
const machinePath = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => dir !== "" && !dir.replace(/\/+$/, "").endsWith(join("node_modules", ".bin")))
  .join(delimiter);
/** The environment of a new shell: no npm_* settings from an enclosing `npm test`. */
const shellEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key))),
  PATH: machinePath,
};

const folder = mkdtempSync(join(tmpdir(), "node-from-npm-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(process.platform === "win32")("the README's Node 24 from the npm registry", () => {
  it("gives Node 24 on the machine's own Node, and the package loads under it", () => {
    const machineNode = execFileSync("node", ["--version"], { env: shellEnv, encoding: "utf8" }).trim();
    // The README's commands in an empty folder; then, in that shell, a project that installed the package
    // (linked here) loads it. npx would take this repository's own `node` devDependency, behind the link,
    // for node@24 if the commands ran in the project.
    const project = join(folder, "project");
    mkdirSync(join(project, "node_modules/@service"), { recursive: true });
    symlinkSync(root, join(project, "node_modules/@service/pulumi"), "dir");
    const load = [
      'require("@service/pulumi");',
      'const { ServiceClient } = require("@service/pulumi/client");',
      'new ServiceClient({ token: "t", baseUrl: "http://127.0.0.1:9" });',
      'console.log("loaded on", process.version, process.execPath);',
    ].join(" ");
    const shell = join(folder, "shell");
    mkdirSync(shell);
    const script = `${readmeRoute()}\ncd ${JSON.stringify(project)}\nnode -e '${load}'\n`;
    const run = spawnSync("bash", ["-euo", "pipefail", "-c", script], {
      cwd: shell,
      env: shellEnv,
      encoding: "utf8",
      timeout: 170_000,
    });
    expect(run.status, `machine's node ${machineNode}\n${run.stdout}${run.stderr}`).toBe(0);
    const [version, loaded] = run.stdout.trim().split("\n");
    expect(version).toMatch(/^v24\.\d+\.\d+$/);
    expect(loaded).toMatch(new RegExp(`^loaded on ${version!.replace(/\./g, "\\.")} /`));
    // npm's copy, not this repository's devDependency.
    expect(loaded).not.toContain(root);
  }, 180_000);
});
