import type { Timestamp, WireOwner } from "../../contract/common-types";
import type { Webhook, WebhookCreateBody, WireFilter } from "../../contract/webhooks/types";
import type { ServiceClient } from "../client/client";
import * as Listings from "../lifecycle/listings";
import type { WebhookInputs } from "./schema";

/**
 * The one place where a Webhook resource translates the client's wire names (spec 2.6: `webhook_uuid`,
 * `endpoint: {type, value}`, `webhook_owner`, `create_time` or `create_timestamp`) into the camelCase the
 * resource's code, outputs and state use. Nothing else under webhook/ reads a wire name of a webhook.
 */

/**
 * Who owns a webhook or domain, as the Pulumi resources output it (`owner.organization`,
 * `owner.username`): their translation of the wire's `webhook_owner` and `domain_owner`.
 */
export interface Owner {
  /** The organization's name. */
  organization: string;
  /** The user who created it, or "" when the service did not say. */
  username: string;
}

/** A webhook as the Webhook resource works with it, in one model for both API generations. */
export interface WebhookRecord {
  /** The service's `webhook_uuid`. */
  readonly webhookUuid: string;
  /** Echoed on every delivery; "default" unless set. */
  readonly channel: string;
  /** The HTTPS URL deliveries are posted to (`endpoint.value`). */
  readonly endpoint: string;
  /** The filters as the service sent them, in its order and value/values form. */
  readonly filters: WireFilter[];
  /** Who created it; empty names when the service did not say. */
  readonly owner: Owner;
  /** `create_time` (v2) or `create_timestamp` (v1.4). */
  readonly createTime: Timestamp | undefined;
}

/** `webhook_owner` or `domain_owner` as the resources output it; empty names when the service did not say. */
export function ownerOf(owner: WireOwner | undefined): Owner {
  return { organization: owner?.organization.name ?? "", username: owner?.user?.username ?? "" };
}

/** A webhook of the client, as the resource works with it. */
export function webhookRecord(hook: Webhook): WebhookRecord {
  return {
    webhookUuid: hook.webhook_uuid,
    channel: hook.channel,
    endpoint: hook.endpoint.value,
    filters: hook.filters,
    owner: ownerOf(hook.webhook_owner),
    createTime: hook.create_time ?? hook.create_timestamp,
  };
}

/** The organization's active webhooks (the process's shared listing), as the resource works with them. */
export async function activeWebhooks(client: ServiceClient, options: { fresh?: boolean } = {}) {
  return (await Listings.activeWebhooks(client, options)).map(webhookRecord);
}

/** The create body of the client for a Webhook's inputs. */
export function createBody(inputs: WebhookInputs): WebhookCreateBody {
  return {
    endpoint: { type: "url", value: inputs.endpoint },
    secret_key: inputs.secretKey,
    channel: inputs.channel,
    filters: inputs.filters,
  };
}

/** The hostnames of the organization's registered domains (`domain_name`), which a webhook's endpoint must use. */
export async function registeredHostnames(client: ServiceClient, options: { fresh?: boolean } = {}) {
  return (await Listings.registeredDomains(client, options)).map((domain) => domain.domain_name);
}
