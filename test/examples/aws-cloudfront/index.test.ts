import type { MockResourceArgs } from "@pulumi/pulumi/runtime";
import { beforeAll, describe, expect, it } from "vitest";
import { isSecret, mockedPulumi, serviceOutputs, settled } from "../../helpers/mocks";

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
    case "aws:s3/bucket:Bucket":
      return { arn: `arn:aws:s3:::${name}`, bucketRegionalDomainName: `${name}.s3.eu-west-1.amazonaws.com` };
    case "aws:dynamodb/table:Table":
      return { arn: `arn:aws:dynamodb:eu-west-1:123456789012:table/${name}`, name };
    case "aws:iam/role:Role":
      return { arn: `arn:aws:iam::123456789012:role/${name}`, name };
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
  // The program runs once; every test reads what it registered.
  beforeAll(async () => {
    const program = await import("../../../examples/aws-cloudfront/index.js");
    await settled(pulumi, [program.domainUuid, ...program.webhookUuids, program.url]);
  });

  it("wires CloudFront, S3 verification, the Domain and its webhooks", () => {
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

  it("keeps verification files in an aws.s3.Bucket, not the deprecated BucketV2", () => {
    expect(registered.filter((r) => r.type === "aws:s3/bucketV2:BucketV2")).toEqual([]);
    const [bucket] = registered.filter((r) => r.type === "aws:s3/bucket:Bucket");
    expect(bucket!.name).toBe("verification");
  });

  it("gives the receiver GetItem and PutItem on its own table and nothing wider", () => {
    const allInputs = JSON.stringify(registered.map((r) => r.inputs));
    expect(allInputs).not.toContain("DynamoDBFullAccess");
    const policies = registered.filter((r) => r.type === "aws:iam/rolePolicy:RolePolicy");
    expect(policies.map((p) => JSON.parse(p.inputs.policy).Statement)).toEqual([
      [
        {
          Effect: "Allow",
          Action: ["dynamodb:GetItem", "dynamodb:PutItem"],
          Resource: "arn:aws:dynamodb:eu-west-1:123456789012:table/update-counters",
        },
      ],
    ]);
    const [fn] = registered.filter((r) => r.type === "aws:lambda/function:Function");
    expect(fn!.inputs.role).toBe("arn:aws:iam::123456789012:role/receiver");
    const attachments = registered.filter(
      (r) => r.type === "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
    );
    expect(attachments.map((a) => a.inputs.policyArn)).toEqual([
      "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
    ]);
  });

  it("lets anyone call the receiver's function URL, and only through the URL", () => {
    const [url] = registered.filter((r) => r.type === "aws:lambda/functionUrl:FunctionUrl");
    expect(url!.inputs.authorizationType).toBe("NONE");
    const permissions = registered
      .filter((r) => r.type === "aws:lambda/permission:Permission")
      .map((p) => p.inputs)
      .map(({ action, principal, functionUrlAuthType, invokedViaFunctionUrl }) => ({
        action,
        principal,
        functionUrlAuthType,
        invokedViaFunctionUrl,
      }));
    expect(permissions).toEqual([
      {
        action: "lambda:InvokeFunctionUrl",
        principal: "*",
        functionUrlAuthType: "NONE",
        invokedViaFunctionUrl: undefined,
      },
      {
        action: "lambda:InvokeFunction",
        principal: "*",
        functionUrlAuthType: undefined,
        invokedViaFunctionUrl: true,
      },
    ]);
  });
});
