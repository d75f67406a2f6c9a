import type { MockResourceArgs } from "@pulumi/pulumi/runtime";
import { describe, expect, it } from "vitest";
import { isSecret, mockedPulumi, serviceOutputs, settled } from "./helpers/mocks";

/** The few AWS outputs the program reads, as AWS would return them. */
function awsOutputs(args: MockResourceArgs): Record<string, unknown> {
  const name = args.name;
  switch (args.type) {
    case "aws:lambda/functionUrl:FunctionUrl":
      return { functionUrl: `https://${name}.lambda-url.eu-west-1.on.aws/` };
    case "aws:cloudfront/distribution:Distribution":
      return {
        domainName: "d111111abcdef8.cloudfront.net",
        hostedZoneId: "Z2FDTNDATAQYW2",
        arn: `arn:aws:cloudfront::123456789012:distribution/${name}`,
      };
    case "aws:s3/bucketV2:BucketV2":
      return { arn: `arn:aws:s3:::${name}`, bucketRegionalDomainName: `${name}.s3.eu-west-1.amazonaws.com` };
    case "aws:acm/certificate:Certificate":
      return {
        arn: `arn:aws:acm:us-east-1:123456789012:certificate/${name}`,
        domainValidationOptions: [
          { resourceRecordName: "_x.hooks", resourceRecordType: "CNAME", resourceRecordValue: "_y.acm" },
        ],
      };
    default:
      return serviceOutputs(args);
  }
}

const { pulumi, registered } = mockedPulumi({
  project: "service-webhooks",
  outputs: awsOutputs,
  config: {
    "aws:region": "eu-west-1",
    "service-webhooks:hostname": "hooks.dev.example.com",
    "service-webhooks:zoneName": "example.com",
    "service-webhooks:channel": "dev",
    "service-webhooks:webhookSecret": "example-webhook-secret-0001",
    "service-webhooks:webhooks": JSON.stringify([
      { name: "authentications", filters: [{ key: "activity.name", value: "authentication" }] },
      { name: "fingerprints", filters: [{ key: "activity.name", value: "fingerprint" }] },
    ]),
  },
});

describe("examples/aws-cloudfront under setMocks", () => {
  it("wires CloudFront, S3 verification, the Domain and its webhooks", async () => {
    const program = await import("../examples/aws-cloudfront/index.js");
    await settled(pulumi, [program.domainUuid, ...program.webhookUuids, program.url]);
    const byType = (suffix: string) => registered.filter((r) => r.type.endsWith(suffix));
    const [distribution] = byType(":Distribution");
    expect(distribution!.inputs.aliases).toEqual(["hooks.dev.example.com"]);
    expect(distribution!.inputs.orderedCacheBehaviors).toEqual([
      expect.objectContaining({
        pathPattern: "/service_url_registration/*",
        targetOriginId: "verification",
        viewerProtocolPolicy: "https-only",
      }),
    ]);
    expect(distribution!.inputs.defaultCacheBehavior.targetOriginId).toBe("receiver");
    const [object] = byType(":BucketObjectv2");
    expect(object!.inputs).toMatchObject({
      key: "service_url_registration/v123",
      contentType: "text/plain",
      cacheControl: "no-store",
    });
    expect(isSecret(object!.inputs.content)).toBe(true);
    const hooks = byType(":Webhook");
    expect(hooks.map((h) => [h.name, h.inputs.channel, h.inputs.endpoint])).toEqual([
      ["authentications", "dev", "https://hooks.dev.example.com/service/events"],
      ["fingerprints", "dev", "https://hooks.dev.example.com/service/events"],
    ]);
    expect(byType(":Function").length).toBe(1);
    expect(byType(":DomainRegistration").length).toBe(1);
  });
});
