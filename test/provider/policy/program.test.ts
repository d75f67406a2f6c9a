import { describe, expect, it } from "vitest";
import { servicePolicies } from "../../../provider/policy/index";
import { DOMAIN_STEP_TYPES, DOMAIN_TYPE, WEBHOOK_TYPES } from "../../../provider/policy/views";
import { type EngineResource, recordRegistrations, runPolicies } from "../../helpers/analyzer";
import { SECRET } from "../../helpers/fixtures";
import { mockedPulumi, serviceOutputs, settled } from "../../helpers/mocks";

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
