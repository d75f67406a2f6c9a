export type {
  AcceptLanguage,
  ApiVersion,
  ConnectionInput,
  StatusOk,
  Timestamp,
  WireOwner,
} from "../../contract/common-types";
export { DEFAULT_BASE_URL } from "../../contract/default-base-url";
export type {
  Domain,
  DomainRegistrationStart,
  FinishDomainRegistrationBody,
  StartDomainRegistrationBody,
} from "../../contract/domains/types";
export type * from "../../contract/integrations/types";
export type * from "../../contract/sessions/item-types";
export { isAuthentication, isFingerprint } from "../../contract/sessions/item-types";
export type * from "../../contract/sessions/types";
export type { Webhook, WebhookCreateBody, WebhookEndpoint, WireFilter } from "../../contract/webhooks/types";
export type { Clock } from "../context/clock";
export * from "../errors/index";
export type { Domains } from "./areas/domains";
export type { Integrations } from "./areas/integrations";
export type { Authentications, Fingerprints } from "./areas/sessions";
export type { Webhooks } from "./areas/webhooks";
export { ServiceClient } from "./client";
export { type ClientOptions, ENV, type ResolvedOptions } from "./config";
export { type LimiterKey, LimiterRegistry, RateLimiter, SHARED_LIMITERS, sharedLimiter } from "./limiter";
export type { Page, PageRequest } from "./pages";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
export { ROUTES, type RouteName } from "./routes";
export { type OptionProblem, RequestValidationError } from "./validation";
