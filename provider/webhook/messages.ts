import { optionSetting, spellProperty } from "../context/program-language";
import type { InvalidRequestError } from "../errors/api";
import { requestWords } from "../errors/base";
import { LifecycleError } from "../errors/lifecycle";
import { SETTINGS, stackKey } from "../settings/table";
import type { WebhookIdentity } from "./schema";
import type { WebhookRecord } from "./wire";

/**
 * Every failure a Webhook reports, worded once: the object, the cause and the next step. Advice that would
 * make things worse (running `pulumi up` again when that would create a second webhook) never appears.
 */

/** How a webhook is named in messages. */
const describeNew = (identity: WebhookIdentity) =>
  `the webhook for ${identity.endpoint} (channel ${identity.channel})`;
export const describeExisting = (uuid: string, identity: WebhookIdentity) =>
  `webhook ${uuid} (${identity.endpoint}, channel ${identity.channel})`;

const line = (w: WebhookRecord) => `  - ${w.webhookUuid}  ${w.endpoint}  channel=${w.channel}`;

export function quotaError(
  identity: WebhookIdentity,
  active: readonly WebhookRecord[],
  limit: number,
): LifecycleError {
  return new LifecycleError(
    "quota_reached",
    [
      `Cannot create ${describeNew(identity)}: the organization already has ${active.length} active webhooks, the service's limit of ${limit}. Nothing was created.`,
      "Active webhooks:",
      ...active.map(line),
      `If this create is part of a replacement, Pulumi creates the new webhook before it deletes the old one (create-before-delete), so the replacement needs a free slot. Give this Webhook ${optionSetting("deleteBeforeReplace", true)} to deactivate the old webhook first (deliveries pause during the swap), or remove a webhook you no longer need, then run \`pulumi up\` again.`,
    ].join("\n"),
  );
}

export function domainNotRegisteredError(
  identity: WebhookIdentity,
  host: string,
  hostnames: readonly string[],
): LifecycleError {
  const registered = hostnames.length > 0 ? hostnames.join(", ") : "none";
  return new LifecycleError(
    "endpoint_domain_not_registered",
    `Cannot create ${describeNew(identity)}: its host ${host} is not a registered domain of this organization (registered: ${registered}). Nothing was created. Declare a Domain for ${host} in the program and give this Webhook ${optionSetting("dependsOn", ["domain"])}, or point the endpoint at a registered domain, then run \`pulumi up\` again.`,
  );
}

/**
 * What the service said when it refused a request, without the client's own next step: the Webhook's
 * message gives its own, and two would state the refusal twice.
 */
export function serviceRefusal(error: InvalidRequestError): string {
  const reason =
    error.fields.length > 0
      ? error.fields.map((f) => `${f.field} ${f.message}`).join("; ")
      : (error.serviceMessage ?? "no reason given");
  const requestId = error.requestId ? ` (request id ${error.requestId})` : "";
  return `${requestWords(error)} answered ${error.status}: ${reason}${requestId}.`;
}

export function inputRefusedError(
  identity: WebhookIdentity,
  serviceSaid: string,
  cause: unknown,
): LifecycleError {
  return new LifecycleError(
    "input_refused",
    `The service refused ${describeNew(identity)}: ${serviceSaid} Nothing was created. Correct the Webhook's inputs and run \`pulumi up\` again.`,
    { cause },
  );
}

export function adoptNotFoundError(uuid: string): LifecycleError {
  return new LifecycleError(
    "adopt_not_found",
    `Cannot adopt webhook ${uuid}: it is not an active webhook of this organization (deactivated webhooks cannot be reactivated). Check the uuid and the credentials, or drop ${spellProperty("adoptWebhookUuid")} to create a new webhook.`,
  );
}

export function adoptClaimedError(uuid: string): LifecycleError {
  return new LifecycleError(
    "adopt_mismatch",
    `Cannot adopt webhook ${uuid}: another Webhook resource in this stack already stands for it, and one webhook cannot belong to two resources. Give one of them a different ${spellProperty("adoptWebhookUuid")}, or drop it to create a new webhook.`,
  );
}

export function adoptMismatchError(uuid: string, problems: readonly string[]): LifecycleError {
  return new LifecycleError(
    "adopt_mismatch",
    `Refusing to adopt webhook ${uuid}: ${problems.join("; ")}. Make the inputs match the existing webhook exactly, or drop ${spellProperty("adoptWebhookUuid")} to create a new one.`,
  );
}

/** Why a Webhook without `secretKey` fails its check (the inputs that `pulumi import` reads back lack it). */
export const MISSING_SECRET_KEY =
  "is required: give the key that signs the webhook's deliveries, as a secret. The service never returns it, so a webhook adopted with `pulumi import` needs the key it was created with.";

export function importNotFoundError(uuid: string): LifecycleError {
  return new LifecycleError(
    "import_not_found",
    `Cannot import webhook ${uuid}: it is not an active webhook of the organization that the provider's credentials (${stackKey(SETTINGS.token.config)}) belong to; deactivated webhooks cannot be reactivated. Check the uuid (the service's webhook_uuid) and the credentials, then run \`pulumi import\` again.`,
  );
}

export function identicalPendingError(identity: WebhookIdentity): LifecycleError {
  return new LifecycleError(
    "identical_create_pending",
    `Not creating ${describeNew(identity)} in this run: another Webhook in this stack with the same endpoint, channel and filters has a create whose outcome is still unknown, and the service cannot tell two such webhooks apart, so a webhook made now could later be taken for that one. Nothing was created. Run \`pulumi up\` again: the pending webhook is settled first, then this one is created.`,
  );
}

export function pendingMessage(identity: WebhookIdentity, cause: string, waitedSeconds: number): string {
  return (
    `The service did not confirm the create of ${describeNew(identity)} (${cause}), and no matching webhook appeared in ${Math.round(waitedSeconds)} s of re-listing. ` +
    "Pulumi keeps this Webhook in the stack as pending, with the time of the attempt. Run `pulumi up` again: it adopts the webhook if the create was applied meanwhile and creates it only if it was not, so it never makes a second one. " +
    "Do not create a matching webhook by hand in the meantime."
  );
}

export function reconcileConflictMessage(
  identity: WebhookIdentity,
  since: string,
  found: readonly WebhookRecord[],
): string {
  return [
    `Cannot tell which webhook is ${describeNew(identity)}: ${found.length} active webhooks with its endpoint, channel and filters appeared after its create was sent at ${since}, and none belongs to another resource of this stack:`,
    ...found.map(line),
    `Set ${spellProperty("adoptWebhookUuid")} on this Webhook to the one it should keep and run \`pulumi up\`; deactivate the others if nothing else uses them.`,
  ].join("\n");
}

export function credentialsChangedError(
  uuid: string,
  identity: WebhookIdentity,
  organization: string,
): LifecycleError {
  return new LifecycleError(
    "credentials_changed",
    `The new credentials cannot see ${describeExisting(uuid, identity)}, which belongs to organization ${organization}. Switching to them would leave it active there, receiving deliveries and holding quota, with nothing managing it; nothing was changed. Keep credentials of ${organization} for this Webhook, or move it: remove it from the program and run \`pulumi up\` with the old credentials (that deactivates it), then add it back with the new ones.`,
  );
}
