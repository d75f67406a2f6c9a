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
 * errors/base.ts). @pulumi is left to node_modules, and so is undici, except in the runtime: there the
 * part of undici the client loads (client/transport.ts: its Agent and request API, 30 files) is bundled
 * into the chunk of the first request, so that the host's first Create, Read or Delete loads one file for
 * it. A program never sends a request as it loads, so its bundle leaves undici out.
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

/**
 * zod keeps its settings (`z.config()`: locale, memoizer, `jitless`) and its registry of schemas' metadata
 * (`z.globalRegistry`) on globalThis, shared by every copy of zod in the process, and sets the defaults the
 * first time a schema is made. The copy bundled here keeps both to itself: the package's schemas then
 * neither add globals to the user's process nor set or read the user's zod settings and registry (a
 * program's `z.config(z.locales.de())` would otherwise change the package's messages).
 */
const zodToItself = {
  name: "zod-to-itself",
  transform(code, id) {
    if (!/[\\/]zod[\\/]v4[\\/]core[\\/](core|registries)\.js$/.test(id)) return null;
    const own = code.replaceAll("globalThis", "zodOwnGlobals");
    if (own === code) throw new Error(`zod-to-itself: ${id} no longer names globalThis; check zod's release`);
    return { code: `const zodOwnGlobals = {};\n${own}`, map: null };
  },
};

/**
 * The bundler wraps each CommonJS module (in the runtime, undici's) in a parenthesized function, which
 * V8 compiles at once as the chunk loads, used or not (its unused parsers' WebAssembly text among them).
 * Unwrapped, each is compiled on its first require, and a module never required only costs its parse.
 * Lines do not move, so the source map holds.
 */
const compileWrappersWhenRun = {
  name: "compile-commonjs-wrappers-when-run",
  renderChunk(code) {
    const lazy = code.replace(
      /(__commonJSMin\()\((\((?:exports(?:, module)?)?\) => \{\n[\s\S]*?\n\})\)(\);)$/gm,
      "$1$2$3",
    );
    return lazy === code ? null : { code: lazy, map: null };
  },
};

/**
 * One bundle of `entry` into `dir`; `undici` is what of undici stays external.
 * @param {string} entry
 * @param {string} dir
 * @param {RegExp} undici
 * @param {import("rolldown").Plugin[]} [plugins] more plugins
 * @returns {import("rolldown").RolldownOptions}
 */
const bundle = (entry, dir, undici, plugins = []) => ({
  plugins: [englishOnly, zodToItself, ...plugins],
  input: { index: entry },
  platform: "node",
  tsconfig: "tsconfig.build.json",
  external: [undici, /^@pulumi\//],
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
  // Only the entry stays external: transport.ts falls back on it should undici move the files it requires.
  bundle("provider/runtime-contract.ts", "dist/runtime", /^undici$/, [compileWrappersWhenRun]),
  bundle("provider/index.ts", "dist/main", /^undici(\/|$)/),
];
