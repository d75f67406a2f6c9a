/**
 * The client loads its HTTP stack (undici) at its first request, not when it is made. When undici cannot
 * load (a broken or partial install), that request fails at once, sends nothing, and says which module,
 * why and what to do: retrying cannot help, and the base URL is not to blame.
 */
import { registerHooks } from "node:module";
import { expect, it } from "vitest";
import { ConfigurationError } from "../../../provider/client/index";
import { clientOf, clock, failureOf, scripted, useScriptedServers } from "../../helpers/scripted-server";

useScriptedServers();

/** While `during` runs, every `require` of undici or of a file of it fails as a missing module does. */
async function withoutUndici<T>(during: () => Promise<T>): Promise<T> {
  const hooks = registerHooks({
    resolve(specifier, context, next) {
      if (specifier !== "undici" && !specifier.startsWith("undici/")) return next(specifier, context);
      throw Object.assign(new Error(`Cannot find module '${specifier}'\nRequire stack:\n- ${__filename}`), {
        code: "MODULE_NOT_FOUND",
      });
    },
  });
  try {
    return await during();
  } finally {
    hooks.deregister();
  }
}

it("fails the first request at once when undici cannot load, naming it, the cause and how to reinstall it", async () => {
  const server = await scripted(() => ({ status: "ok" }));
  const error = await withoutUndici(() => failureOf(clientOf(server.url).health()));
  expect(error).toBeInstanceOf(ConfigurationError);
  expect(error.message).toBe(
    "undici, the HTTP client of @service/pulumi, could not be loaded (MODULE_NOT_FOUND: Cannot find module 'undici'): it is missing or broken where @service/pulumi is installed. Reinstall the project's dependencies (`npm install`, or `npm ci` with a lockfile), then run the command again.",
  );
  expect(server.seen).toHaveLength(0);
  // Not retried: a module that did not load will not load on a second try.
  expect(clock.slept).toEqual([]);
});
