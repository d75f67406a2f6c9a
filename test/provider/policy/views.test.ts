import { describe, expect, it } from "vitest";
import { DOMAIN_STEP_TYPES, WEBHOOK_TYPES } from "../../../provider/policy/views";
import { SERVED } from "../../helpers/fixtures";

describe("the policy pack's type tokens, read from the registry", () => {
  it("reads the Webhook as a webhook and both domain steps as steps, dynamic or the plugin's, nothing else", () => {
    expect(WEBHOOK_TYPES).toEqual([SERVED.webhook, "service:index:Webhook"]);
    expect([...DOMAIN_STEP_TYPES].sort()).toEqual([
      SERVED.domainRegistration,
      SERVED.domainVerification,
      "service:index:DomainRegistration",
      "service:index:DomainVerification",
    ]);
  });
});
