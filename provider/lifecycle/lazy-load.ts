/**
 * A resource's lifecycle whose modules load when first called: a preview's checks and diffs never load
 * the API client, and the dynamic-provider host's first Check loads only what checking needs. The
 * runtime bundle (rolldown.config.mjs) turns each module loaded here into a chunk of its own.
 */
import { keepCompiledCode } from "../context/run-code-cache";
import type { ResourceLifecycle } from "./methods";

/** `call`'s result, writing the compile caches once it settles; `method` names what it ran. */
async function keepingCompiledCode<T>(method: keyof ResourceLifecycle, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } finally {
    keepCompiledCode(method);
  }
}

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
  const run = <M, T>(
    method: keyof ResourceLifecycle,
    load: () => Promise<M>,
    call: (module: M) => Promise<T>,
  ) => keepingCompiledCode(method, load().then(call));
  const lifecycle: ResourceLifecycle = {
    check: (olds, news, context) => run("check", plan, (m) => m.check(olds, news, context)),
    diff: (id, olds, news) => run("diff", plan, (m) => m.diff(id, olds, news)),
    create: (props) => run("create", apply, (m) => m.create(props)),
    read: (id, props) => run("read", apply, (m) => m.read(id, props)),
    update: (id, olds, news) => run("update", apply, (m) => m.update(id, olds, news)),
    remove: (id, props) => run("remove", apply, (m) => m.remove(id, props)),
  };
  return lifecycle as Pick<Plan, "check" | "diff"> & Omit<Apply, "check" | "diff">;
}
