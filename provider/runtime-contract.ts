/**
 * The runtime contract: what the provider code stored in a stack's state requires by name
 * (`@service/pulumi/runtime`) and calls as `[key][method](...)` and `configure(config)`. State written by
 * every earlier version of this package calls it, so its names and signatures stay, and every method keeps
 * accepting the state those versions wrote. The package.json `exports["./runtime"]` entry points here; it
 * serves every resource that registry.ts lists, under its key.
 */

import { assertSupportedNode } from "./context/node-version";
import { setProgramLanguage } from "./context/program-language";
import { dropHostEchoes, expectHostEcho } from "./errors/host-echo";
import { type ConfigSource, configureFromStack } from "./lifecycle/stack-config";

// Before anything else: on an old Node the failure below is the only one the user should see. The
// imports of this module are plain JavaScript that loads on any Node; lifecycles load their modules
// when called. The dynamic-provider host would also print it with its stack trace: that copy is dropped.
try {
  assertSupportedNode();
} catch (error) {
  dropHostEchoes();
  expectHostEcho(error);
  throw error;
}
// Node's compile cache (22.1+) keeps V8's compiled code of the modules loaded after this point, so the
// dynamic-provider host starts faster from the second run on. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
(require("node:module") as { enableCompileCache?: () => unknown }).enableCompileCache?.();

export type { CheckContext, ResourceLifecycle, ResourceProps } from "./lifecycle/methods";
export * from "./registry";
export type { DeclaredResource, PolicyRole, SecretProperties } from "./resource-kit/declaration";
export type { ConfigSource };

/**
 * Reads the stack configuration; the engine calls it before the first operation of every process. Only the
 * dynamic-provider host calls it: dynamic resources exist only in Node.js programs, so advice names options
 * and properties as TypeScript spells them, and the host's own printout of each failure (with its stack
 * trace) is dropped, since the engine already shows the failure on its resource (errors/host-echo.ts).
 */
export function configure(config: ConfigSource): void {
  setProgramLanguage("nodejs");
  dropHostEchoes();
  configureFromStack(config);
}
