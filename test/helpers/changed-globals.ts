/**
 * Issue 41, without the engine: a library is a guest in its user's process. The package is loaded and
 * called in a fresh Node process, as a program runs under `pulumi` and as the dynamic-provider host runs
 * the stored provider, between two snapshots of every process-wide global that process-globals.cjs lists:
 * `Error.prepareStackTrace`, Node's module loader, `console`, zod's settings, Node's compile cache,
 * `process` listeners and the rest. test/e2e/process-globals.test.ts proves the same under the real engine.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const GLOBALS = join(__dirname, "process-globals.cjs");

/**
 * Runs `steps` (JavaScript, awaited) between two snapshots in a fresh process; answers what differed.
 *
 * zod, which the package requires from the project's node_modules, makes its shared settings and registry
 * on globalThis the first time any copy of it loads, and fills in its defaults (English messages, a
 * memoizer) where unset as its first schema is made, whoever makes it. Unless `withoutZod`, the process
 * makes a zod schema before the first snapshot, as a program that uses zod has: then any setting the
 * package changed would show.
 */
export function changedBy(
  steps: string,
  env: NodeJS.ProcessEnv = {},
  withoutZod = false,
): { differences: string[]; loaded: boolean } {
  const script = `
    const { settle, snapshot, differences, loadedPackage } = require(${JSON.stringify(GLOBALS)});
    const pulumi = require("@pulumi/pulumi");
    pulumi.runtime.setMocks(
      { newResource: (args) => ({ id: args.name + "-id", state: args.inputs }), call: (args) => args.inputs },
      "quickstart", "dev", false,
    );
    // What Pulumi's SDK sets up once, on its first resource, before the package is loaded.
    new pulumi.dynamic.Resource({ create: async () => ({ id: "plain" }) }, "plain", {});
    ${withoutZod ? "" : 'const { z } = require("zod"); z.object({ name: z.string() });'}
    setTimeout(async () => {
      await settle();
      const before = snapshot();
      ${steps}
      // Whatever the package scheduled meanwhile has run.
      await new Promise((resolve) => setTimeout(resolve, 50));
      process.stdout.write(JSON.stringify({ differences: differences(before, snapshot()), loaded: loadedPackage() }));
      process.exit(0);
    }, 50);`;
  // Node's compile cache left off, whatever this machine sets (an empty NODE_DISABLE_COMPILE_CACHE counts
  // as set), so that only the package could turn it on.
  const { NODE_COMPILE_CACHE, NODE_DISABLE_COMPILE_CACHE, ...inherited } = process.env;
  return JSON.parse(
    execFileSync(process.execPath, ["-e", script], { encoding: "utf8", env: { ...inherited, ...env } }),
  );
}
