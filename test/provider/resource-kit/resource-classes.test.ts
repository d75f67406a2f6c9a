/**
 * This package's resource classes as a TypeScript program constructs them, under Pulumi's mocks.
 *
 * Each class exposes as outputs exactly what the provider's schema declares for its type, and the
 * inputs it was given. Regression: a Webhook given no `channel` or `apiVersion` had no such output (its
 * type said `Output<string>`, its value was undefined), and each carried outputs no type declared
 * (`secretKeyHash`, and `connection` when none was given).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as PulumiModule from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { HOST, webhookArgs } from "../../helpers/fixtures";
import { mockedPulumi, serviceOutputs, settled } from "../../helpers/mocks";

const SCHEMA = JSON.parse(readFileSync(join(__dirname, "../../../schema.json"), "utf8")) as {
  resources: Record<string, { properties: Record<string, unknown> }>;
};
const declaredOutputs = (type: string) => Object.keys(SCHEMA.resources[`service:index:${type}`]!.properties);

/** The names of the outputs a resource object carries (the SDK's own and the stored provider's aside). */
function outputsOf(pulumi: typeof PulumiModule, resource: PulumiModule.Resource): string[] {
  const members = resource as unknown as Record<string, unknown>;
  return Object.keys(members)
    .filter(
      (key) =>
        pulumi.Output.isInstance(members[key]) && !["urn", "id"].includes(key) && !key.startsWith("__"),
    )
    .sort();
}

/** What the schema declares for `type`, and the inputs given. */
const expectedOutputs = (type: string, given: readonly string[]) =>
  [...new Set([...declaredOutputs(type), ...given])].sort();

/** Each class with only its required inputs. */
function constructions(service: ReturnType<typeof mockedPulumi>["service"]) {
  const registration = { domainName: HOST };
  return {
    Webhook: { inputs: webhookArgs(), make: () => new service.Webhook("hook", webhookArgs()) },
    DomainRegistration: {
      inputs: registration,
      make: () => new service.DomainRegistration("registration", registration),
    },
    DomainVerification: {
      inputs: registration,
      make: () => new service.DomainVerification("verification", registration),
    },
    VerificationFile: {
      inputs: { directory: "/srv/www", key: "k", content: "c" },
      make: () => new service.VerificationFile("file", { directory: "/srv/www", key: "k", content: "c" }),
    },
  };
}

describe("the resource classes' outputs", () => {
  it("are what the schema declares for each type, and the inputs given, with only the required inputs", async () => {
    const { pulumi, service } = mockedPulumi({ outputs: serviceOutputs });
    const made: PulumiModule.CustomResource[] = [];
    for (const [type, { inputs, make }] of Object.entries(constructions(service))) {
      const resource = make();
      made.push(resource);
      expect(outputsOf(pulumi, resource), type).toEqual(expectedOutputs(type, Object.keys(inputs)));
    }
    await settled(
      pulumi,
      made.map((r) => r.urn),
    );
  });

  it("of a Domain's steps are the schema's outputs and the inputs the Domain passed on, none undefined", async () => {
    const { pulumi, service } = mockedPulumi({ outputs: serviceOutputs });
    const domain = new service.Domain("domain", {
      domainName: HOST,
      publish: service.directoryPublisher("/srv/www"),
    });
    const adopted = new service.Domain("adopted", { domainName: HOST, adopt: true });
    expect(outputsOf(pulumi, domain.registration!)).toEqual(
      expectedOutputs("DomainRegistration", ["domainName"]),
    );
    const passed = ["domainName", "verifier", "url", "registerToken", "expiresAt"];
    expect(outputsOf(pulumi, domain.verification)).toEqual(expectedOutputs("DomainVerification", passed));
    expect(outputsOf(pulumi, adopted.verification)).toEqual(expectedOutputs("DomainVerification", ["adopt"]));
    await settled(pulumi, [domain.urn, adopted.urn, domain.verification.urn, adopted.verification.urn]);
  });

  it("include a Webhook's channel and apiVersion left out, with the values the provider answered", async () => {
    const { pulumi, service } = mockedPulumi({
      outputs: (args) => (args.type.endsWith(":Webhook") ? { channel: "default", apiVersion: "2.0" } : {}),
    });
    const hook = new service.Webhook("hook", webhookArgs());
    expect(await settled(pulumi, [hook.channel, hook.apiVersion])).toEqual(["default", "2.0"]);
  });
});
