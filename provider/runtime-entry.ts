/**
 * The runtime contract: what the provider code stored in a stack's state calls, by name, as
 * `require("@service/pulumi/runtime")[resource][method](...)`, and `configure(config)`. State written by
 * every earlier version of this package calls it, so its names and signatures stay, and every method keeps
 * accepting the state those versions wrote. The package.json `exports["./runtime"]` entry points here.
 */
import { assertSupportedNode } from "./node-version";
import { type ConfigSource, configureFromStack } from "./runtime/stack-config";

// Before anything else: on an old Node the failure below is the only one the user should see. The two
// imports above that run (node-version, stack-config) are plain JavaScript that loads on any Node.
assertSupportedNode();
// Node's compile cache (22.1+) keeps V8's compiled code of the modules loaded after this point, so the
// dynamic-provider host starts faster from the second run on. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
(require("node:module") as { enableCompileCache?: () => unknown }).enableCompileCache?.();

type Props = Record<string, unknown>;

/** The six methods the stored provider calls for one resource type. */
export interface ResourceLifecycle {
  check(olds: Props, news: Props): Promise<unknown>;
  diff(id: string, olds: Props, news: Props): Promise<unknown>;
  create(props: Props): Promise<unknown>;
  read(id: string, props: Props): Promise<unknown>;
  update(id: string, olds: Props, news: Props): Promise<unknown>;
  remove(id: string, props: Props): Promise<unknown>;
}

/** A lifecycle whose modules load when first called; `check` and `diff` come from the lighter one. */
function lazily<
  Plan extends Pick<ResourceLifecycle, "check" | "diff">,
  Apply extends Omit<ResourceLifecycle, "check" | "diff">,
>(plan: () => Promise<Plan>, apply: () => Promise<Apply>) {
  return {
    check: async (olds, news) => (await plan()).check(olds, news),
    diff: async (id, olds, news) => (await plan()).diff(id, olds, news),
    create: async (props) => (await apply()).create(props),
    read: async (id, props) => (await apply()).read(id, props),
    update: async (id, olds, news) => (await apply()).update(id, olds, news),
    remove: async (id, props) => (await apply()).remove(id, props),
  } as ResourceLifecycle as Pick<Plan, "check" | "diff"> & Omit<Apply, "check" | "diff">;
}

/** Reads the stack configuration; the engine calls it before the first operation of every process. */
export function configure(config: ConfigSource): void {
  configureFromStack(config);
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
