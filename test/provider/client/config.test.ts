import { describe, expect, it, vi } from "vitest";
import { resolveOptions } from "../../../provider/client/config";
import { ConfigurationError, ENV, ServiceClient, type ServiceError } from "../../../provider/client/index";
import { processContext } from "../../../provider/context/process";
import { setProgramLanguage } from "../../../provider/context/program-language";
import { resolve } from "../../../provider/settings/resolve";

import { HOOKS_TOKEN } from "../../helpers/fixtures";
import { useHooksSandbox } from "../../helpers/hooks-sandbox";
import { printed } from "../../helpers/printed";
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

describe("the environment", () => {
  const world = useHooksSandbox();

  it("falls back to SERVICE_API_TOKEN, SERVICE_BASE_URL and SERVICE_API_VERSION", async () => {
    const saved = { ...process.env };
    try {
      process.env.SERVICE_API_TOKEN = HOOKS_TOKEN;
      process.env.SERVICE_BASE_URL = world.sandbox.url;
      process.env.SERVICE_API_VERSION = "1.4";
      const fromEnv = new ServiceClient();
      expect(fromEnv.apiVersion).toBe("1.4");
      expect(await fromEnv.health()).toEqual({ status: "ok" });
      delete process.env.SERVICE_API_TOKEN;
      expect(() => new ServiceClient()).toThrow(ConfigurationError);
      process.env.SERVICE_API_TOKEN = HOOKS_TOKEN;
      process.env.SERVICE_API_VERSION = "3.0";
      expect(() => new ServiceClient()).toThrow(/apiVersion must be 2.0 or 1.4/);
    } finally {
      process.env = saved;
    }
  });
});

describe("the client's base URL", () => {
  const PASSWORD = "planted-url-password-3e8f";
  const client = (options: Record<string, unknown> = {}) =>
    new ServiceClient({ token: TOKEN, rateLimitPerSecond: 0, ...options });

  it.each([
    ["user:password@", `https://user:${PASSWORD}@api.example.com`, /must not carry credentials/],
    ["a user name alone", `https://${PASSWORD}@api.example.com`, /must not carry credentials/],
    ["plain http to another machine", "http://api.example.com", /must use https/],
    ["plain http to a LAN address", "http://192.168.1.20:8787", /must use https/],
    ["another scheme", "ftp://api.example.com", /must be an http\(s\) URL/],
  ])("refuses %s with a clear error that does not quote it", (_name, url, rule) => {
    for (const make of [
      () => client({ baseUrl: url }),
      () => {
        vi.stubEnv(ENV.baseUrl, url);
        return new ServiceClient({ token: TOKEN });
      },
    ]) {
      let thrown: unknown;
      try {
        make();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      expect((thrown as ServiceError).message).toMatch(/^The setting baseUrl /);
      expect((thrown as ServiceError).message).toMatch(rule);
      expect(printed(thrown)).not.toContain(PASSWORD);
    }
  });

  it.each([
    "http://127.0.0.1:8787",
    "http://localhost:8787",
    "http://sandbox.localhost:8787",
    "http://127.10.200.30:8787",
    "http://[::1]:8787",
    "https://api.example.com/base",
  ])("accepts %s", (url) => {
    expect(client({ baseUrl: url }).options.baseUrl).toBe(url);
  });
});
