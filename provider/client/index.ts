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
  Owner,
  StatusOk,
  Timestamp,
  Webhook,
  WebhookCreateBody,
  WireFilter,
} from "../api/shapes";
export type { Clock } from "../context/clock";
export {
  type ContextKey,
  ProcessContext,
  type ProcessContextOptions,
  setProcessContext,
} from "../context/process";
export type { SecretRegistry } from "../context/secrets";
export * from "../errors/index";
export { ServiceClient } from "./client";
export { type ClientOptions, DEFAULT_BASE_URL, ENV, type ResolvedOptions } from "./config";
export type { Page, PageRequest } from "./pagination";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
export { type OptionProblem, RequestValidationError } from "./validation";
