export type { AcceptLanguage, ConnectionInput } from "../contract/common-types";
export { LANGUAGES } from "../contract/languages";
export { API_VERSIONS, type ApiVersion } from "../contract/versions";
export { type ClientOptions, ServiceClient } from "./client/index";
export { Domain, type DomainArgs } from "./domain/component";
export {
  DomainRegistration,
  type DomainRegistrationArgs,
  DomainVerification,
  type DomainVerificationArgs,
} from "./domain/steps";
export { directoryPublisher, VerificationFile, type VerificationFileArgs } from "./publishers/directory";
export type { Publisher, PublisherOptions, VerificationFileSpec } from "./publishers/publisher";
export {
  CACHING_DISABLED_POLICY_ID,
  type S3PublisherArgs,
  s3Publisher,
  type VerificationCacheBehavior,
  verificationCacheBehavior,
} from "./publishers/s3";
export * from "./receiver/index";
export { SecretRotation, type SecretRotationArgs } from "./receiver/rotation";
export type { RotationStep } from "./receiver/rotation-step";
export { Webhook, type WebhookArgs, type WebhookFilter } from "./webhook/webhook";
