/** The domain steps as the registry declares them (provider/domain/declaration.ts), served by the real dynamic-provider host. */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainRegistration, domainVerification } from "../../../provider/domain/declaration";
import { REGISTRATION_SECRETS, VERIFICATION_SECRETS } from "../../../provider/domain/resource";
import { domainLifecycleOverGrpc, providerTexts } from "../../helpers/domain-lifecycle";
import { startDynamicHost } from "../../helpers/dynamic-host";
import { HOST } from "../../helpers/fixtures";
import { mockedPulumi, settled } from "../../helpers/mocks";
import { startWorld, type World } from "../../helpers/world";

describe("the registry's entries", () => {
  it("name the secrets that the declarations' fields mark", () => {
    expect(domainRegistration.secrets).toEqual(REGISTRATION_SECRETS);
    expect(domainVerification.secrets).toEqual(VERIFICATION_SECRETS);
  });
});

describe("the dynamic-provider host", () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world.close();
  });

  describe("the real dynamic-provider host, over gRPC, in this repository", () => {
    it("starts, verifies, reads and deletes a domain", async () => {
      const { pulumi, service, registered } = mockedPulumi();
      const domain = new service.Domain("hooks", {
        domainName: HOST,
        publish: service.directoryPublisher(process.cwd()),
      });
      await settled(pulumi, [domain.urn]);
      await settled(pulumi, [domain.domainUuid]);
      const texts = providerTexts(registered);
      expect(texts.registration).not.toBe(texts.verification);
      const host = await startDynamicHost({ cwd: process.cwd(), env: { SERVICE_RATE_LIMIT: "0" } });
      try {
        await domainLifecycleOverGrpc(host, texts, world);
      } finally {
        await host.close();
      }
    });
  });
});
