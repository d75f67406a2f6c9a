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
    check: async (olds, news, context) => (await plan()).check(olds, news, context),
    diff: async (id, olds, news) => (await plan()).diff(id, olds, news),
    create: async (props) => (await apply()).create(props),
    read: async (id, props) => (await apply()).read(id, props),
    update: async (id, olds, news) => (await apply()).update(id, olds, news),
    remove: async (id, props) => (await apply()).remove(id, props),
  };
  return lifecycle as Pick<Plan, "check" | "diff"> & Omit<Apply, "check" | "diff">;
}
