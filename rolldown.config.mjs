/**
 * Bundles the runtime contract (`@service/pulumi/runtime`, provider/runtime-contract.ts) into dist/runtime/.
 * The dynamic-provider host loads it on every `pulumi preview` and `up`, and loading the ~120 files tsc
 * emits for it (zod's 95 among them) took most of this package's share of the host's cold start. One
 * chunk per lazily imported lifecycle module keeps the first Check from loading the API client. The
 * rest of the package stays as tsc emits it; undici and @pulumi are left to node_modules.
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

/** @type {import("rolldown").RolldownOptions} */
export default {
  plugins: [englishOnly],
  input: { index: "provider/runtime-contract.ts" },
  platform: "node",
  tsconfig: "tsconfig.build.json",
  external: [/^undici(\/|$)/, /^@pulumi\//],
  // Class names show in error messages (`error.name`): never let the bundler rename one.
  output: { dir: "dist/runtime", format: "cjs", sourcemap: true, keepNames: true },
};
