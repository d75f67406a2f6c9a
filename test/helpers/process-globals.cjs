// What a library could change for the whole process it is loaded in, as a snapshot that two calls in the
// same process compare (issue 41: importing @service/pulumi, constructing its resources and running them in
// the dynamic-provider host leave all of it as it was). Plain CommonJS, with no dependency of this
// repository's, so that a test's child process, a test program and a plain dynamic provider in Pulumi's
// host can each require it by its path.
//
// A function is named by the order this module first saw it (`fn#3 log`): two snapshots of one process
// name the same function alike, and a replaced one by a new number.
"use strict";
const Module = require("node:module");
const events = require("node:events");

const seen = new WeakMap();
let next = 0;
/** A function's or object's name in snapshots of this process, or what any other value is. */
function named(value) {
  if ((typeof value !== "function" && typeof value !== "object") || value === null) {
    return value === undefined ? "undefined" : JSON.stringify(value);
  }
  if (!seen.has(value)) seen.set(value, next++);
  return typeof value === "function" ? `fn#${seen.get(value)} ${value.name}` : `object#${seen.get(value)}`;
}

const EVENTS = [
  "exit",
  "beforeExit",
  "uncaughtException",
  "uncaughtExceptionMonitor",
  "unhandledRejection",
  "rejectionHandled",
  "warning",
  "message",
  "disconnect",
  "SIGINT",
  "SIGTERM",
  "SIGHUP",
];

/** The registered symbols on globalThis this package keeps its own state under (context/process.ts). */
const OWN_REGISTRY = /^@service\/pulumi:/;

/**
 * Has Node make what it makes once, on first use, by whoever uses it: the default dispatcher of its
 * built-in fetch (on globalThis, under undici's symbols). Awaited before a process's first snapshot, so
 * that only a dispatcher put in its place shows.
 */
async function settle() {
  await fetch("data:,");
}

/** Every global a library could change, as strings: what two snapshots compare. */
function snapshot() {
  const extensions = Module._extensions;
  // What every copy of zod 4 in the process reads its settings from, and `z.config()` returns; read here
  // without loading zod, which would make it.
  const zodConfig = globalThis.__zod_globalConfig;
  return {
    "Error.prepareStackTrace": named(Error.prepareStackTrace),
    "Error.stackTraceLimit": named(Error.stackTraceLimit),
    "Module.prototype._compile": named(Module.prototype._compile),
    "Module.prototype.require": named(Module.prototype.require),
    "Module._load": named(Module._load),
    "Module._resolveFilename": named(Module._resolveFilename),
    "Module._extensions": Object.keys(extensions).map((key) => `${key} ${named(extensions[key])}`),
    console: Object.keys(console)
      .sort()
      .map((key) => `${key} ${named(console[key])}`),
    "zod config":
      zodConfig === undefined
        ? "absent"
        : Object.keys(zodConfig)
            .sort()
            .map((key) => `${key} ${named(zodConfig[key])}`),
    "module.getCompileCacheDir()": named(Module.getCompileCacheDir?.()),
    "process listeners": EVENTS.map((event) => `${event} ${process.listenerCount(event)}`),
    "process.getMaxListeners()": named(process.getMaxListeners()),
    "events.defaultMaxListeners": named(events.defaultMaxListeners),
    "process.sourceMapsEnabled": named(process.sourceMapsEnabled),
    "process.env": Object.keys(process.env).sort(),
    "fetch's dispatchers": [1, 2].map((v) => named(globalThis[Symbol.for(`undici.globalDispatcher.${v}`)])),
    "globalThis names": Object.getOwnPropertyNames(globalThis).sort(),
    "globalThis symbols": Object.getOwnPropertySymbols(globalThis)
      .map(String)
      .filter((name) => !OWN_REGISTRY.test(name.slice(7, -1)))
      .sort(),
  };
}

/** What differs between two snapshots of one process: one line per global, empty when nothing does. */
function differences(before, after) {
  return Object.keys(before)
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => `${key}: ${JSON.stringify(before[key])} -> ${JSON.stringify(after[key])}`);
}

/** Whether this process has loaded @service/pulumi's main entry or its runtime (the dynamic host's). */
function loadedPackage() {
  return Object.keys(require.cache).some((file) => /[\\/]dist[\\/](main|runtime)[\\/]index\.js$/.test(file));
}

module.exports = { settle, snapshot, differences, loadedPackage };
