import type * as pulumi from "@pulumi/pulumi";

/** The verification file a publisher must serve at https://<host>/<key>, exactly, with no redirect. */
export interface VerificationFileSpec {
  /** `service_url_registration/<verifier>` */
  readonly key: pulumi.Output<string>;
  /** The register token, a secret. */
  readonly content: pulumi.Output<string>;
  /** The Content-Type to serve it with. */
  readonly contentType: "text/plain";
}

/** Where and how a publisher registers the resource(s) it creates. */
export interface PublisherOptions {
  /** The child name to use. */
  readonly name: string;
  /** The Domain component. */
  readonly parent: pulumi.Resource;
  /**
   * The resource options to give what the publisher creates: `parent`, plus the `retainOnDelete`,
   * `customTimeouts` and `deletedWith` given to the Domain.
   */
  readonly resourceOptions: pulumi.CustomResourceOptions;
}

/**
 * Makes the file public, returning the resource(s) that do so. The Domain component makes its
 * verification depend on them.
 */
export type Publisher = (
  file: VerificationFileSpec,
  opts: PublisherOptions,
) => pulumi.Resource | readonly pulumi.Resource[];
