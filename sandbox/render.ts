import type { Language } from "../contract/languages";
import { type ApiVersion, VERSION_TRAITS } from "../contract/versions";
import { toWireFilters } from "../contract/webhooks/requests";
import { localize, timestamp } from "./display";
import type { DomainRecord, SessionRecord, WebhookRecord } from "./store";

const owner = (organization: string, user: string) => ({
  organization: { name: organization },
  user: { username: user },
});

/** A webhook as the given generation shows it. The secret key is never part of it. */
export function renderWebhook(
  hook: WebhookRecord,
  version: ApiVersion,
  language: Language,
): Record<string, unknown> {
  const traits = VERSION_TRAITS[version];
  return {
    webhook_uuid: hook.uuid,
    channel: hook.channel,
    endpoint: { type: "url", value: hook.endpoint },
    filters: toWireFilters(hook.filters),
    webhook_owner: owner(hook.organization, hook.user),
    [traits.createTimeKey]: timestamp(hook.createdAt, language),
    ...(traits.webhookFormatOptions ? { format_options: {} } : {}),
  };
}

/** A registered domain as the given generation lists it. */
export function renderDomain(
  domain: DomainRecord,
  version: ApiVersion,
  language: Language,
): Record<string, unknown> {
  return {
    domain_uuid: domain.uuid,
    domain_name: domain.name,
    domain_owner: owner(domain.organization, domain.user),
    [VERSION_TRAITS[version].createTimeKey]: timestamp(domain.createdAt, language),
  };
}

function withoutStatusKeys(item: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  if (keys.length === 0) return item;
  const status = { ...(item.status as Record<string, unknown>) };
  for (const key of keys) delete status[key];
  return { ...item, status };
}

/**
 * The stored item in the given generation's shape, without the members that depend on the caller:
 * `images` (the request's flags) and `fingerprint_parent` (who owns the parent now).
 */
export function baseItem(session: SessionRecord, version: ApiVersion): Record<string, unknown> {
  const { images: _images, fingerprint_parent: _parent, ...item } = session.item;
  return withoutStatusKeys(item, VERSION_TRAITS[version].itemStatusOmits);
}

/** A session item as a webhook of the given generation and language delivers it (spec section 6). */
export function renderDeliveryItem(
  session: SessionRecord,
  version: ApiVersion,
  language: Language,
): Record<string, unknown> {
  const omits = VERSION_TRAITS[version].deliveryOmits;
  const { timestamp: stamp, ...rest } = withoutStatusKeys(baseItem(session, version), omits.status);
  const item = omits.timestamp ? rest : { ...rest, timestamp: stamp };
  return localize({ ...item, update_counter: session.updateCounter }, language);
}
