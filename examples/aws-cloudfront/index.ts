/**
 * Production shape: one CloudFront distribution for the webhook hostname, with an ACM certificate and a
 * Route53 alias. Its default behaviour goes to the receiver (a Lambda function URL); the
 * /service_url_registration/* behaviour goes to a private S3 bucket through Origin Access Control, where
 * the Domain component publishes the verification file. Webhooks depend on the Domain.
 *
 * The receiver's function URL stays public (auth NONE) rather than behind Origin Access Control: through
 * OAC, Lambda accepts a POST only if the sender put the SHA-256 of the body in x-amz-content-sha256, and the
 * Service does not send that header, so every delivery would be refused. The receiver checks
 * Service-Signature before anything else, so a request that bypasses CloudFront gets a 401 and never reaches
 * the table. README.md says more.
 */
import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import * as service from "@service/pulumi";
import { handler } from "./receiver";

const config = new pulumi.Config();
const hostname = config.require("hostname");
const zoneName = config.require("zoneName");
const channel = config.require("channel");
const webhooks = config.requireObject<{ name: string; filters: service.WebhookFilter[] }[]>("webhooks");
const webhookSecret = config.requireSecret("webhookSecret");

/** CloudFront's managed "AllViewerExceptHostHeader" origin request policy: a function URL needs its own Host. */
const ALL_VIEWER_EXCEPT_HOST_HEADER = "b689b0a8-53d0-40ab-baf2-68738e2966ac";

// Certificate: CloudFront only takes ACM certificates from us-east-1.
const usEast1 = new aws.Provider("us-east-1", { region: "us-east-1" });
const zone = aws.route53.getZoneOutput({ name: zoneName });
const certificate = new aws.acm.Certificate(
  "hooks",
  { domainName: hostname, validationMethod: "DNS" },
  { provider: usEast1 },
);
const validationRecord = new aws.route53.Record("hooks-certificate-validation", {
  zoneId: zone.zoneId,
  name: certificate.domainValidationOptions[0]!.resourceRecordName,
  type: certificate.domainValidationOptions[0]!.resourceRecordType,
  records: [certificate.domainValidationOptions[0]!.resourceRecordValue],
  ttl: 60,
});
const validation = new aws.acm.CertificateValidation(
  "hooks",
  { certificateArn: certificate.arn, validationRecordFqdns: [validationRecord.fqdn] },
  { provider: usEast1 },
);

// Receiver: a Lambda function URL, with a table for update_counter ordering.
const counters = new aws.dynamodb.Table("update-counters", {
  attributes: [{ name: "serviceId", type: "S" }],
  hashKey: "serviceId",
  billingMode: "PAY_PER_REQUEST",
});
const receiverRole = new aws.iam.Role("receiver", {
  assumeRolePolicy: aws.iam.assumeRolePolicyForPrincipal({ Service: "lambda.amazonaws.com" }),
});
new aws.iam.RolePolicyAttachment("receiver-logs", {
  role: receiverRole.name,
  policyArn: aws.iam.ManagedPolicy.AWSLambdaBasicExecutionRole,
});
// Least privilege: the receiver reads one counter and writes it conditionally, in this table only.
const countersAccess = new aws.iam.RolePolicy("receiver-counters", {
  role: receiverRole.id,
  policy: pulumi.jsonStringify({
    Version: "2012-10-17",
    Statement: [
      { Effect: "Allow", Action: ["dynamodb:GetItem", "dynamodb:PutItem"], Resource: counters.arn },
    ],
  }),
});
const receiver = new aws.lambda.CallbackFunction(
  "receiver",
  {
    runtime: aws.lambda.Runtime.NodeJS22dX,
    callback: handler,
    role: receiverRole,
    environment: {
      variables: {
        COUNTERS_TABLE: counters.name,
        // During a secret rotation, list the old and the new secret here until the old webhook is gone.
        WEBHOOK_SECRETS: pulumi.jsonStringify([webhookSecret]),
      },
    },
    codePathOptions: { extraExcludePackages: ["@aws-sdk/client-dynamodb"] },
  },
  // The first delivery must not find the function without its table access.
  { dependsOn: [countersAccess] },
);
const receiverUrl = new aws.lambda.FunctionUrl("receiver", {
  functionName: receiver.name,
  authorizationType: "NONE",
});
// A public function URL needs both statements: InvokeFunctionUrl, and (for URLs created since
// October 2025) InvokeFunction limited to calls that come through the URL.
new aws.lambda.Permission("receiver-url", {
  function: receiver.name,
  action: "lambda:InvokeFunctionUrl",
  principal: "*",
  functionUrlAuthType: "NONE",
});
new aws.lambda.Permission("receiver-url-invoke", {
  function: receiver.name,
  action: "lambda:InvokeFunction",
  principal: "*",
  invokedViaFunctionUrl: true,
});

// Verification files: a private bucket that only CloudFront may read.
const verificationBucket = new aws.s3.Bucket("verification", { forceDestroy: true });
new aws.s3.BucketPublicAccessBlock("verification", {
  bucket: verificationBucket.id,
  blockPublicAcls: true,
  blockPublicPolicy: true,
  ignorePublicAcls: true,
  restrictPublicBuckets: true,
});
const originAccess = new aws.cloudfront.OriginAccessControl("verification", {
  originAccessControlOriginType: "s3",
  signingBehavior: "always",
  signingProtocol: "sigv4",
});

const distribution = new aws.cloudfront.Distribution("hooks", {
  enabled: true,
  aliases: [hostname],
  origins: [
    {
      originId: "receiver",
      domainName: receiverUrl.functionUrl.apply((url) => new URL(url).host),
      customOriginConfig: {
        originProtocolPolicy: "https-only",
        httpPort: 80,
        httpsPort: 443,
        originSslProtocols: ["TLSv1.2"],
      },
    },
    {
      originId: "verification",
      domainName: verificationBucket.bucketRegionalDomainName,
      originAccessControlId: originAccess.id,
    },
  ],
  defaultCacheBehavior: {
    targetOriginId: "receiver",
    viewerProtocolPolicy: "https-only",
    allowedMethods: ["GET", "HEAD", "OPTIONS", "PUT", "POST", "PATCH", "DELETE"],
    cachedMethods: ["GET", "HEAD"],
    cachePolicyId: service.CACHING_DISABLED_POLICY_ID,
    originRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
  },
  orderedCacheBehaviors: [service.verificationCacheBehavior("verification")],
  restrictions: { geoRestriction: { restrictionType: "none" } },
  viewerCertificate: {
    acmCertificateArn: validation.certificateArn,
    sslSupportMethod: "sni-only",
    minimumProtocolVersion: "TLSv1.2_2021",
  },
});

const bucketPolicy = new aws.s3.BucketPolicy("verification", {
  bucket: verificationBucket.id,
  policy: pulumi.jsonStringify({
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Allow",
        Principal: { Service: "cloudfront.amazonaws.com" },
        Action: "s3:GetObject",
        Resource: pulumi.interpolate`${verificationBucket.arn}/service_url_registration/*`,
        Condition: { StringEquals: { "AWS:SourceArn": distribution.arn } },
      },
    ],
  }),
});

const alias = new aws.route53.Record("hooks", {
  zoneId: zone.zoneId,
  name: hostname,
  type: "A",
  aliases: [
    { name: distribution.domainName, zoneId: distribution.hostedZoneId, evaluateTargetHealth: false },
  ],
});

// The domain is verified once the hostname serves the file: after the distribution, its DNS name and
// the bucket policy exist.
const domain = new service.Domain(
  "hooks",
  { domainName: hostname, publish: service.s3Publisher({ bucket: verificationBucket.id }) },
  { dependsOn: [distribution, alias, bucketPolicy] },
);

const endpoint = pulumi.interpolate`https://${domain.domainName}/service/events`;
const hooks = webhooks.map(
  (hook) =>
    new service.Webhook(
      hook.name,
      { endpoint, secretKey: webhookSecret, channel, filters: hook.filters },
      { dependsOn: [domain] },
    ),
);

export const url = pulumi.interpolate`https://${hostname}`;
export const domainUuid = domain.domainUuid;
export const webhookUuids = hooks.map((h) => h.webhookUuid);
