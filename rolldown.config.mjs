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
 * it, which context/run-code-cache.ts keeps compiled (about 5 ms sooner to the last answer of ten deletes
 * in `npm run bench:host`). A program never sends a request as it loads, so its bundle leaves undici out.
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
 * The bundler wraps each CommonJS module (in the runtime, undici's) in a parenthesized function, which
 * V8 compiles at once as the chunk loads, used or not. context/run-code-cache.ts keeps V8's code after a
 * call, so those wrappers put all of undici's modules (its unused parsers' WebAssembly text among them)
 * into what every host then reads back: 590 KB for the client's chunk instead of 345 KB. Unwrapped,
 * each is compiled on its first require, and only what ran is kept. Lines do not move, so the source
 * map holds.
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
 * One bundle of `entry` into `dir`; `undici` is what of undici stays external, and `first` the modules
 * the entry runs before anything else. The bundler puts the requires of an entry's chunks ahead of the
 * entry's own code, so a module that must come first (such as the one that turns on Node's compile cache,
 * without which those chunks were compiled anew by every process) is an entry of its own, required by a
 * banner above them.
 * @param {string} entry
 * @param {string} dir
 * @param {RegExp} undici
 * @param {{ source: string, name: string, call?: string }[]} first each module's source, its file name
 *   in `dir`, and what the banner calls on it
 * @param {import("rolldown").Plugin[]} [plugins] more plugins
 * @returns {import("rolldown").RolldownOptions}
 */
const bundle = (entry, dir, undici, first, plugins = []) => ({
  plugins: [englishOnly, ...plugins],
  input: {
    index: entry,
    ...Object.fromEntries(first.map(({ source, name }) => [name, source])),
  },
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
    banner: (chunk) =>
      chunk.isEntry && chunk.name === "index"
        ? first.map(({ name, call = "" }) => `require("./${name}.js")${call};`).join("\n")
        : "",
  },
});

const compileCache = { source: "provider/context/compile-cache.ts", name: "compile-cache" };

export default [
  // Only the entry stays external: transport.ts falls back on it should undici move the files it requires.
  bundle(
    "provider/runtime-contract.ts",
    "dist/runtime",
    /^undici$/,
    [
      compileCache,
      // Every chunk of the runtime, its entry's too, compiled through the cache of code that ran.
      {
        source: "provider/context/run-code-cache.ts",
        name: "run-code-cache",
        call: ".cacheRunCode(__dirname)",
      },
    ],
    [compileWrappersWhenRun],
  ),
  bundle("provider/index.ts", "dist/main", /^undici(\/|$)/, [compileCache]),
];
