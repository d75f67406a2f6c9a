/**
 * V8's compiled code of the runtime bundle's chunks, kept on disk after that code has run. Node's compile
 * cache (compile-cache.ts) keeps what V8 compiles as a module loads, which is only its top level: V8
 * compiles a function the first time it is called, so each new dynamic-provider host compiled zod's
 * parser, undici and this package's lifecycle functions again before its first request. A cache made
 * after the call holds those functions as well: with it (and undici bundled), ten deletes in the host
 * alone answer about 14 ms sooner, 50 ms after the first Delete arrives instead of 64
 * (`npm run bench:host` measures the commands).
 *
 * Each chunk of the folder this module was bundled into is compiled with the cached data when there is
 * some. After each lifecycle call (lazy-load.ts) every chunk loaded so far is saved again if its entry has
 * not yet seen that method, so the entries grow towards what check, diff, create, read, update and delete
 * run, and then stop being written. An entry is named by the chunk's file name (which the bundler derives
 * from its content), length and modification time, under Node's compile cache folder (which is per Node
 * version and off with NODE_DISABLE_COMPILE_CACHE=1): V8 itself only checks that the data was made by the
 * same V8, with the same flags, for a source of the same length, so the name must change with the file.
 * A refused entry is written again.
 *
 * Each install writes its own entries on its first command of each kind, and the writes keep the entries
 * of the last few installs of each chunk, so that a machine that installs for every job (a CI runner)
 * does not fill its temporary folder.
 *
 * Installed by the runtime bundle's entry, above the chunks it requires (rolldown.config.mjs), and by
 * nothing else: a program's process runs no lifecycle and so would never save; there Node's compile cache
 * keeps the chunks. Not under --enable-source-maps: Node maps a stack trace through a file only when its
 * own loader compiled it, and the user who turned it on wants the sources' lines more than speed.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";

import Module = require("node:module");

import { basename, dirname, join } from "node:path";
import type { Script } from "node:vm";
import { crc32 } from "node:zlib";

interface LoadedChunk {
  readonly script: Script;
  readonly entry: string;
  /** The methods whose code the entry on disk holds. */
  readonly seen: Set<string>;
}

/** The chunks compiled through the cache in this process. */
const loaded: LoadedChunk[] = [];

/**
 * An entry: one line with the methods it has seen and the CRC-32 of V8's data, then that data. V8 checks
 * neither that the data is whole nor that it is intact, so a damaged entry is dropped here.
 */
function readEntry(entry: string): { seen: Set<string>; data: Buffer | undefined } {
  const none = { seen: new Set<string>(), data: undefined };
  try {
    const bytes = readFileSync(entry);
    const newline = bytes.indexOf(10);
    if (newline < 0) return none;
    const [methods = "", checksum] = bytes.subarray(0, newline).toString("latin1").split(" ");
    const data = bytes.subarray(newline + 1);
    if (checksum !== String(crc32(data))) return none;
    return { seen: new Set(methods.split(",").filter(Boolean)), data };
  } catch {
    return none;
  }
}

/** What `readEntry` reads. */
function entryBytes(seen: ReadonlySet<string>, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${[...seen].join(",")} ${crc32(data)}\n`, "latin1"), data]);
}

/**
 * What Node's loader runs a CommonJS file in. `Module.wrap` would put its head on the file's first line,
 * and a stack trace there would show columns 62 too far right.
 */
const WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname) {";
const WRAPPER_TAIL = "\n});";

/** The Module internal every CommonJS file is compiled by; Node's own loader calls it. */
type Compile = (this: Module, content: string, filename: string) => unknown;

function compileThroughCache(chunks: string, cacheFolder: string): void {
  // Required here: a program's process loads lazy-load.ts, and with it this module, but never compiles
  // through the cache, so it need not load node:vm.
  const { Script, constants } = require("node:vm") as typeof import("node:vm");
  const prototype = Module.prototype as unknown as { _compile: Compile };
  const compile = prototype._compile;
  prototype._compile = function compileWithRunCode(this: Module, content: string, filename: string) {
    if (dirname(filename) !== chunks) return compile.call(this, content, filename);
    // The modification time too: an installed chunk edited in place (a patch, a hotfix) keeps its name
    // and maybe its length, and V8 would run the old code for it.
    const modified = Math.round(statSync(filename).mtimeMs);
    const entry = join(cacheFolder, `${basename(filename)}-${content.length}-${modified}`);
    const { seen, data } = readEntry(entry);
    const script = new Script(`${WRAPPER_HEAD}\n${content}${WRAPPER_TAIL}`, {
      filename,
      // The wrapper has a line of its own, so that the chunk's line 1 reads as line 1 from its first column.
      lineOffset: -1,
      cachedData: data,
      // As Node's own loader does: else an `import()` in the chunk would fail.
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    loaded.push({ script, entry, seen: data && !script.cachedDataRejected ? seen : new Set() });
    const run = script.runInThisContext() as (...args: unknown[]) => unknown;
    // Bound to this module, as Node's own `require` is, so that its children and a failure's require
    // stack stay what they were; createRequire's gives the rest (resolve, cache, main).
    const require = Object.assign((id: string) => this.require(id), Module.createRequire(filename));
    return run.call(this.exports, this.exports, require, this, filename, chunks);
  };
}

/** Removes what a failed write left, if it can: nothing here may throw into the host. */
function discard(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {}
}

/** How many modules were loaded when Node's compile cache was last written. */
let modulesCached = 0;

/**
 * Writes Node's compile cache when a call has loaded modules since the last write. Node writes it only at
 * a normal exit, and the engine stops the host with a signal, so without this no later host would start
 * from compiled code. A diff or create can load more than the first check did, hence the count.
 */
function flushNodeCompileCache(): void {
  // The plugin binary (a single-executable application) has a `require` of Node's own modules only, and
  // no module cache: there is nothing to count, and no compile cache to write.
  const modules = Object.keys(require.cache ?? {}).length;
  if (modules === modulesCached) return;
  modulesCached = modules;
  const { flushCompileCache } = Module as { flushCompileCache?: () => void };
  if (flushCompileCache) setImmediate(flushCompileCache).unref();
}

/**
 * After a lifecycle call of `method` settles (lazy-load.ts): writes Node's compile cache if modules were
 * loaded, and saves, once the call's answer has gone, the code of each chunk whose entry has not yet seen
 * `method`. A failed write only costs the next process its start.
 */
export function keepCompiledCode(method: string): void {
  flushNodeCompileCache();
  const stale = loaded.filter((chunk) => !chunk.seen.has(method));
  if (stale.length === 0) return;
  for (const chunk of stale) chunk.seen.add(method);
  setImmediate(() => {
    for (const chunk of stale) {
      const temporary = `${chunk.entry}.${process.pid}`;
      try {
        writeFileSync(temporary, entryBytes(chunk.seen, chunk.script.createCachedData()));
        // Another host may be reading the entry: it sees the old one or the new one, never half of one.
        renameSync(temporary, chunk.entry);
      } catch {
        discard(temporary);
      }
    }
    pruneOtherInstalls(stale.map((chunk) => chunk.entry));
  }).unref();
}

/**
 * How many installs' entries of one chunk stay on disk. Entries are named by install (the chunk's
 * modification time), so without a bound every `npm install` of the same version adds a set; a few
 * projects on one machine, each with its own install, keep theirs.
 */
const INSTALLS_KEPT = 4;

/** Removes, for each chunk just written, the entries of all but the installs that wrote last. */
function pruneOtherInstalls(written: readonly string[]): void {
  const folder = dirname(written[0]!);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const entry of written) {
    // `<chunk>-<length>-<modified>`: the chunk's own file name is the part before the last two.
    const chunk = basename(entry).replace(/-\d+-\d+$/, "");
    const installs = names
      .filter((name) => name.startsWith(`${chunk}-`) && /^-\d+-\d+$/.test(name.slice(chunk.length)))
      .map((name) => {
        try {
          return { name, written: statSync(join(folder, name)).mtimeMs };
        } catch {
          return { name, written: 0 };
        }
      })
      .sort((a, b) => b.written - a.written);
    for (const { name } of installs.slice(INSTALLS_KEPT)) discard(join(folder, name));
  }
}

/**
 * Compiles the chunks of `chunks` (the runtime bundle's folder) loaded from now on through the cache. Node's
 * compile cache folder is set once compile-cache.ts has turned it on; without it (an old Node, or
 * NODE_DISABLE_COMPILE_CACHE=1) nothing is cached, nor with source maps on (see above). The plugin binary
 * has no module loader to hook.
 */
export function cacheRunCode(chunks: string): void {
  const nodeCacheFolder = (
    Module as { getCompileCacheDir?: () => string | undefined }
  ).getCompileCacheDir?.();
  if (!nodeCacheFolder || !require.cache || process.sourceMapsEnabled) return;
  const cacheFolder = join(nodeCacheFolder, "service-pulumi-run-code");
  try {
    mkdirSync(cacheFolder, { recursive: true });
  } catch {
    return;
  }
  compileThroughCache(chunks, cacheFolder);
}
