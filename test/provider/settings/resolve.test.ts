/**
 * The settings as a value (provider/settings/resolve.ts): each setting read once from a resource's
 * `connection`, the stack's configuration and the environment, in that order of precedence, and handed on.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { resolve, settingOrDefault, settingText, withConnection } from "../../../provider/settings/resolve";

const TOKEN = "acme-token-0123456789";

/** A stack's configuration from a map of namespaced keys. */
const stackOf = (values: Record<string, unknown>) => ({ get: (key: string) => values[key] });

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("resolve", () => {
  it("takes each setting from the connection, else the stack, else the environment, else its default", () => {
    const env = { SERVICE_API_TOKEN: "env-token-0123456789", SERVICE_BASE_URL: "http://127.0.0.1:9000" };
    const stack = stackOf({ "service:token": TOKEN, "service:acceptLanguage": "ja" });
    const settings = resolve({ stack, env });
    expect(settingText(settings, "token")).toBe(TOKEN);
    expect(settingText(settings, "baseUrl")).toBe("http://127.0.0.1:9000");
    expect(settingText(settings, "acceptLanguage")).toBe("ja");
    expect(settingText(settings, "timeout")).toBeUndefined();
    expect(settingOrDefault(settings, "timeout")).toBe("30");
    const resource = withConnection(settings, { token: "own-token-0123456789" });
    expect(settingText(resource, "token")).toBe("own-token-0123456789");
    expect(settingText(resource, "baseUrl")).toBe("http://127.0.0.1:9000");
    expect(
      settingText(resolve({ connection: { baseUrl: "https://api.example.com" }, stack, env }), "baseUrl"),
    ).toBe("https://api.example.com");
  });

  it("counts an empty value as unset, wherever it is given", () => {
    const settings = resolve({
      connection: { token: "" },
      stack: stackOf({ "service:token": "" }),
      env: { SERVICE_API_TOKEN: TOKEN, SERVICE_DEBUG: "" },
    });
    expect(settingText(settings, "token")).toBe(TOKEN);
    expect(settings.env.debug).toBeUndefined();
  });

  it("keeps apart what each place set, so that messages can name where a value came from", () => {
    const settings = resolve({
      stack: stackOf({ "service:baseUrl": "https://api.example.com" }),
      env: { SERVICE_API_TOKEN: TOKEN, PULUMI_HOME: "/tmp/pulumi-home" },
    });
    expect(settings.stack).toEqual({ baseUrl: "https://api.example.com" });
    expect(settings.env).toEqual({ token: TOKEN });
    expect(settings.connection).toEqual({});
    expect(settings.pulumiHome).toBe("/tmp/pulumi-home");
  });

  it("reads a number or object setting as text, and warns once for each given in the old string spelling", () => {
    const settings = resolve({
      stack: stackOf({
        "service:retryBudgetSeconds": 90,
        "service:hostOverrides": JSON.stringify(JSON.stringify({ "a.test": "http://127.0.0.1:1" })),
      }),
      env: {},
    });
    expect(settings.stack.retryBudget).toBe("90");
    expect(settings.stack.hostOverrides).toBe('{"a.test":"http://127.0.0.1:1"}');
    expect(settings.warnings).toHaveLength(1);
    expect(settings.warnings[0]).toContain("(service:hostOverrides) was given as a string");
    expect(settings.warnings[0]).not.toContain("127.0.0.1");
  });

  it("reads the process's environment when given none", () => {
    vi.stubEnv("SERVICE_TIMEOUT_SECONDS", "7");
    expect(resolve({}).env.timeout).toBe("7");
    expect(resolve({ env: {} }).env.timeout).toBeUndefined();
  });
});
