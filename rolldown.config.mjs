import { readFileSync } from "node:fs";

/**
 * Bundles the two entries that every Pulumi command loads:
 * - the runtime contract (`@service/pulumi/runtime`, provider/runtime-contract.ts) into dist/runtime/. The
 *   dynamic-provider host loads it on every `pulumi preview` and `up`. One chunk per lazily imported
 *   lifecycle module keeps the first Check from loading the API client.
 * - the package's main entry (`@service/pulumi`, provider/index.ts) into dist/main/. A program loads it
 *   before it declares its first resource, so its time delays every step after.
 * The other entries (client, receiver, policy, sandbox, plugin, CLI) stay as tsc emits them: a process
 * that loads two copies of a module shares what must be shared through globalThis (context/process.ts,
 * errors/base.ts).
 *
 * Only the package's own modules are bundled. Its runtime dependencies (package.json `dependencies`:
 * undici, zod, hono) and @pulumi are required from the project's node_modules, so that a user's
 * `npm update` or `npm audit fix` reaches the code that holds their token. The plugin binary, which must
 * carry its own, bundles them instead (tools/release/plugin-bundle.mts) and lists them in its SBOM.
 */
const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const names = [...Object.keys(pkg.dependencies), "@pulumi"].map((name) =>
  name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
);
const external = new RegExp(`^(${names.join("|")})(/|$)`);

/**
 * One bundle of `entry` into `dir`.
 * @param {string} entry
 * @param {string} dir
 * @returns {import("rolldown").RolldownOptions}
 */
const bundle = (entry, dir) => ({
  input: { index: entry },
  platform: "node",
  tsconfig: "tsconfig.build.json",
  external,
  output: {
    dir,
    format: "cjs",
    sourcemap: true,
    // Class names show in error messages (`error.name`): never let the bundler rename one.
    keepNames: true,
    // Every process reads a chunk whole as it loads it: the TSDoc is for the sources' readers (the bundle
    // maps to them), and V8 keeps a source with any other character than ASCII at two bytes per character.
    // Annotations stay, for the bundlers of programs that bundle the package.
    comments: { legal: true, annotation: true, jsdoc: false },
    charset: "ascii",
  },
});

export default [
  bundle("provider/runtime-contract.ts", "dist/runtime"),
  bundle("provider/index.ts", "dist/main"),
];
