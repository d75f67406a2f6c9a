import { describe, expect, it } from "vitest";
import { isSecret, mockedPulumi, settled } from "./helpers/mocks";

const { pulumi, registered } = mockedPulumi({
  config: {
    "quickstart:hostname": "hooks.quickstart.test",
    "quickstart:webhookSecret": "quickstart-webhook-secret-0001",
    "quickstart:filesDir": "quickstart/.well-known-files",
  },
});

describe("the quickstart program under setMocks", () => {
  it("declares a Domain published to a folder and two webhooks that depend on it", async () => {
    const program = require("../dist/quickstart/index.js") as Record<
      string,
      import("@pulumi/pulumi").Output<unknown>
    >;
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
  });
});
