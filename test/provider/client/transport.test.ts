/**
 * The client loads its HTTP stack (undici) at its first request, not when it is made. When undici cannot
 * load (a broken or partial install), that request fails at once, sends nothing, and says which module,
 * why and what to do: retrying cannot help, and the base URL is not to blame.
 */
import { registerHooks } from "node:module";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../provider/client/index";
import { isTimeout, neverSent } from "../../../provider/client/transport";
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

describe("neverSent and isTimeout", () => {
  const coded = (code: string, depth: number): unknown => {
    let error: unknown = Object.assign(new Error(code), { code });
    for (let i = 0; i < depth; i++) error = new Error("wrapped", { cause: error });
    return error;
  };

  it.each([
    "ECONNREFUSED",
    "ENOTFOUND",
    "EAI_AGAIN",
    "EHOSTUNREACH",
    "ENETUNREACH",
    "UND_ERR_CONNECT_TIMEOUT",
  ])("knows %s means nothing was sent, up to three causes deep", (code) => {
    for (const depth of [0, 3]) expect(neverSent(coded(code, depth))).toBe(true);
    expect(neverSent(coded(code, 4))).toBe(false);
  });

  it.each(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"])(
    "knows %s is a timeout, wherever it stands in the chain",
    (code) => {
      expect(isTimeout(coded(code, 2))).toBe(true);
      // A wrapper with a code of its own must not hide the timeout below it.
      expect(
        isTimeout(Object.assign(new Error("outer"), { code: "ECONNRESET", cause: coded(code, 0) })),
      ).toBe(true);
    },
  );

  it("treats other failures as possibly sent and not timed out", () => {
    for (const error of [
      coded("ECONNRESET", 0),
      coded("UND_ERR_SOCKET", 1),
      new Error("plain"),
      undefined,
      "x",
    ]) {
      expect(neverSent(error)).toBe(false);
      expect(isTimeout(error)).toBe(false);
    }
  });
});
