import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isSecret, mockedPulumi, reveal, serviceOutputs, settled } from "./helpers/mocks";

const { pulumi, service, registered } = mockedPulumi({ outputs: serviceOutputs });
const REGISTRATION = "pulumi-nodejs:dynamic/service:DomainRegistration";
const VERIFICATION = "pulumi-nodejs:dynamic/service:DomainVerification";

const ofType = (type: string) => registered.filter((r) => r.type === type);

describe("Domain under setMocks", () => {
  it("registers start, publish and finish in order, with the key, content type and secret flags", async () => {
    const dir = mkdtempSync(join(tmpdir(), "files-"));
    const domain = new service.Domain("hooks", {
      domainName: "hooks.acme.test",
      publish: service.directoryPublisher(dir),
      timeout: 30,
    });
    await settled(pulumi, [domain.domainUuid, domain.url, domain.status]);
    const names = registered.map((r) => `${r.type.split(":").pop()}:${r.name}`);
    expect(names).toEqual([
      "Domain:hooks",
      "DomainRegistration:hooks-registration",
      "VerificationFile:hooks-verification-file",
      "DomainVerification:hooks-verification",
    ]);
    const [, , file, verification] = registered;
    expect(file!.inputs.key).toBe("service_url_registration/v123");
    expect(file!.inputs.directory).toBe(dir);
    expect(isSecret(file!.inputs.content)).toBe(true);
    expect(reveal(file!.inputs.content)).toBe("token-abc");
    expect(verification!.inputs).toMatchObject({
      domainName: "hooks.acme.test",
      verifier: "v123",
      timeout: 30,
    });
    expect(isSecret(verification!.inputs.registerToken)).toBe(true);
    expect(await settled(pulumi, [domain.domainUuid, domain.status, domain.url])).toEqual([
      "uuid-1",
      "registered",
      "https://hooks.acme.test/service_url_registration/v123",
    ]);
    for (const child of registered.slice(1)) expect(child.name.startsWith("hooks-")).toBe(true);
  });

  it("s3Publisher makes a BucketObjectv2 of the secret token, text/plain and no-store", async () => {
    registered.length = 0;
    const domain = new service.Domain("s3", {
      domainName: "hooks.acme.test",
      publish: service.s3Publisher({ bucket: "verification-bucket", keyPrefix: "verify/" }),
    });
    await settled(pulumi, [domain.domainUuid]);
    const [object] = registered.filter((r) => r.type === "aws:s3/bucketObjectv2:BucketObjectv2");
    expect(object!.name).toBe("s3-verification-file");
    expect(object!.inputs).toMatchObject({
      bucket: "verification-bucket",
      key: "verify/service_url_registration/v123",
      contentType: "text/plain",
      cacheControl: "no-store",
    });
    expect(isSecret(object!.inputs.content)).toBe(true);
  });

  it("adopts without registering or publishing", async () => {
    registered.length = 0;
    const domain = new service.Domain("old", { domainName: "hooks.acme.test", adopt: true });
    expect(await settled(pulumi, [domain.status])).toEqual(["adopted"]);
    expect(ofType(REGISTRATION)).toEqual([]);
    expect(ofType(VERIFICATION)[0]!.inputs).toMatchObject({ adopt: true, domainName: "hooks.acme.test" });
  });

  it("refuses a Domain with neither publish nor adopt, naming the property", () => {
    let error: unknown;
    try {
      new service.Domain("bad", { domainName: "hooks.acme.test" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(pulumi.InputPropertyError);
    expect(error).toMatchObject({
      propertyPath: "publish",
      reason: expect.stringMatching(/required unless adopt is true/),
    });
  });

  it("builds the CloudFront behaviour for the verification path", () => {
    expect(service.verificationCacheBehavior("verification-origin")).toEqual({
      pathPattern: "/service_url_registration/*",
      targetOriginId: "verification-origin",
      viewerProtocolPolicy: "https-only",
      allowedMethods: ["GET", "HEAD"],
      cachedMethods: ["GET", "HEAD"],
      cachePolicyId: "4135ea2d-6df8-44a3-9df3-4b5a84be39ad",
      compress: false,
    });
  });
});
