/**
 * The lifecycle of each resource type, as the runtime contract (runtime-entry.ts) serves it. Each
 * method loads its module when first called: a preview's checks and diffs never load the API client, and
 * the dynamic-provider host's first Check loads only what checking needs.
 */
import type { ResourceLifecycle } from "./lifecycle-contract";

/** How many modules were loaded when the compile cache was last written. */
let modulesCached = 0;

/**
 * Writes Node's compile cache (enabled by runtime-entry.ts) when a call has loaded modules since the last
 * write, after the call. Node writes that cache only at a normal exit, and the engine stops the host with
 * a signal, so without this no later host would start from compiled code. A diff or create can load more
 * (the API client) than the first check did, hence the count rather than a single write.
 */
function keepCompiledCode(): void {
  const loaded = Object.keys(require.cache).length;
  if (loaded === modulesCached) return;
  modulesCached = loaded;
  const { flushCompileCache } = require("node:module") as { flushCompileCache?: () => void };
  if (flushCompileCache) setImmediate(flushCompileCache).unref();
}

/** `call`'s result, writing the compile cache once it settles. */
async function keepingCompiledCode<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } finally {
    keepCompiledCode();
  }
}

/** A lifecycle whose modules load when first called; `check` and `diff` come from the lighter one. */
function lazily<
  Plan extends Pick<ResourceLifecycle, "check" | "diff">,
  Apply extends Omit<ResourceLifecycle, "check" | "diff">,
>(plan: () => Promise<Plan>, apply: () => Promise<Apply>) {
  const run = <M, T>(load: () => Promise<M>, call: (module: M) => Promise<T>) =>
    keepingCompiledCode(load().then(call));
  return {
    check: (olds, news) => run(plan, (m) => m.check(olds, news)),
    diff: (id, olds, news) => run(plan, (m) => m.diff(id, olds, news)),
    create: (props) => run(apply, (m) => m.create(props)),
    read: (id, props) => run(apply, (m) => m.read(id, props)),
    update: (id, olds, news) => run(apply, (m) => m.update(id, olds, news)),
    remove: (id, props) => run(apply, (m) => m.remove(id, props)),
  } as ResourceLifecycle as Pick<Plan, "check" | "diff"> & Omit<Apply, "check" | "diff">;
}

// Each method loads its module when first called: a preview's checks and diffs never load the API
// client, and the host's first Check loads only what checking needs.
export const webhook = lazily(
  () => import("./webhook/plan.js"),
  () => import("./webhook/lifecycle.js"),
);
export const domainRegistration = lazily(
  () => import("./domain/registration-plan.js"),
  () => import("./domain/registration.js"),
);
export const domainVerification = lazily(
  () => import("./domain/verification-plan.js"),
  () => import("./domain/verification.js"),
);
export const verificationFile = lazily(
  () => import("./publishers/file-lifecycle.js"),
  () => import("./publishers/file-lifecycle.js"),
);
