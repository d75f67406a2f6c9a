import type { ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { MAX_ACTIVE_WEBHOOKS } from "../../../contract/limits";
import { FORM_FACTORS } from "../../../contract/webhooks/requests";
import { UNKNOWN } from "../../../provider/lifecycle/unknowns";
import { servicePolicies } from "../../../provider/policy/index";
import { DOMAIN_STEP_TYPES, DOMAIN_TYPE, WEBHOOK_TYPES } from "../../../provider/policy/views";
import {
  domain,
  type EngineResource,
  foreignResource,
  type PoliciesConfig,
  probeStacks,
  recordRegistrations,
  runPolicies,
  runResourcePolicy,
  runStackPolicy,
  secret,
  stackResource,
  webhook,
} from "../../helpers/analyzer";
import { OTHER_HOST, SECRET } from "../../helpers/fixtures";
import { mockedPulumi, serviceOutputs, settled } from "../../helpers/mocks";

const report = (stack: readonly EngineResource[], config?: PoliciesConfig) =>
  runPolicies(servicePolicies, stack, config);
const policyNames = async (stack: readonly EngineResource[], config?: PoliciesConfig) =>
  (await report(stack, config)).map((f) => f.policy);

const hooks = domain("hooks");
const onHooks = { dependencies: hooks.children };

describe("servicePolicies", () => {
  it("has stable names, a description, a default enforcement level and config where it can be tuned", () => {
    expect(
      servicePolicies.map((p) => [p.name, p.enforcementLevel, Object.keys(p.configSchema?.properties ?? {})]),
    ).toEqual([
      ["service-webhook-quota", "mandatory", ["quota"]],
      ["service-webhook-replace-at-quota", "advisory", ["quota"]],
      ["service-webhook-domain-in-stack", "mandatory", ["externalHosts"]],
      ["service-webhook-depends-on-domain", "mandatory", []],
      ["service-webhook-unique", "mandatory", []],
      ["service-webhook-secret-in-plain-text", "mandatory", []],
      ["service-webhook-channel", "mandatory", ["channelPattern"]],
      ["service-webhook-filters", "mandatory", ["allowedFilterKeys", "allowedFormFactors"]],
    ]);
    const schema = (name: string) => servicePolicies.find((p) => p.name === name)!.configSchema!;
    expect(schema("service-webhook-quota").properties.quota).toMatchObject({
      type: "integer",
      minimum: 1,
      default: MAX_ACTIVE_WEBHOOKS,
    });
    expect(schema("service-webhook-filters").properties.allowedFormFactors).toMatchObject({
      type: "array",
      items: { enum: [...FORM_FACTORS] },
      default: [...FORM_FACTORS],
    });
    expect(schema("service-webhook-domain-in-stack").required).toBeUndefined();
  });

  it("finds each broken probe stack with exactly its policy, and nothing in the clean one", async () => {
    expect(await policyNames(probeStacks.elevenWebhooks)).toEqual([
      "service-webhook-quota",
      "service-webhook-replace-at-quota",
    ]);
    expect(await policyNames(probeStacks.hostWithoutDomain)).toEqual(["service-webhook-domain-in-stack"]);
    expect(await policyNames(probeStacks.identicalWebhooks)).toEqual(["service-webhook-unique"]);
    expect(await policyNames(probeStacks.noDomainDependency)).toEqual(["service-webhook-depends-on-domain"]);
    expect(await report(probeStacks.clean)).toEqual([]);
  });

  it("runs the resource policies on Webhooks only, and masks a secret wherever a message quotes it", async () => {
    const leaky = webhook("leaky", { ...onHooks, channel: `ch-${SECRET}` });
    const stack = [stackResource, ...hooks.resources, leaky, foreignResource(`ch-${SECRET}`)];
    expect(await report(stack)).toEqual([
      {
        policy: "service-webhook-secret-in-plain-text",
        urn: leaky.urn,
        message: expect.stringContaining("channel"),
      },
    ]);
    const found = await report(stack, { "service-webhook-channel": { channelPattern: "orders" } });
    expect(found[1]).toEqual({
      policy: "service-webhook-channel",
      urn: leaky.urn,
      message: expect.stringContaining('uses channel "ch-[REDACTED]"'),
    });
    expect(JSON.stringify(found)).not.toContain(SECRET);
  });

  it("takes each policy's config, with its defaults where a setting is left out", async () => {
    const stray = webhook("stray", { endpoint: `https://${OTHER_HOST}/events`, channel: "orders" });
    const stack = [...probeStacks.clean, stray];
    expect(await policyNames(stack)).toEqual(["service-webhook-domain-in-stack"]);
    expect(
      await policyNames(stack, {
        "service-webhook-quota": { quota: 2 },
        "service-webhook-domain-in-stack": { externalHosts: [OTHER_HOST] },
        "service-webhook-channel": { channelPattern: "orders|prints" },
        "service-webhook-filters": { allowedFormFactors: ["lightbox"] },
      }),
    ).toEqual([
      "service-webhook-quota", // 3 webhooks; service-webhook-replace-at-quota keeps its default quota
      "service-webhook-channel", // "auth" has the default channel
      "service-webhook-filters", // "prints" also filters on microscopic
    ]);
  });

  it("stops with a message naming the policy and the setting when the config is invalid", async () => {
    const quota = servicePolicies[0] as StackValidationPolicy;
    await expect(runStackPolicy(quota, probeStacks.clean, { quota: 0 })).rejects.toThrow(
      /^Invalid config for policy service-webhook-quota: quota Too small: expected number to be >=1/,
    );
    const channel = servicePolicies.find(
      (p) => p.name === "service-webhook-channel",
    ) as ResourceValidationPolicy;
    await expect(runResourcePolicy(channel, webhook("w"), { channelPattern: "(" })).rejects.toThrow(
      "channelPattern must be a valid regular expression",
    );
  });

  it("reports nothing it cannot know at preview, and does not give up on the rest", async () => {
    const later = domain("later", UNKNOWN);
    const stack = [
      ...later.resources,
      webhook("endpoint-later", { endpoint: UNKNOWN }),
      webhook("filters-later", { filters: UNKNOWN, channel: `ch-${SECRET}` }),
      webhook("filters-later-too", { filters: [{ key: "activity.name", value: UNKNOWN }] }),
      webhook("secret-later", { secretKey: secret(UNKNOWN), channel: UNKNOWN }),
      webhook("credentials-later", { connection: UNKNOWN }),
      webhook("version-later", { apiVersion: UNKNOWN }),
      // The same webhook as credentials-later and version-later, were their unknowns taken for values.
      webhook("twin"),
    ];
    // Only what is known decides: in "filters-later" the secret key is known and sits in the channel.
    expect(await report(stack)).toEqual([
      expect.objectContaining({ policy: "service-webhook-secret-in-plain-text", urn: stack[4]!.urn }),
    ]);
  });
});

const { pulumi, service } = mockedPulumi({
  outputs: serviceOutputs,
  config: {
    "quickstart:hostname": "hooks.quickstart.test",
    "quickstart:webhookSecret": "quickstart-webhook-secret-0001",
    "quickstart:filesDir": "tools/quickstart/.well-known-files",
  },
});
const recorded = recordRegistrations();

const byName = (resources: readonly EngineResource[], name: string) =>
  resources.find((r) => r.name === name)!;

describe("programs registered through the Node SDK, as the engine passes them to the policies", () => {
  it("finds nothing wrong with the quickstart program", async () => {
    // As Pulumi's nodejs runtime loads it: Node strips the types (Pulumi.yaml names this file).
    const program = require("../../../tools/quickstart/index.mts") as Record<
      string,
      import("@pulumi/pulumi").Output<unknown>
    >;
    await settled(pulumi, [program.authenticationWebhook!, program.fingerprintWebhook!, program.domainUuid!]);
    const stack = recorded();
    // The program's resources are the dynamic ones; the policies read the plugin's tokens as well.
    const read = [...WEBHOOK_TYPES, DOMAIN_TYPE, ...DOMAIN_STEP_TYPES];
    expect(stack.map((r) => r.type)).toEqual(
      expect.arrayContaining(read.filter((t) => t.startsWith("pulumi-nodejs:dynamic") || t === DOMAIN_TYPE)),
    );
    expect(await runPolicies(servicePolicies, stack)).toEqual([]);
  });

  it("sees `dependsOn: [domain]` as the component's children, and the domainName output as a dependency", async () => {
    const domain = new service.Domain("shop", { domainName: "shop.acme.test", adopt: true });
    const common = {
      secretKey: pulumi.secret(SECRET),
      filters: [{ key: "activity.name", value: "authentication" }],
    };
    const hooks = [
      new service.Webhook(
        "depends-on",
        { ...common, endpoint: "https://shop.acme.test/events", channel: "a" },
        { dependsOn: [domain] },
      ),
      new service.Webhook("via-output", {
        ...common,
        endpoint: pulumi.interpolate`https://${domain.domainName}/events`,
        channel: "b",
      }),
      new service.Webhook("loose", { ...common, endpoint: "https://shop.acme.test/events", channel: "c" }),
    ];
    await settled(pulumi, [domain.domainUuid, ...hooks.map((h) => h.urn)]);
    const stack = recorded();

    // The Node SDK replaces a component in dependsOn by the custom resources under it; the component's
    // own URN does not reach the engine.
    const verification = byName(stack, "shop-verification");
    expect(byName(stack, "depends-on").dependencies).toEqual([verification.urn]);
    expect(byName(stack, "via-output").propertyDependencies).toEqual({ endpoint: [verification.urn] });

    const found = await runPolicies(servicePolicies, stack);
    expect(found.map((d) => [d.policy, d.urn])).toEqual([
      ["service-webhook-depends-on-domain", byName(stack, "loose").urn],
    ]);
  });
});
