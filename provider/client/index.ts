export { DEFAULT_BASE_URL } from "../api/connection";
export type * from "../api/integration-shapes";
export type * from "../api/item-shapes";
export { isAuthentication, isFingerprint } from "../api/item-shapes";
export type * from "../api/session-shapes";
export type {
  AcceptLanguage,
  ApiVersion,
  ConnectionInput,
  Domain,
  DomainRegistrationStart,
  FinishDomainRegistrationBody,
  StartDomainRegistrationBody,
  StatusOk,
  Timestamp,
  Webhook,
  WebhookCreateBody,
  WebhookEndpoint,
  WireFilter,
  WireOwner,
} from "../api/shapes";
export type { Clock } from "../context/clock";
export * from "../errors/index";
export { ServiceClient } from "./client";
export { type ClientOptions, ENV, type ResolvedOptions } from "./config";
export { type LimiterKey, LimiterRegistry, RateLimiter, SHARED_LIMITERS, sharedLimiter } from "./limiter";
export type { Page, PageRequest } from "./pagination";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
export { type OptionProblem, RequestValidationError } from "./validation";
