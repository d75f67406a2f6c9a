/**
 * Bundles the two entries that every Pulumi command loads:
 * - the runtime contract (`@service/pulumi/runtime`, provider/runtime-contract.ts) into dist/runtime/. The
 *   dynamic-provider host loads it on every `pulumi preview` and `up`, and loading the ~120 files tsc
 *   emits for it (zod's 95 among them) took most of this package's share of the host's cold start. One
 *   chunk per lazily imported lifecycle module keeps the first Check from loading the API client.
 * - the package's main entry (`@service/pulumi`, provider/index.ts) into dist/main/. A program loads it
 *   before it declares its first resource, so its time delays every step after: 181 files (zod's 95
 *   among them) took 44 to 50 ms, the bundle's 23 files 16 to 26 ms.
 * The other entries (client, receiver, policy, sandbox, plugin, CLI) stay as tsc emits them: a process
 * that loads two copies of a module shares what must be shared through globalThis (context/process.ts,
 * errors/base.ts). undici and @pulumi are left to node_modules.
 */
/**
 * zod's messages in every language it ships (zod/v4/locales/index.js, 300 KB: two thirds of the chunk
 * the first Read or Create loads) reach the bundle through `z.locales`, which nothing here uses: zod
 * registers English itself (classic/schemas.js imports locales/en.js). Only English is kept.
 */
const englishOnly = {
  name: "zod-english-only",
  load(id) {
    if (/[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/.test(id))
      return 'export { default as en } from "./en.js";';
    return undefined;
  },
};

/** One bundle of `entry` into `dir`. @returns {import("rolldown").RolldownOptions} */
const bundle = (entry, dir) => ({
  plugins: [englishOnly],
  input: { index: entry },
  platform: "node",
  tsconfig: "tsconfig.build.json",
  external: [/^undici(\/|$)/, /^@pulumi\//],
  // Class names show in error messages (`error.name`): never let the bundler rename one.
  output: { dir, format: "cjs", sourcemap: true, keepNames: true },
});

export default [
  bundle("provider/runtime-contract.ts", "dist/runtime"),
  bundle("provider/index.ts", "dist/main"),
];
