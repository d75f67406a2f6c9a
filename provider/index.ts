export type { ApiVersion } from "./api/versions";
export { type ClientOptions, ServiceClient } from "./client/index";
export * from "./receiver/index";
export { Webhook, type WebhookArgs, type WebhookFilter } from "./webhook/resource";
