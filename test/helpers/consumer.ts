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
  /** Runs a script inside the consumer project and returns its stdout. */
  run(script: string): string;
}

/** Options of a consumer project. */
export interface ConsumerOptions {
  /** The @pulumi/pulumi version to install next to the package; the repository's own by default. */
  readonly pulumiVersion?: string;
  /** Installs even a @pulumi/pulumi outside the package's peer range (to find where that range starts). */
  readonly ignorePeerRange?: boolean;
  /** More packages the project installs, by version. */
  readonly dependencies?: Record<string, string>;
}

/** Packs this repository and installs the tarball in a fresh project under the system temp directory. */
export function createConsumer(repoDir: string, options: ConsumerOptions = {}): Consumer {
  const pulumiVersion =
    options.pulumiVersion ??
    (require(join(repoDir, "node_modules/@pulumi/pulumi/package.json")).version as string);
  const dir = mkdtempSync(join(tmpdir(), "service-pulumi-consumer-"));
  try {
    const packDir = join(dir, "pack");
    mkdirSync(packDir);
    execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", packDir], {
      cwd: repoDir,
      stdio: "pipe",
    });
    const tarball = readdirSync(packDir).find((f) => f.endsWith(".tgz"))!;
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "consumer-infra",
        private: true,
        dependencies: {
          "@service/pulumi": `file:pack/${tarball}`,
          "@pulumi/pulumi": pulumiVersion,
          ...options.dependencies,
        },
      }),
    );
    execFileSync(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--loglevel=error",
        ...(options.ignorePeerRange ? ["--legacy-peer-deps"] : []),
      ],
      { cwd: dir, stdio: "pipe" },
    );
  } catch (error) {
    // A failed install leaves nothing behind in the temp folder, and says what npm said.
    rmSync(dir, { recursive: true, force: true });
    const npmSaid = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `Could not install the packed @service/pulumi next to @pulumi/pulumi ${pulumiVersion}` +
        (npmSaid ? `: ${npmSaid}` : ""),
      { cause: error },
    );
  }
  return {
    dir,
    pulumiDir: join(dir, "node_modules/@pulumi/pulumi"),
    run(script) {
      const file = join(dir, `script-${Math.random().toString(36).slice(2)}.js`);
      writeFileSync(file, script);
      return execFileSync(process.execPath, [file], { cwd: dir, encoding: "utf8" });
    },
  };
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
