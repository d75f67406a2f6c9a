/**
 * One table declares every setting (provider/settings/table.ts): the names of each source of settings derive from it
 * (the environment's, stack config's, the provider plugin's configuration and schema, the docs'), a
 * resource's clients are shared only between identical settings, and a client's settings are resolved
 * once. Tested through what users and the engine see: `ENV`, `configure`, `clientFor` (and
 * `resolvedSettings`, what a diff compares without a client), the schema.
 */
import { join } from "node:path";
import * as fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ENV, ServiceClient } from "../../../provider/client/index";
import { ProcessContext, processContext, setProcessContext } from "../../../provider/context/process";
import { resolvedSettings } from "../../../provider/lifecycle/client-settings";
import { clientFor } from "../../../provider/lifecycle/clients";
import { configureFromStack, STACK_KEYS } from "../../../provider/lifecycle/stack-config";
import {
  type ClientSettingName,
  SETTING_ROWS,
  SETTINGS,
  type Setting,
  stackKey,
} from "../../../provider/settings/table";
import type { Settings } from "../../../provider/settings/value";
import { generateSchema } from "../../../tools/codegen/schema";

const root = join(__dirname, "../../..");
const TOKEN = "token-0123456789";

/** Stack config as `configure` reads it, from a map of namespaced keys. */
/** The settings the last `stack` configured, as a provider keeps them. */
let settings: Settings;
const stack = (values: Record<string, string>) => {
  settings = configureFromStack({ get: (key) => values[key] });
};

afterEach(() => {
  vi.doUnmock("../provider/settings/table");
  vi.resetModules();
  setProcessContext(new ProcessContext());
});

describe("the names of each setting", () => {
  it("in the environment, stack config and the plugin's schema are the table's", () => {
    const rows = SETTING_ROWS.map(([name, s]) => ({ name, ...s }));
    expect(ENV).toEqual(
      Object.fromEntries(rows.filter((s) => s.reader === "client" && s.env).map((s) => [s.name, s.env])),
    );
    const configured = rows.filter((s) => s.config);
    expect(STACK_KEYS).toEqual(Object.fromEntries(configured.map((s) => [s.name, `service:${s.config}`])));
    const schema = generateSchema(root);
    for (const section of [schema.config.variables, schema.provider.inputProperties]) {
      expect(Object.keys(section)).toEqual(configured.map((s) => s.config));
      for (const s of configured) {
        expect(section[s.config!]).toMatchObject({ description: expect.stringContaining(s.description) });
        const spec = section[s.config!] as { type?: string; $ref?: string };
        expect(spec.type ?? (spec.$ref ? "string" : undefined)).toBe(s.type ?? "string");
        expect((section[s.config!] as { secret?: boolean }).secret ?? false).toBe(s.secret);
      }
    }
  });

  it("of a new row appear at every source at once: ENV, stack config, the plugin, the schema, the docs", async () => {
    const probe = {
      env: "SERVICE_PROBE_SECONDS",
      config: "probeSeconds",
      type: "number",
      option: { path: "probeMs", label: "probeMs", scale: 1000 },
      reader: "client",
      schema: ({ z }) => z.number().positive("must be positive"),
      default: 5,
      secret: true,
      description: "Seconds of a setting added for this test.",
    } satisfies Setting;
    vi.resetModules();
    vi.doMock("../../../provider/settings/table", async (importOriginal) => {
      const table = await importOriginal<typeof import("../../../provider/settings/table")>();
      const settings = { ...table.SETTINGS, probe };
      return { ...table, SETTINGS: settings, SETTING_ROWS: Object.entries(settings) };
    });
    const client = await import("../../../provider/client/index.js");
    const config = await import("../../../provider/client/config.js");
    const stackConfig = await import("../../../provider/lifecycle/stack-config.js");
    const plugin = await import("../../../provider/plugin/configuration.js");
    const clients = await import("../../../provider/lifecycle/clients.js");
    const resolveSettings = await import("../../../provider/settings/resolve.js");
    const codegen = await import("../../../tools/codegen/schema.js");
    const docs = await import("../../../tools/codegen/settings-doc.js");

    expect((client.ENV as Record<string, string>).probe).toBe("SERVICE_PROBE_SECONDS");
    expect((stackConfig.STACK_KEYS as Record<string, string>).probe).toBe("service:probeSeconds");
    const configure = plugin.configureWith(() => {});
    const probed = configure({ args: { token: TOKEN, probeSeconds: 70000000 }, variables: [] });
    expect((probed.stack as Record<string, string>).probe).toBe("70000000");
    // A secret setting is hidden from every message as soon as the stack gives it.
    expect(processContext().secrets.redact("a 70000000 b")).toBe("a [REDACTED] b");
    const schema = codegen.generateSchema(root);
    const description =
      "Seconds of a setting added for this test. Falls back to SERVICE_PROBE_SECONDS, then 5.";
    expect(schema.config.variables).toHaveProperty("probeSeconds", {
      type: "number",
      description,
      default: 5,
      defaultInfo: { environment: ["SERVICE_PROBE_SECONDS"] },
      secret: true,
    });
    expect(schema.provider.inputProperties).toHaveProperty("probeSeconds", {
      type: "number",
      description,
      secret: true,
    });
    expect(docs.settingsTable()).toMatch(
      /`service:probeSeconds` \(secret\) +\| `SERVICE_PROBE_SECONDS` +\| `probeMs` \(ms\)/,
    );
    // The client validates it, in the option's unit, from the stack, the environment or its default.
    const resolved = (options: object, env: Record<string, string> = {}) =>
      config.resolveOptions({ token: TOKEN, ...options }, resolveSettings.resolve({ env })) as unknown as {
        probeMs: number;
      };
    expect(resolved({}).probeMs).toBe(5_000);
    expect(resolved({}, { SERVICE_PROBE_SECONDS: "9" }).probeMs).toBe(9_000);
    expect(() => resolved({ probeMs: -1 })).toThrow("The setting probeMs must be positive");
    expect((clients.clientFor({}, probed).options as unknown as { probeMs: number }).probeMs).toBe(
      70_000_000_000,
    );
    // And two resources whose stacks differ in it get clients of their own.
    const first = clients.clientFor({}, probed);
    const next = configure({
      variables: [
        ["service:config:token", TOKEN],
        ["service:config:probeSeconds", "8"],
      ],
    });
    expect(clients.clientFor({}, next)).not.toBe(first);
  });
});

/** Valid values of the client settings that are not plain numbers, as stack config or the environment writes them. */
const TEXT_VALUES: { readonly [K in ClientSettingName]?: fc.Arbitrary<string> } = {
  token: fc.stringMatching(/^[a-z0-9]{12,24}$/),
  baseUrl: fc.integer({ min: 1024, max: 65_535 }).map((port) => `http://127.0.0.1:${port}`),
  acceptLanguage: fc.constantFrom("en", "ja"),
  apiVersion: fc.constantFrom("2.0", "1.4"),
  debug: fc.constantFrom("1", "true", "yes"),
};

/** Valid values of a client setting: its text values, else whole numbers of its option's unit. */
const valuesOf = (name: ClientSettingName): fc.Arbitrary<string> | undefined =>
  TEXT_VALUES[name] ??
  ((SETTINGS[name] as Setting).option?.scale === undefined
    ? undefined
    : fc.integer({ min: 1, max: 600 }).map(String));

/** Sets one setting to `value` where a stack's owner would: stack config when it has a key, else the environment. */
function give(name: ClientSettingName, value: string): void {
  const setting: Setting = SETTINGS[name];
  const config: Record<string, string> = name === "token" ? {} : { "service:token": TOKEN };
  if (setting.config) config[stackKey(setting.config)] = value;
  else vi.stubEnv(setting.env!, value);
  stack(config);
}

describe("a resource's client", () => {
  const clientNames = SETTING_ROWS.filter(([, s]) => s.reader === "client").map(
    ([name]) => name as ClientSettingName,
  );

  it("has values to test for every client setting", () => {
    expect(clientNames.filter((name) => valuesOf(name) === undefined)).toEqual([]);
  });

  /** `check` of any one client setting and two values of it (at times the same), in a fresh process context. */
  function eachSettingTwice(check: (name: ClientSettingName, a: string, b: string) => void): void {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...clientNames)
          .chain((name) => fc.tuple(fc.constant(name), valuesOf(name)!, valuesOf(name)!)),
        ([name, a, b]) => {
          setProcessContext(new ProcessContext());
          vi.unstubAllEnvs();
          check(name, a, b);
        },
      ),
      { numRuns: 100 },
    );
    vi.unstubAllEnvs();
  }

  it("is shared by resources whose settings are the same, and by no two that differ in any one setting", () => {
    eachSettingTwice((name, a, b) => {
      give(name, a);
      const first = clientFor({}, settings);
      expect(clientFor({}, settings)).toBe(first);
      give(name, b);
      if (a === b) expect(clientFor({}, settings)).toBe(first);
      else expect(clientFor({}, settings)).not.toBe(first);
    });
  });

  it("has settings that a diff resolves without it: once per settings, as the client resolves them", () => {
    eachSettingTwice((name, a, b) => {
      give(name, a);
      const first = resolvedSettings({}, settings);
      expect(resolvedSettings({}, settings)).toBe(first);
      const { logger: _, ...resolved } = first;
      const { logger: __, ...clients } = clientFor({}, settings).options;
      expect(resolved).toEqual(clients);
      give(name, b);
      if (a === b) expect(resolvedSettings({}, settings)).toBe(first);
      else expect(resolvedSettings({}, settings)).not.toBe(first);
    });
  });

  it("resolves its settings once: the stack's over the environment's, each converted to the option's unit", () => {
    stack({ "service:token": TOKEN, "service:retryBudgetSeconds": "90" });
    vi.stubEnv("SERVICE_RETRY_BUDGET_SECONDS", "5");
    vi.stubEnv("SERVICE_TIMEOUT_SECONDS", "7");
    const remember = vi.spyOn(processContext().secrets, "remember");
    const client = clientFor({ acceptLanguage: "ja" }, settings);
    expect(remember.mock.calls.filter(([value]) => value === TOKEN)).toHaveLength(1);
    expect(client.options).toMatchObject({ acceptLanguage: "ja", timeoutMs: 7_000 });
    expect(client.options.retry.maxElapsedMs).toBe(90_000);
    remember.mockClear();
    new ServiceClient({ token: TOKEN });
    expect(remember.mock.calls.filter(([value]) => value === TOKEN)).toHaveLength(1);
  });
});
