/**
 * The type tokens of this package's resources, stated once. Pulumi names a dynamic resource
 * `pulumi-nodejs:dynamic/<module>:<type>`; policies recognise the package's resources by these tokens,
 * and renaming one would replace every resource of that type in every stack.
 */
export const DYNAMIC_MODULE = "service";

/** The `type` of each dynamic resource. */
export const DYNAMIC_TYPES = {
  webhook: "Webhook",
  domainRegistration: "DomainRegistration",
  domainVerification: "DomainVerification",
  verificationFile: "VerificationFile",
} as const;

/** The full type token of a dynamic resource, as the engine and policies see it. */
export function dynamicTypeToken(type: (typeof DYNAMIC_TYPES)[keyof typeof DYNAMIC_TYPES]): string {
  return `pulumi-nodejs:dynamic/${DYNAMIC_MODULE}:${type}`;
}

/** The Domain component's type token. */
export const DOMAIN_COMPONENT_TYPE = "service:index:Domain";
