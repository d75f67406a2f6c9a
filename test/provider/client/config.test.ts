import { describe, expect, it, vi } from "vitest";
import { resolveOptions } from "../../../provider/client/config";
import { ConfigurationError } from "../../../provider/client/index";
import { processContext } from "../../../provider/context/process";
import { setProgramLanguage } from "../../../provider/context/program-language";
import { resolve } from "../../../provider/settings/resolve";

import { TOKEN, useScriptedServers } from "../../helpers/scripted-server";

/** Client options: explicit settings, then SERVICE_* variables, then defaults, and the refusals. */

useScriptedServers();

describe("resolveOptions", () => {
  const env = (values: Record<string, string>) => resolve({ env: values });

  it("takes each setting from the option, else the environment, else the default; empty means unset", () => {
    const fromEnv = resolveOptions(
      { token: "" },
      env({
        SERVICE_API_TOKEN: TOKEN,
        SERVICE_BASE_URL: "https://api.example.com//",
        SERVICE_API_VERSION: "",
      }),
    );
    expect(fromEnv).toMatchObject({
      token: TOKEN,
      baseUrl: "https://api.example.com",
      baseUrlDefaulted: false,
      apiVersion: "2.0",
      acceptLanguage: "en",
      timeoutMs: 30_000,
      rateLimitPerSecond: 10,
    });
    expect(fromEnv.retry.maxElapsedMs).toBe(60_000);
    const defaulted = resolveOptions({ token: TOKEN }, env({ SERVICE_BASE_URL: "" }));
    expect(defaulted).toMatchObject({ baseUrl: "http://127.0.0.1:8787", baseUrlDefaulted: true });
    const explicit = resolveOptions(
      { token: TOKEN, baseUrl: "https://x.example.com", timeoutMs: 5, rateLimitPerSecond: 0 },
      env({
        SERVICE_BASE_URL: "https://y.example.com",
        SERVICE_TIMEOUT_SECONDS: "9",
        SERVICE_RATE_LIMIT: "3",
      }),
    );
    expect(explicit).toMatchObject({ baseUrl: "https://x.example.com", timeoutMs: 5, rateLimitPerSecond: 0 });
    expect(
      resolveOptions({ token: TOKEN }, env({ SERVICE_TIMEOUT_SECONDS: "9", SERVICE_RATE_LIMIT: "3" })),
    ).toMatchObject({ timeoutMs: 9_000, rateLimitPerSecond: 3 });
  });

  it("says how to set a missing token, in the terms of where the client was made", () => {
    setProgramLanguage("nodejs");
    expect(() => resolveOptions({}, env({}))).toThrow(
      "No API token was given: set one with the client's `token` option (or SERVICE_API_TOKEN).",
    );
    expect(() => resolveOptions({ advice: "pulumi" }, env({}))).toThrow(
      "No API token was given: set one with `pulumi config set --secret service:token <token>` (or the resource's `connection.token`).",
    );
  });

  it.each([
    [
      { token: "t\u0001x" },
      "The setting token must not contain control characters (found U+0001 at position 1): correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, acceptLanguage: "fr" },
      "The setting acceptLanguage must be en or ja: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, baseUrl: "ftp://x.example.com" },
      "The setting baseUrl must be an http(s) URL: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, timeoutMs: 1.5 },
      "The setting timeoutMs must be whole milliseconds: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, timeoutMs: 0 },
      "The setting timeoutMs must be positive: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, timeoutMs: Number.NaN },
      "The setting timeoutMs must be a number: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, rateLimitPerSecond: -1 },
      "The setting rateLimitPerSecond must be 0 (off) or more: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, rateLimitPerSecond: Number.NaN },
      "The setting rateLimitPerSecond must be a number: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, retry: { maxElapsedMs: 0 } },
      "The setting retryBudgetMs must be positive: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
    [
      { token: TOKEN, retry: { maxElapsedMs: Number.NaN } },
      "The setting retryBudgetMs must be a number: correct it in the client's options (or the SERVICE_* environment variables).",
    ],
  ])("refuses %j, saying which setting and why", (options, message) => {
    const error = (() => {
      try {
        resolveOptions(options as never, env({}));
      } catch (e) {
        return e as Error;
      }
      throw new Error("accepted");
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(message);
  });

  it("remembers the token as a secret, and logs to stderr when SERVICE_DEBUG is set", () => {
    const options = resolveOptions({ token: TOKEN }, env({ SERVICE_DEBUG: "1" }));
    expect(processContext().secrets.redact(`a ${TOKEN} b`)).toBe("a [REDACTED] b");
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      options.logger!("one line");
      expect(write).toHaveBeenCalledWith("one line\n");
    } finally {
      write.mockRestore();
    }
    expect(resolveOptions({ token: TOKEN }, env({})).logger).toBeUndefined();
  });
});
