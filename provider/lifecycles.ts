/**
 * The lifecycle of each resource type, as the runtime contract (runtime-entry.ts) serves it. Each
 * method loads its module when first called: a preview's checks and diffs never load the API client, and
 * the dynamic-provider host's first Check loads only what checking needs.
 */
import type { ResourceLifecycle } from "./lifecycle-contract";

/**
 * `load`, which then writes Node's compile cache (enabled by runtime-entry.ts) once, after the call that
 * loaded the modules. Node writes that cache only at a normal exit, and the engine stops the host with a
 * signal, so without this no later host would start from compiled code.
 */
function keepingCompiledCode<T>(load: () => Promise<T>): () => Promise<T> {
  let written = false;
  return async () => {
    const loaded = await load();
    if (!written) {
      written = true;
      const { flushCompileCache } = require("node:module") as { flushCompileCache?: () => void };
      if (flushCompileCache) setImmediate(flushCompileCache).unref();
    }
    return loaded;
  };
}

/** A lifecycle whose modules load when first called; `check` and `diff` come from the lighter one. */
function lazily<
  Plan extends Pick<ResourceLifecycle, "check" | "diff">,
  Apply extends Omit<ResourceLifecycle, "check" | "diff">,
>(loadPlan: () => Promise<Plan>, loadApply: () => Promise<Apply>) {
  const plan = keepingCompiledCode(loadPlan);
  const apply = keepingCompiledCode(loadApply);
  return {
    check: async (olds, news) => (await plan()).check(olds, news),
    diff: async (id, olds, news) => (await plan()).diff(id, olds, news),
    create: async (props) => (await apply()).create(props),
    read: async (id, props) => (await apply()).read(id, props),
    update: async (id, olds, news) => (await apply()).update(id, olds, news),
    remove: async (id, props) => (await apply()).remove(id, props),
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
