import type * as pulumi from "@pulumi/pulumi";

/** The verification file a publisher must serve at https://<host>/<key>, exactly, with no redirect. */
export interface VerificationFileSpec {
  /** `service_url_registration/<verifier>` */
  readonly key: pulumi.Output<string>;
  /** The register token, a secret. */
  readonly content: pulumi.Output<string>;
  readonly contentType: "text/plain";
}

/**
 * Makes the file public, returning the resource(s) that do so. The Domain component makes its
 * verification depend on them. `name` is the child name to use, and `parent` the component.
 */
export type Publisher = (
  file: VerificationFileSpec,
  opts: { readonly name: string; readonly parent: pulumi.Resource },
) => pulumi.Resource | readonly pulumi.Resource[];
