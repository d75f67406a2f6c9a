import { ListEnvelope, StatusOk } from "../../../contract/responses";
import { hooks, MIRROR, NOTE, readOnly, v1, v2 } from "../../../contract/routes";
import { VERSION_TRAITS } from "../../../contract/versions";
import { webhookCreateBodySchema } from "../../../contract/webhooks/requests";
import * as Responses from "../../../contract/webhooks/responses";
import type { Webhook, WebhookCreateBody } from "../../../contract/webhooks/types";
import { rememberSecret } from "../../context/process";
import { type Requester, routeInfo } from "../call";
import { checkRequest } from "../check";
import type { Page, PageRequest } from "../pages";
import { listingOf } from "../pagination";
import { request } from "../request";

/** The webhook routes (spec 2.6, 4.2 and 4.3); the sandbox mounts its handlers on the same ones. */
export const WEBHOOK_ROUTES = {
  v1CreateWebhook: v1("POST", "/v1/webhooks", { ...hooks, accepts: ["1.4", "1.3"] }),
  v1GetWebhook: v1("GET", "/v1/webhooks/{webhook_uuid}", hooks),
  v1DeactivateWebhook: v1("POST", "/v1/webhooks/{webhook_uuid}/deactivate", hooks),
  v1SearchWebhooks: v1("POST", "/v1/search/webhooks", { ...hooks, ...readOnly }),
  v2CreateWebhook: v2("POST", "/v2/webhooks", { ...hooks, inferred: NOTE }),
  v2GetWebhook: v2("GET", "/v2/webhooks/{webhook_uuid}", { ...hooks, inferred: MIRROR }),
  v2DeactivateWebhook: v2("POST", "/v2/webhooks/{webhook_uuid}/deactivate", hooks),
  v2SearchWebhooks: v2("POST", "/v2/search/webhooks", { ...hooks, ...readOnly, inferred: MIRROR }),
} as const;

const R = WEBHOOK_ROUTES;
const listing = listingOf(
  { "1.4": R.v1SearchWebhooks, "2.0": R.v2SearchWebhooks },
  ListEnvelope(Responses.Webhook),
);

/**
 * The organization's webhooks, as `client.webhooks`, in the client's API version. A create body is
 * checked with the shared rules of contract/webhooks/requests.ts (the ones the sandbox enforces) before
 * it is sent.
 */
export class Webhooks {
  /** @param api the client's pipeline, which every method sends through */
  constructor(private readonly api: Requester) {}

  /**
   * Creates a webhook. The body is checked against the spec before it is sent (the secret_key's length
   * on this API version among the rules). Never re-sent: a lost response raises AmbiguousRequestError.
   *
   * @example const { webhook_uuid } = await client.webhooks.create({ endpoint: { type: "url", value: "https://hooks.example.com/service" }, secret_key, filters: [{ key: "activity.name", value: "authentication" }] });
   */
  async create(body: WebhookCreateBody): Promise<Webhook> {
    const { api } = this;
    rememberSecret(body.secret_key);
    const route = api.version === "1.4" ? R.v1CreateWebhook : R.v2CreateWebhook;
    checkRequest(webhookCreateBodySchema(api.version), body, routeInfo(route));
    return request(api, route, {
      body,
      schema: Responses.Webhook,
      invalidStatus: VERSION_TRAITS[api.version].invalidCreateStatus,
    });
  }

  /** One active webhook of the organization; NotFoundError (403) when unknown, inactive or foreign. */
  retrieve(webhookUuid: string): Promise<Webhook> {
    return request(this.api, this.api.version === "1.4" ? R.v1GetWebhook : R.v2GetWebhook, {
      params: { webhook_uuid: webhookUuid },
      schema: Responses.Webhook,
    });
  }

  /** Deactivates a webhook; there is no way back. */
  async deactivate(webhookUuid: string): Promise<void> {
    await request(this.api, this.api.version === "1.4" ? R.v1DeactivateWebhook : R.v2DeactivateWebhook, {
      params: { webhook_uuid: webhookUuid },
      schema: StatusOk,
    });
  }

  /** One page of the organization's active webhooks: `{items, item_count, next_cursor}`. */
  list(page: PageRequest = {}): Promise<Page<Webhook>> {
    return listing.list(this.api, page);
  }

  /**
   * Every active webhook of the organization, page after page.
   *
   * @example for await (const hook of client.webhooks.iterate()) console.log(hook.webhook_uuid);
   */
  iterate(page: Omit<PageRequest, "cursor"> = {}): AsyncIterable<Webhook> {
    return listing.iterate(this.api, page);
  }
}
