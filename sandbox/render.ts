import { toWireFilters } from "../provider/api/rules";
import { type ApiVersion, VERSION_TRAITS } from "../provider/api/versions";
import type { DomainRecord, SessionRecord, WebhookRecord } from "./store";

export function timestamp(ms: number): { display: string; epoch: number } {
  return { display: new Date(ms).toISOString(), epoch: ms / 1000 };
}

const owner = (organization: string, user: string) => ({
  organization: { name: organization },
  user: { username: user },
});

/** A webhook as the given generation shows it. The secret key is never part of it. */
export function renderWebhook(hook: WebhookRecord, version: ApiVersion): Record<string, unknown> {
  return {
    webhook_uuid: hook.uuid,
    channel: hook.channel,
    endpoint: { type: "url", value: hook.endpoint },
    filters: toWireFilters(hook.filters),
    webhook_owner: owner(hook.organization, hook.user),
    [VERSION_TRAITS[version].createTimeKey]: timestamp(hook.createdAt),
    ...(version === "2.0" ? { format_options: {} } : {}),
  };
}

export function renderDomain(domain: DomainRecord, version: ApiVersion): Record<string, unknown> {
  return {
    domain_uuid: domain.uuid,
    domain_name: domain.name,
    domain_owner: owner(domain.organization, domain.user),
    [VERSION_TRAITS[version].createTimeKey]: timestamp(domain.createdAt),
  };
}

const V2_STATUS_ONLY = ["flag_reason_id", "flag_reason_display", "flag_message", "retake"] as const;
const V2_DELIVERY_DROPS = ["flag_reason_id", "flag_reason_display", "flag_message"] as const;

function withoutStatusKeys(item: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const status = { ...(item.status as Record<string, unknown>) };
  for (const key of keys) delete status[key];
  return { ...item, status };
}

/** A session item as GET and search show it in the given generation. */
export function renderItem(session: SessionRecord, version: ApiVersion): Record<string, unknown> {
  return version === "2.0" ? { ...session.item } : withoutStatusKeys(session.item, V2_STATUS_ONLY);
}

/** A session item as a webhook delivers it (spec section 6). */
export function renderDeliveryItem(session: SessionRecord, version: ApiVersion): Record<string, unknown> {
  let item: Record<string, unknown> = {
    ...renderItem(session, version),
    update_counter: session.updateCounter,
  };
  delete item.fingerprint_parent;
  if (version === "2.0") {
    delete item.timestamp;
    item = withoutStatusKeys(item, V2_DELIVERY_DROPS);
  }
  return item;
}
