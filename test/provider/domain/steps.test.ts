/** The domain steps' classes (provider/domain/steps.ts) in a program. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ResourceTransformationArgs } from "@pulumi/pulumi";
import type { MockResourceArgs } from "@pulumi/pulumi/runtime";
import { describe, expect, it } from "vitest";
import { isSecret, mockedPulumi, reveal, settled } from "../../helpers/mocks";

describe("the classes in a program", () => {
  const REGISTRATION = "pulumi-nodejs:dynamic/service:DomainRegistration";
  const VERIFICATION = "pulumi-nodejs:dynamic/service:DomainVerification";

  /**
   * What each step's create would output, named after the resource, so that a component output can be
   * traced to the child it came from.
   */
  function stepOutputs({ type, name, inputs }: MockResourceArgs): Record<string, unknown> {
    if (type === REGISTRATION) {
      return {
        verifier: `${name}-verifier`,
        key: `service_url_registration/${name}-verifier`,
        registerToken: `${name}-token`,
        url: `https://${inputs.domainName}/service_url_registration/${name}-verifier`,
        expiresAt: "2030-01-01T00:00:00Z",
      };
    }
    if (type === VERIFICATION)
      return { domainUuid: `${name}-uuid`, status: inputs.adopt ? "adopted" : "registered" };
    return {};
  }

  /** A fresh mocked program for each test: nothing registered by another test is seen. */
  const program = () => mockedPulumi({ outputs: stepOutputs });

  describe("Domain under setMocks", () => {
    it("registers start, publish and finish in order, passing each step's outputs to the next", async () => {
      const { pulumi, service, registered } = program();
      const dir = mkdtempSync(join(tmpdir(), "files-"));
      const domain = new service.Domain("hooks", {
        domainName: "hooks.acme.test",
        publish: service.directoryPublisher(dir),
        timeout: 30,
      });
      await settled(pulumi, [domain.domainUuid, domain.url, domain.status]);
      expect(registered.map((r) => `${r.type.split(":").pop()}:${r.name}`)).toEqual([
        "Domain:hooks",
        "DomainRegistration:hooks-registration",
        "VerificationFile:hooks-verification-file",
        "DomainVerification:hooks-verification",
      ]);
      const [component, , file, verification] = registered;
      expect(component!.inputs).toEqual({ domainName: "hooks.acme.test" });
      expect(file!.inputs).toMatchObject({
        key: "service_url_registration/hooks-registration-verifier",
        directory: dir,
      });
      expect(isSecret(file!.inputs.content)).toBe(true);
      expect(reveal(file!.inputs.content)).toBe("hooks-registration-token");
      expect(verification!.inputs).toMatchObject({
        domainName: "hooks.acme.test",
        verifier: "hooks-registration-verifier",
        url: "https://hooks.acme.test/service_url_registration/hooks-registration-verifier",
        timeout: 30,
      });
      expect(isSecret(verification!.inputs.registerToken)).toBe(true);
      // The component's outputs are the verification's and the registration's, not values of its own.
      expect(await settled(pulumi, [domain.domainUuid, domain.url])).toEqual([
        "hooks-verification-uuid",
        "https://hooks.acme.test/service_url_registration/hooks-registration-verifier",
      ]);
    });

    it("passes retainOnDelete, customTimeouts, deletedWith and dependsOn to its steps (regression)", async () => {
      const { pulumi, service } = program();
      const seen: ResourceTransformationArgs[] = [];
      const cdn = new pulumi.ComponentResource("test:index:Cdn", "cdn");
      const keeper = new pulumi.ComponentResource("test:index:Keeper", "keeper");
      const domain = new service.Domain(
        "kept",
        { domainName: "hooks.acme.test", publish: service.directoryPublisher(tmpdir()) },
        {
          retainOnDelete: true,
          customTimeouts: { create: "20m" },
          deletedWith: keeper,
          dependsOn: [cdn],
          // Old-style transformations run in the SDK for the component and every child: they see each
          // child's options as registered.
          transformations: [
            (args) => {
              seen.push(args);
              return undefined;
            },
          ],
        },
      );
      await settled(pulumi, [domain.domainUuid]);
      const steps = seen.filter((s) => s.type !== "service:index:Domain");
      expect(steps.map((s) => s.name)).toEqual([
        "kept-registration",
        "kept-verification-file",
        "kept-verification",
      ]);
      for (const step of steps) {
        expect(step.opts, step.name).toMatchObject({
          retainOnDelete: true,
          customTimeouts: { create: "20m" },
          deletedWith: keeper,
        });
      }
      expect(steps[0]!.opts.dependsOn).toEqual([cdn]);
    });

    it("s3Publisher makes a BucketObjectv2 of the secret token, text/plain and no-store", async () => {
      const { pulumi, service, registered } = program();
      const domain = new service.Domain("s3", {
        domainName: "hooks.acme.test",
        publish: service.s3Publisher({ bucket: "verification-bucket", keyPrefix: "verify/" }),
      });
      await settled(pulumi, [domain.domainUuid]);
      const [object] = registered.filter((r) => r.type === "aws:s3/bucketObjectv2:BucketObjectv2");
      expect(object!.name).toBe("s3-verification-file");
      expect(object!.inputs).toMatchObject({
        bucket: "verification-bucket",
        key: "verify/service_url_registration/s3-registration-verifier",
        contentType: "text/plain",
        cacheControl: "no-store",
      });
      expect(isSecret(object!.inputs.content)).toBe(true);
    });

    it("adopts without registering or publishing", async () => {
      const { pulumi, service, registered } = program();
      const domain = new service.Domain("old", { domainName: "hooks.acme.test", adopt: true });
      expect(await settled(pulumi, [domain.status])).toEqual(["adopted"]);
      expect(registered.filter((r) => r.type === REGISTRATION)).toEqual([]);
      expect(registered.find((r) => r.type === VERIFICATION)!.inputs).toMatchObject({
        adopt: true,
        domainName: "hooks.acme.test",
      });
    });

    it("refuses a Domain with neither publish nor adopt, naming the property", async () => {
      const { pulumi, service } = program();
      let error: unknown;
      try {
        new service.Domain("bad", { domainName: "hooks.acme.test" });
      } catch (e) {
        error = e;
      }
      // The component registered itself before refusing; let that registration finish in this program.
      await settled(pulumi, [new pulumi.ComponentResource("test:index:After", "after").urn]);
      expect(error).toBeInstanceOf(pulumi.InputPropertyError);
      expect(error).toMatchObject({
        propertyPath: "publish",
        reason: expect.stringMatching(/required unless adopt is true/),
      });
    });

    it("builds the CloudFront behaviour for the verification path", () => {
      const { service } = program();
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
});
