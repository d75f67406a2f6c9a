import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Output } from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { isSecret, mockedPulumi, settled } from "../../helpers/mocks";

const { pulumi, registered } = mockedPulumi({
  config: {
    "quickstart:hostname": "hooks.quickstart.test",
    "quickstart:webhookSecret": "quickstart-webhook-secret-0001",
    "quickstart:filesDir": "tools/quickstart/.well-known-files",
  },
});

/**
 * The dependencies the program declares for each resource, as the engine receives them: the mock monitor
 * does not hand them to `newResource`, so they are read off the register requests it gets.
 */
const dependencies = new Map<string, string[]>();
const monitor = pulumi.runtime.getMonitor() as unknown as {
  registerResource(req: any, callback: (...args: unknown[]) => void): void;
};
const register = monitor.registerResource.bind(monitor);
monitor.registerResource = (req, callback) => {
  dependencies.set(req.getName(), req.getDependenciesList());
  register(req, callback);
};

const root = join(__dirname, "../../..");
const project = readFileSync(join(root, "Pulumi.yaml"), "utf8");

describe("the quickstart program", () => {
  it("is TypeScript that Node runs as it is, named by Pulumi.yaml, with Pulumi's TypeScript loader off", () => {
    expect(project).toMatch(/^main: tools\/quickstart\/index\.mts$/m);
    expect(project).toMatch(/^\s+typescript: false$/m);
  });
});

describe("the quickstart program under setMocks", () => {
  it("declares a Domain published to a folder and two webhooks that depend on it", async () => {
    // Loaded as Pulumi's nodejs runtime loads a program in a CommonJS project: require(main), which Node
    // (22.18 and later) answers by stripping the types. No build step, no ts-node.
    const main = /^main: (.+)$/m.exec(project)![1]!;
    const program = require(join(root, main)) as Record<string, Output<unknown>>;
    await settled(pulumi, [program.authenticationWebhook!, program.fingerprintWebhook!, program.domainUuid!]);
    const kinds = registered.map((r) => `${r.type.split(":").pop()}:${r.name}`);
    expect(kinds).toEqual([
      "Domain:hooks",
      "DomainRegistration:hooks-registration",
      "VerificationFile:hooks-verification-file",
      "DomainVerification:hooks-verification",
      "Webhook:authentications",
      "Webhook:fingerprints",
    ]);
    const hooks = registered.filter((r) => r.type.endsWith(":Webhook"));
    expect(hooks.map((h) => h.inputs.filters)).toEqual([
      [{ key: "activity.name", value: "authentication" }],
      [{ key: "activity.name", value: "fingerprint" }],
    ]);
    for (const hook of hooks) {
      expect(hook.inputs.endpoint).toBe("https://hooks.quickstart.test/service/events");
      expect(isSecret(hook.inputs.secretKey)).toBe(true);
    }
    expect(registered.find((r) => r.name === "hooks-verification-file")!.inputs.directory).toMatch(
      /quickstart\/\.well-known-files$/,
    );
    // dependsOn: [domain] reaches the engine as the Domain's steps: a webhook is created only once the
    // verification has finished, and deleted before the domain is deactivated.
    const domainSteps = ["hooks-registration", "hooks-verification-file", "hooks-verification"];
    for (const hook of ["authentications", "fingerprints"]) {
      const urns = dependencies.get(hook) ?? [];
      for (const step of domainSteps) {
        expect(
          urns.some((urn) => urn.endsWith(`::${step}`)),
          `${hook} depends on ${step}`,
        ).toBe(true);
      }
    }
  });
});
