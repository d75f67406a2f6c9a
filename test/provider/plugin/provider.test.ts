import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ProcessContext, processContext, setProcessContext } from "../../../provider/context/process";
import { setProgramLanguage } from "../../../provider/context/program-language";
import { clientFor, hostOverrides } from "../../../provider/lifecycle/clients";
import { configSourceOf, configureWith } from "../../../provider/plugin/configuration";
import { serviceProvider } from "../../../provider/plugin/provider";
import { markSecrets, revealSecrets } from "../../../provider/plugin/secrets";
import { domainRegistration, domainVerification, webhook } from "../../../provider/registry";
import type { Settings } from "../../../provider/settings/value";
import { HOOKS_TOKEN, HOST, SECRET, webhookArgs } from "../../helpers/fixtures";
import { registerDomain, startWorld, type World } from "../../helpers/world";

/**
 * The provider plugin's methods (provider/plugin/provider.ts), called as @pulumi/pulumi/provider's server
 * calls them, against the sandbox: the same lifecycles as the dynamic resources, with the engine's secret
 * wrapping on both sides. What only the plugin's process shows (Configure, import reads, old inputs) is in
 * test/provider/plugin/main.test.ts.
 */
const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });
const URN = `urn:pulumi:dev::infra::${webhook.pluginToken}::orders`;

let world: World;
/** The settings the last `configure` resolved, which the plugin's provider keeps. */
let settings: Settings;
const provider = () =>
  serviceProvider({
    oldInputs: () => undefined,
    showDiff: () => {},
    warn: () => {},
    settings: () => settings,
  });
/** Configures the provider as the engine's Configure does, warnings dropped. */
const configure = (args: Record<string, unknown>) => {
  settings = configureWith(() => {})({ args, variables: [] });
};

beforeEach(async () => {
  vi.stubEnv("SERVICE_RATE_LIMIT", "0");
  vi.stubEnv("SERVICE_RECONCILE_SECONDS", "0");
  world = await startWorld();
  await registerDomain(world);
  setProcessContext(new ProcessContext());
  configure({ token: secret(HOOKS_TOKEN), baseUrl: world.sandbox.url });
});
afterEach(async () => {
  await world.close();
});

describe("the plugin's Webhook", () => {
  it("keeps a create whose answer was lost as pending, its recorded state's secrets wrapped", async () => {
    world.sandbox.addFault({ method: "POST", path: "/v2/webhooks", status: 503 });
    const plugin = provider();
    const { inputs } = await plugin.check!(URN, {}, webhookArgs({ secretKey: secret(SECRET) }));
    const error = (await plugin.create!(URN, inputs).then(
      () => undefined,
      (e: unknown) => e,
    )) as { id: string; properties: Record<string, unknown>; message: string };
    expect(error.id).toMatch(/^pending-/);
    expect(error.message).toMatch(/webhook for https:\/\/hooks\.acme\.test.*Run `pulumi up` again/s);
    expect(error.properties).toMatchObject({ endpoint: `https://${HOST}/service/events` });
    expect(error.properties.secretKeyHash).toMatchObject({ [specialSigKey]: specialSecretSig });
    expect(JSON.stringify(error.properties)).not.toContain(SECRET);
  });

  it("answers a member that arrived secret as a secret, whatever the declaration says", async () => {
    const plugin = provider();
    const { inputs } = await plugin.check!(URN, {}, { ...webhookArgs(), channel: secret("private-channel") });
    expect(inputs.channel).toEqual(secret("private-channel"));
    const created = await plugin.create!(URN, inputs);
    expect(created.outs.channel).toEqual(secret("private-channel"));
    expect(created.outs.endpoint).toBe(`https://${HOST}/service/events`);
    await plugin.delete!(created.id, URN, created.outs);
  });

  it("refuses a type token it does not serve, naming those it does", async () => {
    const plugin = provider();
    await expect(plugin.check!("urn:pulumi:dev::infra::service:index:Hook::x", {}, {})).rejects.toThrow(
      /no resource type service:index:Hook .*service:index:Webhook.*Correct the type token/,
    );
    await expect(plugin.construct!("x", "service:index:Other", {}, {})).rejects.toThrow(
      /no component service:index:Other; its only component is service:index:Domain/,
    );
  });
});

describe("the engine's secrets", () => {
  it("are unwrapped at any depth, the keys that held one remembered", () => {
    const revealed = revealSecrets({
      connection: { token: secret(HOOKS_TOKEN) },
      filters: [secret({ key: "activity.name" })],
      endpoint: "https://x",
    });
    expect(revealed.props).toEqual({
      connection: { token: HOOKS_TOKEN },
      filters: [{ key: "activity.name" }],
      endpoint: "https://x",
    });
    expect([...revealed.secretKeys].sort()).toEqual(["connection", "filters"]);
  });

  it("are wrapped once per named key, with undefined members left out at any depth", () => {
    expect(
      markSecrets({ a: "x", b: secret("y"), c: { d: undefined, e: 1 }, f: undefined }, ["a", "b"]),
    ).toEqual({
      a: secret("x"),
      b: secret("y"),
      c: { e: 1 },
    });
  });
});

describe("the plugin's configuration", () => {
  it("reads the engine's `service:config:<key>` variables as the stack settings `service:<key>`", () => {
    const config = configSourceOf([
      ["service:config:token", "t"],
      ["service:config:baseUrl", "http://127.0.0.1:1"],
      ["other:config:token", "not ours"],
    ]);
    expect(config.get("service:token")).toBe("t");
    expect(config.get("service:baseUrl")).toBe("http://127.0.0.1:1");
    expect(config.get("other:token")).toBeUndefined();
  });

  const PROVIDER_URN = "urn:pulumi:dev::infra::pulumi:providers:service::explicit";
  /**
   * Configures from `args` alone, as the engine's Configure sends them, `times` times; answers the warnings
   * shown, and keeps the settings resolved last as the provider's.
   */
  function configured(args: Record<string, unknown>, times = 1) {
    const warnings: { urn: string; message: string }[] = [];
    const configureRequest = configureWith((urn, message) => warnings.push({ urn, message }));
    for (let i = 0; i < times; i++) settings = configureRequest({ args, variables: [], urn: PROVIDER_URN });
    return warnings;
  }

  it("reads `args`, typed as the schema says: a number, an object, an enum, a secret token", () => {
    const warnings = configured({
      token: secret("args-token-0123456789"),
      baseUrl: "http://127.0.0.1:1",
      acceptLanguage: "ja",
      retryBudgetSeconds: 2.5,
      hostOverrides: { "a.test": "http://127.0.0.1:2" },
      version: "0.1.0",
    });
    expect(warnings).toEqual([]);
    expect(clientFor({}, settings).options).toMatchObject({
      token: "args-token-0123456789",
      baseUrl: "http://127.0.0.1:1",
      acceptLanguage: "ja",
      retry: { maxElapsedMs: 2_500 },
    });
    expect(hostOverrides(settings)).toEqual({ "a.test": "http://127.0.0.1:2" });
    // The token arrived secret: no message repeats it.
    expect(processContext().secrets.redact("is args-token-0123456789")).toBe("is [REDACTED]");
  });

  it("reads a number and an object as the engine sends stack config: their text", () => {
    expect(
      configured({ retryBudgetSeconds: "30", hostOverrides: '{"a.test":"http://127.0.0.1:2"}' }),
    ).toEqual([]);
    expect(settings.stack).toMatchObject({ retryBudget: "30" });
    expect(hostOverrides(settings)).toEqual({ "a.test": "http://127.0.0.1:2" });
  });

  it("reads a value that arrived secret as a secret, whichever setting holds it", () => {
    configured({ hostOverrides: secret({ "private.test": "http://10.0.0.7:9" }) });
    expect(hostOverrides(settings)).toEqual({ "private.test": "http://10.0.0.7:9" });
    expect(processContext().secrets.redact('{"private.test":"http://10.0.0.7:9"}')).not.toContain("10.0.0.7");
  });

  it("reads the old spellings, strings inside the text (an SDK's JSON of a str), and warns once on the provider in the program's spelling", () => {
    setProgramLanguage("python");
    const warnings = configured(
      {
        token: secret(HOOKS_TOKEN),
        retryBudgetSeconds: '"30"',
        hostOverrides: JSON.stringify('{"a.test":"http://127.0.0.1:2"}'),
      },
      3,
    );
    expect(settings.stack).toMatchObject({ retryBudget: "30" });
    expect(hostOverrides(settings)).toEqual({ "a.test": "http://127.0.0.1:2" });
    expect(clientFor({}, settings).options.retry.maxElapsedMs).toBe(30_000);
    expect(warnings).toEqual([
      {
        urn: PROVIDER_URN,
        message: expect.stringMatching(
          /^The provider's `host_overrides` \(service:hostOverrides\) was given as a string.*give `host_overrides` an object.*not JSON text in a string\..*still read/,
        ),
      },
      {
        urn: PROVIDER_URN,
        message: expect.stringMatching(
          /^The provider's `retry_budget_seconds` \(service:retryBudgetSeconds\) was given as a string.*give `retry_budget_seconds` a number \(30, not "30"\)\..*still read/,
        ),
      },
    ]);
  });

  it("reads `variables` from an engine that sends no `args`", () => {
    settings = configureWith(() => {})({
      variables: [
        ["service:config:token", "variables-token-0123"],
        ["service:config:retryBudgetSeconds", "7"],
      ],
    });
    expect(clientFor({}, settings).options).toMatchObject({
      token: "variables-token-0123",
      retry: { maxElapsedMs: 7_000 },
    });
  });
});

describe("the engine's cancel", () => {
  /** Resolves once the origin has answered a GET of `path`: the Domain is polling it. */
  async function polled(path: string): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if (world.origin.received.some((r) => r.method === "GET" && r.path === path)) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`${path} was not polled`);
  }

  it("ends a Domain's wait for its verification file at once, and says that nothing was finished (regression)", async () => {
    // Ctrl-C during `pulumi up` used to leave the plugin polling until the Domain's `timeout` (600 s).
    const domainName = "slow.acme.test";
    configure({
      token: secret(HOOKS_TOKEN),
      baseUrl: world.sandbox.url,
      hostOverrides: { [domainName]: world.origin.url },
    });
    const plugin = provider();
    const registration = `urn:pulumi:dev::infra::${domainRegistration.pluginToken}::slow`;
    const { outs } = await plugin.create!(
      registration,
      (await plugin.check!(registration, {}, { domainName })).inputs,
    );
    const verification = `urn:pulumi:dev::infra::${domainVerification.pluginToken}::slow`;
    const news = {
      domainName,
      verifier: outs.verifier,
      url: outs.url,
      registerToken: outs.registerToken,
      expiresAt: outs.expiresAt,
      timeout: 600,
    };
    const { inputs } = await plugin.check!(verification, {}, news);
    const finishes = world.calls("/v2/domains/finish_registration");
    const verifying = plugin.create!(verification, inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    await polled(`/${outs.key}`);
    const cancelledAt = Date.now();
    await plugin.cancel!();
    const error = await verifying;
    expect(Date.now() - cancelledAt).toBeLessThan(2_000);
    expect(error?.message).toMatch(/slow\.acme\.test.*cancelled.*finish_registration was not called/s);
    expect(world.calls("/v2/domains/finish_registration")).toBe(finishes);
  });
});
