import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import {
  type Analyzer,
  probeStacks,
  secret,
  startAnalyzer,
  throughPlugin,
  webhook,
  withPluginTokens,
} from "../helpers/analyzer";
import { HOOKS_TOKEN, SECRET } from "../helpers/fixtures";

const PACK_DIR = join(process.cwd(), "policy-pack");
const version = JSON.parse(readFileSync("package.json", "utf8")).version as string;

let pack: Analyzer;

beforeAll(async () => {
  pack = await startAnalyzer({ packDir: PACK_DIR, launch: "engine" });
});

afterAll(async () => {
  await pack?.close();
});

describe("the shipped policy pack, over gRPC", () => {
  it("describes every policy with its enforcement level and config schema, at the package's version", async () => {
    const info = await pack.info();
    expect(info).toMatchObject({ name: "service-pulumi", version });
    expect(Object.fromEntries(info.policies.map((p) => [p.name, p.enforcementLevel]))).toEqual({
      "service-webhook-quota": "mandatory",
      "service-webhook-replace-at-quota": "advisory",
      "service-webhook-domain-in-stack": "mandatory",
      "service-webhook-depends-on-domain": "mandatory",
      "service-webhook-unique": "mandatory",
      "service-webhook-secret-in-plain-text": "mandatory",
      "service-webhook-channel": "mandatory",
      "service-webhook-filters": "mandatory",
    });
    const quota = info.policies.find((p) => p.name === "service-webhook-quota")!;
    expect(quota.configSchema?.properties.quota).toMatchObject({
      type: "integer",
      default: MAX_ACTIVE_WEBHOOKS,
      minimum: 1,
    });
    expect(info.policies.every((p) => p.description.length > 40)).toBe(true);
  });

  it("finds each broken probe stack and names the resources involved", async () => {
    const byPolicy = async (stack: keyof typeof probeStacks) =>
      (await pack.analyzeStack(probeStacks[stack])).map((d) => [d.policyName, d.message, d.urn] as const);

    const quota = await byPolicy("elevenWebhooks");
    const over = quota.filter(([p]) => p === "service-webhook-quota");
    expect(over).toHaveLength(1);
    for (let i = 1; i <= MAX_ACTIVE_WEBHOOKS + 1; i++) expect(over[0]![1]).toContain(`hook-${i} (`);

    expect(await byPolicy("hostWithoutDomain")).toEqual([
      [
        "service-webhook-domain-in-stack",
        expect.stringContaining('Webhook "elsewhere" sends to host hooks.nowhere.test'),
        probeStacks.hostWithoutDomain.at(-1)!.urn,
      ],
    ]);

    const identical = await byPolicy("identicalWebhooks");
    expect(identical).toEqual([["service-webhook-unique", expect.stringMatching(/first.*\n.*second/s), ""]]);

    expect(await byPolicy("noDomainDependency")).toEqual([
      [
        "service-webhook-depends-on-domain",
        expect.stringContaining('Webhook "loose" sends to hooks.acme.test, which Domain "hooks" registers'),
        probeStacks.noDomainDependency.at(-1)!.urn,
      ],
    ]);

    expect(await pack.analyzeStack(probeStacks.clean)).toEqual([]);
  });

  it("reads the provider plugin's resources (service:index:*) as it reads the dynamic ones", async () => {
    for (const stack of Object.keys(probeStacks) as (keyof typeof probeStacks)[]) {
      const seen = (diagnostics: Awaited<ReturnType<Analyzer["analyzeStack"]>>) =>
        diagnostics.map((d) => [d.policyName, withPluginTokens(d.message), withPluginTokens(d.urn)]);
      const dynamic = seen(await pack.analyzeStack(probeStacks[stack]));
      expect(seen(await pack.analyzeStack(throughPlugin(probeStacks[stack]))), stack).toEqual(dynamic);
      if (stack !== "clean") expect(dynamic.length, stack).toBeGreaterThan(0);
    }
  });

  it("never shows a secret it was sent, in a diagnostic or on its output", async () => {
    const leaky = webhook("leaky", {
      endpoint: `https://hooks.acme.test/in/${SECRET}`,
      connection: secret({ token: HOOKS_TOKEN }),
    });
    const all = [...(await pack.analyzeStack(probeStacks.elevenWebhooks)), ...(await pack.analyze(leaky))];
    expect(all.map((d) => d.policyName)).toContain("service-webhook-secret-in-plain-text");
    const text = JSON.stringify(all) + pack.output();
    expect(text).not.toContain(HOOKS_TOKEN);
    expect(text).not.toContain(SECRET);
  });

  it("takes config and enforcement levels through Configure", async () => {
    await pack.configure({
      "service-webhook-quota": { enforcementLevel: "advisory", quota: 1 },
      "service-webhook-unique": { enforcementLevel: "disabled" },
      "service-webhook-channel": { channelPattern: "orders-.+" },
    });
    try {
      expect(
        (await pack.analyzeStack(probeStacks.identicalWebhooks)).map((d) => [
          d.policyName,
          d.enforcementLevel,
        ]),
      ).toEqual([["service-webhook-quota", "advisory"]]);
      const [channel] = await pack.analyze(webhook("auth", { channel: "auth" }));
      expect(channel).toMatchObject({
        policyName: "service-webhook-channel",
        enforcementLevel: "mandatory",
        message: expect.stringContaining(
          'Webhook "auth" uses channel "auth", which does not match the pattern orders-.+',
        ),
      });
      expect(await pack.analyze(webhook("orders", { channel: "orders-prod" }))).toEqual([]);
    } finally {
      await pack.configure({});
    }
  });
});
