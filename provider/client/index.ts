export { DEFAULT_BASE_URL } from "../../contract/default-base-url";
export type {
  Domain,
  DomainRegistrationStart,
  FinishDomainRegistrationBody,
  StartDomainRegistrationBody,
} from "../../contract/domains/shapes";
export type * from "../../contract/integrations/shapes";
export type * from "../../contract/sessions/item-shapes";
export { isAuthentication, isFingerprint } from "../../contract/sessions/item-shapes";
export type * from "../../contract/sessions/shapes";
export type {
  AcceptLanguage,
  ApiVersion,
  ConnectionInput,
  StatusOk,
  Timestamp,
  WireOwner,
} from "../../contract/shapes";
export type { Webhook, WebhookCreateBody, WebhookEndpoint, WireFilter } from "../../contract/webhooks/shapes";
export type { Clock } from "../context/clock";
export * from "../errors/index";
export { ServiceClient } from "./client";
export { type ClientOptions, ENV, type ResolvedOptions } from "./config";
export { type LimiterKey, LimiterRegistry, RateLimiter, SHARED_LIMITERS, sharedLimiter } from "./limiter";
export type { Page, PageRequest } from "./pages";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
export { type OptionProblem, RequestValidationError } from "./validation";
