import { VERSION_TRAITS } from "../../contract/versions";
import { canonicalFilters, webhookCreateBodySchema } from "../../contract/webhooks/requests";
import type { RouteName } from "../../provider/client/index";
import { type ApiHandler, parseWith } from "../context";
import { listEnvelope } from "../pagination";
import { renderWebhook } from "../render";

const create: ApiHandler = (call, { store }) => {
  const body = parseWith(webhookCreateBodySchema(call.version), call.body);
  const hook = store.createWebhook(
    call.token,
    {
      channel: body.channel ?? "default",
      endpoint: body.endpoint.value,
      filters: canonicalFilters(body.filters),
      secretKey: body.secret_key,
      version: call.version,
      language: call.language,
    },
    VERSION_TRAITS[call.version].invalidCreateStatus,
  );
  return renderWebhook(hook, call.version, call.language);
};

const get: ApiHandler = (call, { store }) =>
  renderWebhook(store.ownActiveWebhook(call.token, call.params.webhook_uuid!), call.version, call.language);

const deactivate: ApiHandler = (call, { store }) => {
  store.deactivateWebhook(call.token, call.params.webhook_uuid!);
  return { status: "ok" };
};

const search: ApiHandler = (call, { store }) =>
  listEnvelope(call, store.activeWebhooks(call.token.organization), (w) =>
    renderWebhook(w, call.version, call.language),
  );

/** The handlers of the webhook routes. */
export const webhookHandlers = {
  v1CreateWebhook: create,
  v2CreateWebhook: create,
  v1GetWebhook: get,
  v2GetWebhook: get,
  v1DeactivateWebhook: deactivate,
  v2DeactivateWebhook: deactivate,
  v1SearchWebhooks: search,
  v2SearchWebhooks: search,
} satisfies Partial<Record<RouteName, ApiHandler>>;
