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
 * Each install writes its own entries on its first command of each kind; each host also removes what
 * is no longer used (`prune`), so that a machine that installs for every job does not fill its
 * temporary folder.
 *
 * Installed by the runtime bundle's entry, above the chunks it requires (rolldown.config.mjs), and by
 * nothing else: a program's process runs no lifecycle and so would never save; there Node's compile cache
 * keeps the chunks. Not under Node's source maps (--enable-source-maps): Node maps a stack trace through a
 * file only when its own loader compiled it, and the user who turned them on wants the sources' lines
 * more than speed. (Pulumi's dynamic-provider host maps stacks itself, through source-map-support.)
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";

import Module = require("node:module");

import { basename, dirname, join } from "node:path";
import type { Script } from "node:vm";
import { crc32 } from "node:zlib";

interface LoadedChunk {
  readonly script: Script;
  readonly entry: string;
  /** The methods whose code the entry on disk holds. */
  readonly seen: Set<string>;
  /** When the entry was last used, if V8 took its code here (this process used it too); else undefined. */
  readonly usedAt: number | undefined;
}

/** The chunks compiled through the cache in this process. */
const loaded: LoadedChunk[] = [];

/** The folder of the entries, once the hook is installed. */
let entryFolder: string | undefined;

/** Whether this process has marked its entries used (`markUsed`), and pruned the folder; once each. */
let marked = false;
let pruned = false;

/**
 * An entry: one line with the methods it has seen and the CRC-32 of V8's data, then that data. V8 checks
 * neither that the data is whole nor that it is intact, so a damaged entry is dropped here.
 */
function readEntry(entry: string): { seen: Set<string>; data: Buffer | undefined; usedAt: number } {
  const none = { seen: new Set<string>(), data: undefined, usedAt: 0 };
  let descriptor: number | undefined;
  try {
    // As readFileSync does, with the time the entry was last used (`markUsed`) from the same fstat.
    descriptor = openSync(entry, "r");
    const { size, mtimeMs } = fstatSync(descriptor);
    const bytes = Buffer.allocUnsafe(size);
    if (readSync(descriptor, bytes, 0, size, 0) !== size) return none;
    const newline = bytes.indexOf(10);
    if (newline < 0) return none;
    const [methods = "", checksum] = bytes.subarray(0, newline).toString("latin1").split(" ");
    const data = bytes.subarray(newline + 1);
    if (checksum !== String(crc32(data))) return none;
    return { seen: new Set(methods.split(",").filter(Boolean)), data, usedAt: mtimeMs };
  } catch {
    return none;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** What `readEntry` reads. */
function entryBytes(seen: ReadonlySet<string>, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${[...seen].join(",")} ${crc32(data)}\n`, "latin1"), data]);
}

/**
 * The source V8 compiles for a chunk: the function Node's loader runs a CommonJS file in, around it. Its
 * head has a line of its own (`Module.wrap` puts it on the chunk's first line, where a stack trace then
 * showed columns 62 too far right), which the Script's `lineOffset` of -1 takes back.
 */
export function wrapChunk(content: string): string {
  return `(function (exports, require, module, __filename, __dirname) {\n${content}\n});`;
}

/** The Module internal every CommonJS file is compiled by; Node's own loader calls it. */
type Compile = (this: Module, content: string, filename: string) => unknown;

function compileThroughCache(chunks: string, cacheFolder: string): void {
  // Required here: a program's process loads lazy-load.ts, and with it this module, but never compiles
  // through the cache, so it need not load node:vm.
  const { Script, constants } = require("node:vm") as typeof import("node:vm");
  // This module and the entry were compiled by Node's loader before the hook.
  nodeCompiled = true;
  const prototype = Module.prototype as unknown as { _compile: Compile };
  const compile = prototype._compile;
  prototype._compile = function compileWithRunCode(this: Module, content: string, filename: string) {
    // Under source maps, Node maps a stack only through files its own loader compiled; checked on each
    // chunk, since a program may turn them on (process.setSourceMapsEnabled) after this was installed.
    if (dirname(filename) !== chunks || process.sourceMapsEnabled) {
      nodeCompiled = true;
      return compile.call(this, content, filename);
    }
    // The modification time too: an installed chunk edited in place (a patch, a hotfix) keeps its name
    // and maybe its length, and V8 would run the old code for it.
    const modified = Math.round(statSync(filename).mtimeMs);
    const entry = join(cacheFolder, `${basename(filename)}-${content.length}-${modified}`);
    const { seen, data, usedAt } = readEntry(entry);
    const script = new Script(wrapChunk(content), {
      filename,
      lineOffset: -1,
      cachedData: data,
      // As Node's own loader does: else an `import()` in the chunk would fail.
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    const used = data !== undefined && !script.cachedDataRejected;
    loaded.push({ script, entry, seen: used ? seen : new Set(), usedAt: used ? usedAt : undefined });
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

/**
 * Whether Node's loader has compiled a module since Node's compile cache was last written: the modules
 * the hook leaves to it (outside the chunks), and, before the hook, the bundle's own first modules.
 */
let nodeCompiled = false;

/**
 * Writes Node's compile cache when Node's loader has compiled modules since the last write. Node writes
 * it only at a normal exit, and the engine stops the host with a signal, so without this no later host
 * would start from compiled code. Asked after every call, so it must cost nothing: the hook sets the flag
 * (counting the host's module cache, a thousand modules, took a tenth of a millisecond a call).
 */
function flushNodeCompileCache(): void {
  if (!nodeCompiled) return;
  nodeCompiled = false;
  const { flushCompileCache } = Module as { flushCompileCache?: () => void };
  if (flushCompileCache) setImmediate(flushCompileCache).unref();
}

/**
 * After a lifecycle call of `method` settles (lazy-load.ts): writes Node's compile cache if its loader
 * compiled modules, and, once the call's answer has gone, saves the code of each chunk whose entry has
 * not yet seen `method`; after the process's first call, it also keeps the folder (`markUsed`, and
 * `prune` if it wrote). A failed write only costs the next process its start.
 */
export function keepCompiledCode(method: string): void {
  flushNodeCompileCache();
  const stale = loaded.filter((chunk) => !chunk.seen.has(method));
  if (stale.length === 0 && marked) return;
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
    if (entryFolder === undefined) return;
    if (!marked) {
      marked = true;
      markUsed();
    }
    // Only a process that writes adds to the folder; the others need not spend a listing of it.
    if (stale.length > 0 && !pruned) {
      pruned = true;
      prune(entryFolder);
    }
  }).unref();
}

/**
 * What stays on disk. Entries are named by install (the chunk's modification time), so each `npm install`
 * writes a set of its own, and a new version's chunks have new names: without a bound, a machine that
 * installs for every CI job fills its temporary folder. An entry's own modification time says when it was
 * last used (written, or read: `markUsed`), and it stays while it is one of the four last used of its
 * chunk (a few projects on one machine, each its own install, keep theirs) and was used in the last 30
 * days. A temporary file is a write its host did not finish (the engine stops hosts with a signal): gone
 * after a minute. A host that prunes while another renames an entry into place may remove that entry:
 * the next host compiles that chunk anew and writes it again.
 */
const INSTALLS_KEPT = 4;
const UNUSED_FOR_MS = 30 * 24 * 60 * 60 * 1000;
const UNFINISHED_FOR_MS = 60 * 1000;
/** How stale an entry's time may be before a host that used it sets it again (one write a day at most). */
const MARKED_EVERY_MS = 24 * 60 * 60 * 1000;

/** Sets the time of the entries this process used, when older than a day, so that `prune` keeps them. */
function markUsed(): void {
  const now = new Date();
  for (const { entry, usedAt } of loaded) {
    if (usedAt === undefined || now.getTime() - usedAt <= MARKED_EVERY_MS) continue;
    try {
      utimesSync(entry, now, now);
    } catch {}
  }
}

/** `<chunk>-<length>-<modified>`, and a temporary one, `<entry>.<pid>`. */
const ENTRY_NAME = /^(.+)-\d+-\d+(\.\d+)?$/;

/** Removes from `folder` what the bound above lets go; after a process's first write, once. */
function prune(folder: string): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  const now = Date.now();
  const byChunk = new Map<string, { name: string; used: number }[]>();
  for (const name of names) {
    const match = ENTRY_NAME.exec(name);
    if (!match) continue;
    let used: number;
    try {
      used = statSync(join(folder, name)).mtimeMs;
    } catch {
      continue;
    }
    const temporary = match[2] !== undefined;
    if (now - used > (temporary ? UNFINISHED_FOR_MS : UNUSED_FOR_MS)) discard(join(folder, name));
    else if (!temporary) {
      const entries = byChunk.get(match[1]!) ?? [];
      entries.push({ name, used });
      byChunk.set(match[1]!, entries);
    }
  }
  for (const entries of byChunk.values()) {
    entries.sort((a, b) => b.used - a.used);
    for (const { name } of entries.slice(INSTALLS_KEPT)) discard(join(folder, name));
  }
}

/**
 * Compiles the chunks of `chunks` (the runtime bundle's folder) loaded from now on through the cache. Node's
 * compile cache folder is set once compile-cache.ts has turned it on; without it (an old Node, or
 * NODE_DISABLE_COMPILE_CACHE=1) nothing is cached; with source maps on, the chunks loaded from then on
 * are left to Node's loader (see above). The plugin binary has no module loader to hook.
 */
export function cacheRunCode(chunks: string): void {
  const nodeCacheFolder = (
    Module as { getCompileCacheDir?: () => string | undefined }
  ).getCompileCacheDir?.();
  if (!nodeCacheFolder || !require.cache) return;
  const cacheFolder = join(nodeCacheFolder, "service-pulumi-run-code");
  try {
    mkdirSync(cacheFolder, { recursive: true });
  } catch {
    return;
  }
  entryFolder = cacheFolder;
  compileThroughCache(chunks, cacheFolder);
}
