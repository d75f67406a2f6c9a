import { ListEnvelope, StatusOk } from "../../../contract/answers";
import { VERSIONED } from "../../../contract/routes";
import { VERSION_TRAITS } from "../../../contract/versions";
import * as Answers from "../../../contract/webhooks/answers";
import { webhookCreateBodySchema } from "../../../contract/webhooks/requests";
import type { Webhook, WebhookCreateBody } from "../../../contract/webhooks/types";
import { rememberSecret } from "../../context/process";
import { type Requester, routeInfo } from "../call";
import { checkRequest } from "../check";
import { listingOf } from "../pagination";

/**
 * The webhook routes of ServiceClient (spec 2.6, 4.2 and 4.3), in the client's API version. A create body
 * is checked with the shared rules of contract/webhooks/requests.ts (the ones the sandbox enforces) before
 * it is sent.
 */

/** Creates a webhook. Never re-sent: a lost answer raises AmbiguousRequestError. */
export async function createWebhook(api: Requester, body: WebhookCreateBody): Promise<Webhook> {
  rememberSecret(body.secret_key);
  const name = VERSIONED.createWebhook[api.version];
  checkRequest(webhookCreateBodySchema(api.version), body, routeInfo(name));
  return api.send(name, {
    body,
    schema: Answers.Webhook,
    invalidStatus: VERSION_TRAITS[api.version].invalidCreateStatus,
  });
}

/** One active webhook of the organization. */
export function getWebhook(api: Requester, webhookUuid: string): Promise<Webhook> {
  return api.send(VERSIONED.getWebhook[api.version], {
    params: { webhook_uuid: webhookUuid },
    schema: Answers.Webhook,
  });
}

/** Deactivates a webhook; there is no way back. */
export async function deactivateWebhook(api: Requester, webhookUuid: string): Promise<void> {
  await api.send(VERSIONED.deactivateWebhook[api.version], {
    params: { webhook_uuid: webhookUuid },
    schema: StatusOk,
  });
}

/** One page of the organization's active webhooks, and all of them page after page. */
export const webhooks = listingOf(VERSIONED.searchWebhooks, ListEnvelope(Answers.Webhook));
