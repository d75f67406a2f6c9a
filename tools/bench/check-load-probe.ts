/**
 * Run by cold-start.ts in a fresh Node process: where the first Check of a Webhook spends its time. It
 * loads what the host loads, in the same order (the runtime contract, then the first check call, which
 * loads the webhook's plan chunk), and times every module load, attributing each one's own time (its
 * children's excluded) to a group: zod, this package's modules, Node's built-ins, other packages.
 * Prints one JSON line.
 */
import Module = require("node:module");

import { performance } from "node:perf_hooks";

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleInternals = Module as unknown as {
  _load: Loader;
  _resolveFilename: (...args: unknown[]) => string;
};

const selfMs = new Map<string, number>();
/** Files loaded for the first time, per group. */
const files = new Map<string, number>();
/** Time spent in the children of each load still on the stack. */
const childMs: number[] = [];

/** The group a request belongs to, and whether it loads a file not loaded before. */
function classify(request: string, parent: unknown): { group: string; fresh: boolean } {
  if (request.startsWith("node:") || Module.isBuiltin(request))
    return { group: "node built-ins", fresh: false };
  let file: string;
  try {
    file = moduleInternals._resolveFilename(request, parent, false);
  } catch {
    return { group: "unresolved", fresh: false };
  }
  const fresh = require.cache[file] === undefined;
  if (file.includes("/node_modules/zod/")) return { group: "zod", fresh };
  if (file.includes("/dist/runtime/")) return { group: "this package's runtime bundle (zod inside)", fresh };
  const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  return { group: match ? match[1]! : "other", fresh };
}

const original = moduleInternals._load;
moduleInternals._load = function load(request, parent, isMain) {
  const { group, fresh } = classify(request, parent);
  childMs.push(0);
  const started = performance.now();
  try {
    return original.call(this, request, parent, isMain);
  } finally {
    const total = performance.now() - started;
    const inChildren = childMs.pop()!;
    if (childMs.length > 0) childMs[childMs.length - 1]! += total;
    selfMs.set(group, (selfMs.get(group) ?? 0) + total - inChildren);
    if (fresh) files.set(group, (files.get(group) ?? 0) + 1);
  }
};

const INPUTS = {
  endpoint: "https://hooks.bench.test/events",
  secretKey: "bench-secret-0123456789",
  filters: [{ key: "activity.name", value: "authentication" }],
};

async function main(): Promise<void> {
  const stages: Record<string, number> = {};
  let t = performance.now();
  const runtime = require("@service/pulumi/runtime") as typeof import("../../provider/runtime-contract");
  const webhook = runtime.storedProvider("webhook", runtime.CONTRACT, "");
  await webhook.configure({ config: { get: () => undefined } });
  stages["runtime contract + configure"] = performance.now() - t;
  t = performance.now();
  const first = (await webhook.check({}, INPUTS)) as { failures: unknown[] };
  stages["first check (loads the webhook's plan chunk, builds and compiles its schemas)"] =
    performance.now() - t;
  t = performance.now();
  await webhook.check({}, INPUTS);
  stages["second check call"] = performance.now() - t;
  if (first.failures.length > 0) throw new Error(JSON.stringify(first.failures));
  const loads = Object.fromEntries(
    [...selfMs.entries()].map(([group, ms]) => [group, { files: files.get(group) ?? 0, ms }]),
  );
  console.log(JSON.stringify({ stages, loads }));
}

void main();
