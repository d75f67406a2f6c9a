export type { WebhookCreateBody } from "../api/rules";
export type { Domain, DomainRegistrationStart, Webhook } from "../api/schemas";
export type { ApiVersion } from "../api/versions";
export { type Page, type PageRequest, ServiceClient } from "./client";
export type { Clock } from "./clock";
export { type ClientOptions, DEFAULT_BASE_URL, ENV } from "./config";
export * from "./errors";
export { redact } from "./redact";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";
