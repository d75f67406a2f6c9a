/**
 * Turns on Node's compile cache (22.1+) for the modules loaded after this one: V8's compiled code of this
 * package, zod and undici is kept on disk (under the system's temporary folder, or NODE_COMPILE_CACHE),
 * so that the next process loads them without compiling them again. Every Pulumi command starts a new
 * program and a new dynamic-provider host, and compiling is most of what loading this package costs them
 * (about 40 % of its CPU before the first resource is registered). Node checks each entry against the
 * source it was compiled from, and NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 *
 * Imported first by the package's entry points, for its side effect only.
 */
(require("node:module") as { enableCompileCache?: () => unknown }).enableCompileCache?.();
