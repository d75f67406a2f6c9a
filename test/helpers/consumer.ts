import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throwaway project that installs this package from its `npm pack` tarball, the way a user's infra
 * repo does. Only such an install shows a module that the `exports` map fails to expose.
 */
export interface Consumer {
  readonly dir: string;
  readonly pulumiDir: string;
  /** The `npm pack` tarball, as the project's package.json names it (`file:pack/<name>.tgz`). */
  readonly tarball: string;
  /** Runs a script inside the consumer project and returns its stdout. */
  run(script: string): string;
  /** Runs the project's package manager (`install`, `uninstall`, ...) in it, quietly and offline where it can. */
  packageManager(args: readonly string[]): void;
}

/** The package managers a consumer project can be installed with. */
type PackageManager = "npm" | "pnpm";

/** Options of a consumer project. */
export interface ConsumerOptions {
  /** The @pulumi/pulumi version to install next to the package; the repository's own by default. */
  readonly pulumiVersion?: string;
  /** Installs even a @pulumi/pulumi outside the package's peer range (to find where that range starts). */
  readonly ignorePeerRange?: boolean;
  /** More packages the project installs, by version. */
  readonly dependencies?: Record<string, string>;
  /**
   * npm by default; pnpm (9, run through npx) installs its own layout: each package sees only what it
   * declares, and the project's node_modules holds only its direct dependencies.
   */
  readonly packageManager?: PackageManager;
  /**
   * Installs the package only as a dependency of a local package of this name, which the project depends
   * on and which re-exports it: a team's own library of components built on @service/pulumi.
   */
  readonly through?: string;
}

/** The command line of a package manager, with the flags that keep it quiet and offline where it can. */
function packageManagerCommand(manager: PackageManager, args: readonly string[]): [string, string[]] {
  const quiet = ["--prefer-offline", "--ignore-scripts"];
  return manager === "pnpm"
    ? ["npx", ["-y", "pnpm@9", ...args, ...quiet, "--reporter=silent"]]
    : ["npm", [...args, ...quiet, "--no-audit", "--no-fund", "--loglevel=error"]];
}

/** Packs this repository and installs the tarball in a fresh project under the system temp directory. */
export function createConsumer(repoDir: string, options: ConsumerOptions = {}): Consumer {
  const pulumiVersion =
    options.pulumiVersion ??
    (require(join(repoDir, "node_modules/@pulumi/pulumi/package.json")).version as string);
  const manager = options.packageManager ?? "npm";
  const dir = mkdtempSync(join(tmpdir(), "service-pulumi-consumer-"));
  let tarball: string;
  try {
    const packDir = join(dir, "pack");
    mkdirSync(packDir);
    execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", packDir], {
      cwd: repoDir,
      stdio: "pipe",
    });
    tarball = `file:pack/${readdirSync(packDir).find((f) => f.endsWith(".tgz"))!}`;
    const through = options.through;
    if (through) writeThroughPackage(join(dir, through), through, `file:../${tarball.slice("file:".length)}`);
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "consumer-infra",
        private: true,
        dependencies: {
          ...(through ? { [through]: `file:${through}` } : { "@service/pulumi": tarball }),
          "@pulumi/pulumi": pulumiVersion,
          ...options.dependencies,
        },
      }),
    );
    const [command, args] = packageManagerCommand(manager, [
      "install",
      ...(options.ignorePeerRange ? ["--legacy-peer-deps"] : []),
    ]);
    execFileSync(command, args, { cwd: dir, stdio: "pipe" });
  } catch (error) {
    // A failed install leaves nothing behind in the temp folder, and says what npm said.
    rmSync(dir, { recursive: true, force: true });
    const npmSaid = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `Could not install the packed @service/pulumi next to @pulumi/pulumi ${pulumiVersion} with ${manager}` +
        (npmSaid ? `: ${npmSaid}` : ""),
      { cause: error },
    );
  }
  return {
    dir,
    pulumiDir: join(dir, "node_modules/@pulumi/pulumi"),
    tarball,
    run(script) {
      const file = join(dir, `script-${Math.random().toString(36).slice(2)}.js`);
      writeFileSync(file, script);
      return execFileSync(process.execPath, [file], { cwd: dir, encoding: "utf8" });
    },
    packageManager(args) {
      const [command, managerArgs] = packageManagerCommand(manager, args);
      execFileSync(command, managerArgs, { cwd: dir, stdio: "pipe" });
    },
  };
}

/** A package `name` in `dir` that depends on the packed tarball (`dependency`) and re-exports it. */
function writeThroughPackage(dir: string, name: string, dependency: string): void {
  mkdirSync(dir);
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name,
      version: "1.0.0",
      main: "index.js",
      dependencies: { "@service/pulumi": dependency },
      peerDependencies: { "@pulumi/pulumi": "^3" },
    }),
  );
  writeFileSync(join(dir, "index.js"), 'module.exports = require("@service/pulumi");\n');
}

/** A program, run in the consumer, that registers resources under setMocks and prints their inputs. */
export function mockedProgramScript(body: string): string {
  return `
const pulumi = require("@pulumi/pulumi");
const registered = [];
pulumi.runtime.setMocks({
  newResource: (a) => { registered.push({ type: a.type, name: a.name, inputs: a.inputs }); return { id: a.name + "-id", state: a.inputs }; },
  call: (a) => a.inputs,
}, "quickstart", "dev", false);
const service = require("@service/pulumi");
const outputs = (() => { ${body} })();
pulumi.all(outputs).apply(() => process.stdout.write(JSON.stringify(registered)));
`;
}
