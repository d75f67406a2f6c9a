/**
 * A resource's lifecycle whose modules load when first called: a preview's checks and diffs never load
 * the API client, and the dynamic-provider host's first Check loads only what checking needs. The
 * runtime bundle (rolldown.config.mjs) turns each module loaded here into a chunk of its own.
 */
import type { ResourceLifecycle } from "./methods";

/** The module that answers `check` and `diff`: the lighter one, which never loads the API client. */
export type PlanModule = Pick<ResourceLifecycle, "check" | "diff">;
/** The module that answers `create`, `read`, `update` and `remove`. */
export type ApplyModule = Omit<ResourceLifecycle, "check" | "diff">;

/**
 * A lifecycle whose `check` and `diff` come from `plan`, and the rest from `apply`, each loaded on first
 * call. It keeps the modules' own signatures, so callers in this package see what each method answers.
 */
export function lazyLifecycle<Plan extends PlanModule, Apply extends ApplyModule>(
  plan: () => Promise<Plan>,
  apply: () => Promise<Apply>,
): Pick<Plan, "check" | "diff"> & Omit<Apply, "check" | "diff"> {
  const lifecycle: ResourceLifecycle = {
    check: async (settings, olds, news, context) => (await plan()).check(settings, olds, news, context),
    diff: async (settings, id, olds, news) => (await plan()).diff(settings, id, olds, news),
    create: async (settings, props) => (await apply()).create(settings, props),
    read: async (settings, id, props) => (await apply()).read(settings, id, props),
    update: async (settings, id, olds, news) => (await apply()).update(settings, id, olds, news),
    remove: async (settings, id, props) => (await apply()).remove(settings, id, props),
  };
  return lifecycle as Pick<Plan, "check" | "diff"> & Omit<Apply, "check" | "diff">;
}
