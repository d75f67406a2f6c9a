import type { CanonicalFilter } from "../../contract/webhooks/types";
import { SETTINGS, stackKey } from "../settings/table";
import type { Credentials, DomainView, WebhookView } from "./views";

/**
 * The text of every violation. Each names the resources, the cause and the next step, and none shows a
 * secret: credentials are described by where they come from, a secret key by the inputs it leaked into.
 */

const listed = (webhooks: readonly WebhookView[]) => webhooks.map((w) => `  - ${w.name} (${w.urn})`);
const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(", ");
const allowedText = (allowed: readonly string[]) => allowed.join(", ") || "none";

function credentialsLabel(credentials: Credentials): string {
  return credentials.viaConnection
    ? "the same `connection` credentials"
    : `the stack's default credentials (${stackKey(SETTINGS.token.config)}, else ${SETTINGS.token.env})`;
}

/** More Webhooks share one set of credentials than the organization's quota allows. */
export function overQuotaMessage(
  group: readonly WebhookView[],
  credentials: Credentials,
  quota: number,
): string {
  return [
    `${group.length} Webhooks use ${credentialsLabel(credentials)}, more than the quota of ${quota} active webhooks per organization:`,
    ...listed(group),
    "The service refuses every create beyond the quota (409), so `pulumi up` would stop halfway.",
    `Remove ${group.length - quota} of them, or give some a \`connection\` to another organization. If this organization's quota is not ${quota}, set this policy's \`quota\` config.`,
  ].join("\n");
}

/**
 * A group is at or over the quota, and `lacking` of its Webhooks would be replaced create-before-delete.
 * Over the quota, service-webhook-quota already lists the group, so this names no Webhook again.
 */
export function replaceAtQuotaMessage(
  group: readonly WebhookView[],
  lacking: readonly WebhookView[],
  credentials: Credentials,
  quota: number,
): string {
  const which =
    group.length > quota
      ? `${lacking.length} of them (listed by service-webhook-quota) do`
      : `${quoted(lacking.map((w) => w.name))} ${lacking.length === 1 ? "does" : "do"}`;
  return (
    `${group.length} Webhooks use ${credentialsLabel(credentials)}, which leaves no free slot under the quota of ${quota}, and ${which} not set \`deleteBeforeReplace\`: ` +
    "replacing one (any change to what defines the webhook) would create the new webhook first and fail with 409. " +
    "Set `deleteBeforeReplace: true` in its resource options (deliveries pause during the swap), or remove a webhook to free a slot."
  );
}

/** A Webhook's host is neither a Domain of the stack nor a configured external host. */
export function unregisteredHostMessage(webhook: WebhookView, host: string): string {
  return (
    `Webhook "${webhook.name}" sends to host ${host}, but no Domain in this stack registers ${host} and it is not in this policy's \`externalHosts\`. ` +
    "The service refuses a webhook whose host is not a registered domain of the organization. " +
    `Declare \`new service.Domain("...", { domainName: "${host}", ... })\` and give the Webhook \`dependsOn: [domain]\`, ` +
    `or, if ${host} is registered outside this stack, add it to \`externalHosts\` in this policy's config.`
  );
}

/** A Webhook does not depend on the Domain that registers its host. */
export function missingDependencyMessage(webhook: WebhookView, domains: readonly DomainView[]): string {
  const names = quoted(domains.map((d) => d.name));
  return (
    `Webhook "${webhook.name}" sends to ${webhook.host}, which Domain ${names} registers in this stack, but it does not depend on it. ` +
    "Without the dependency Pulumi may create the webhook before the domain is verified, and on destroy may deactivate the domain first, " +
    "which the service refuses (409) while a webhook targets it. " +
    "Pass that Domain in the Webhook's resource options (`{ dependsOn: [domain] }`), or build its endpoint from the Domain's `domainName` output."
  );
}

const filterText = (filters: readonly CanonicalFilter[]) =>
  filters.map((f) => `${f.key}=${f.values.join(",")}`).join("; ");

/** Two or more Webhooks are the same webhook to the service. */
export function duplicateMessage(
  group: readonly WebhookView[],
  endpoint: string,
  channel: string,
  filters: readonly CanonicalFilter[],
): string {
  return [
    `${group.length} Webhooks are the same webhook to the service: same credentials, endpoint ${endpoint}, channel "${channel}" and filters ${filterText(filters)}:`,
    ...listed(group),
    "Each matching event would be delivered once per webhook, so the receiver gets copies it cannot tell apart, and each takes a slot of the quota.",
    "Remove all but one, or give each a different `channel` if you need separate streams.",
  ].join("\n");
}

/** The secret key's value also sits in inputs that are kept and shown in plain text. */
export function secretInPlainTextMessage(webhook: WebhookView, members: readonly string[]): string {
  const echoed = members.includes("channel") ? ", and the channel is echoed on every delivery" : "";
  return (
    `Webhook "${webhook.name}": the value of secretKey also appears in ${members.join(", ")}. ` +
    `Those inputs are stored unencrypted in the state, printed by \`pulumi preview\` and returned by the service's webhook listing${echoed}. ` +
    "Treat the secret as exposed: rotate it, keep it out of those inputs, and pass it only as `secretKey` (for example from `config.requireSecret`)."
  );
}

/** A channel does not match the configured pattern. */
export function channelMessage(
  webhook: WebhookView,
  channel: string,
  pattern: string,
  defaulted: boolean,
): string {
  const why = defaulted ? " (the default when `channel` is not set)" : "";
  return (
    `Webhook "${webhook.name}" uses channel "${channel}"${why}, which does not match the pattern ${pattern} set in this policy's \`channelPattern\`. ` +
    "Set `channel` to a name that matches, or change `channelPattern`."
  );
}

/** A filter key outside the configured set. */
export function filterKeyMessage(webhook: WebhookView, key: string, allowed: readonly string[]): string {
  return (
    `Webhook "${webhook.name}" filters on ${key}, which this policy's \`allowedFilterKeys\` does not allow (allowed: ${allowedText(allowed)}). ` +
    "Remove that filter, or add the key to `allowedFilterKeys`."
  );
}

/** Form factors outside the configured set. */
export function formFactorMessage(
  webhook: WebhookView,
  values: readonly string[],
  allowed: readonly string[],
): string {
  return (
    `Webhook "${webhook.name}" filters on activity.form_factor ${values.join(", ")}, which this policy's \`allowedFormFactors\` does not allow (allowed: ${allowedText(allowed)}). ` +
    "Remove those values from the filter, or add them to `allowedFormFactors`."
  );
}
