import * as pulumi from "@pulumi/pulumi";
import { VERIFICATION_PATH_PATTERN } from "../../contract/domains/verification";
import type { Publisher } from "./publisher";

/** Where `s3Publisher` puts the verification file. */
export interface S3PublisherArgs {
  /** The bucket (name or resource id) that CloudFront serves /service_url_registration/* from. */
  readonly bucket: pulumi.Input<string>;
  /** Prepended to the key, for a bucket served under an origin path (e.g. "verification/"). */
  readonly keyPrefix?: pulumi.Input<string>;
}

/**
 * Publishes the verification file as an S3 object: the token as secret content, text/plain, and
 * Cache-Control: no-store so that no cache serves a stale token. Needs @pulumi/aws in the program.
 */
export function s3Publisher(args: S3PublisherArgs): Publisher {
  return (file, opts) => {
    // @pulumi/aws is an optional peer dependency: loaded only by programs that publish to S3.
    const aws = require("@pulumi/aws") as typeof import("@pulumi/aws");
    return new aws.s3.BucketObjectv2(
      opts.name,
      {
        bucket: args.bucket,
        key: args.keyPrefix === undefined ? file.key : pulumi.interpolate`${args.keyPrefix}${file.key}`,
        content: pulumi.secret(file.content),
        contentType: file.contentType,
        cacheControl: "no-store",
      },
      opts.resourceOptions,
    );
  };
}

/** CloudFront's managed "CachingDisabled" cache policy. */
export const CACHING_DISABLED_POLICY_ID = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad";

/** The shape of a CloudFront ordered cache behaviour (assignable to aws.cloudfront's input type). */
export interface VerificationCacheBehavior {
  /** `/service_url_registration/*` */
  readonly pathPattern: string;
  /** The origin that serves the verification files (the bucket's). */
  readonly targetOriginId: pulumi.Input<string>;
  /** HTTPS only, without redirecting plain HTTP: the service follows no redirect. */
  readonly viewerProtocolPolicy: "https-only";
  /** GET and HEAD. */
  readonly allowedMethods: string[];
  /** GET and HEAD. */
  readonly cachedMethods: string[];
  /** CloudFront's managed CachingDisabled policy: a stale token would fail the check. */
  readonly cachePolicyId: string;
  /** Off: the body must be the token byte for byte. */
  readonly compress: boolean;
}

/**
 * The ordered cache behaviour that routes /service_url_registration/* to the verification bucket's
 * origin: GET and HEAD only, caching disabled, HTTPS only without a redirect (the service follows none).
 */
export function verificationCacheBehavior(originId: pulumi.Input<string>): VerificationCacheBehavior {
  return {
    pathPattern: VERIFICATION_PATH_PATTERN,
    targetOriginId: originId,
    viewerProtocolPolicy: "https-only",
    allowedMethods: ["GET", "HEAD"],
    cachedMethods: ["GET", "HEAD"],
    cachePolicyId: CACHING_DISABLED_POLICY_ID,
    compress: false,
  };
}
