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
export { ProcessContext, setProcessContext } from "../context/process";
export * from "../errors/index";
export { type Page, type PageRequest, ServiceClient } from "./client";
export { type ClientOptions, DEFAULT_BASE_URL, ENV, type ResolvedOptions } from "./config";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
