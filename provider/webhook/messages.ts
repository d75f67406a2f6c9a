import type { Webhook } from "../api/schemas";
import { redact } from "../client/redact";

const line = (w: Webhook) => `  - ${w.webhookUuid}  ${w.endpoint}  channel=${w.channel}`;

/** Why a create failed on the 10-webhook quota, and what to do about it. */
export function quotaMessage(active: readonly Webhook[], endpoint: string): string {
  return redact(
    [
      `Cannot create the webhook for ${endpoint}: the organization already has ${active.length} active webhooks, the service's limit of 10.`,
      "Active webhooks:",
      ...active.map(line),
      "If this create is part of a replacement, Pulumi creates the new webhook before it deletes the old one",
      "(create-before-delete), so the replacement needs a free slot. Set `deleteBeforeReplace: true` in this",
      "Webhook's resource options to deactivate the old webhook first (deliveries pause during the swap), or",
      "remove a webhook you no longer need.",
    ].join("\n"),
  );
}

export function adoptMismatchMessage(uuid: string, problems: readonly string[]): string {
  return redact(
    `Refusing to adopt webhook ${uuid}: ${problems.join("; ")}. ` +
      "Make the inputs match the existing webhook exactly, or drop adoptWebhookUuid to create a new one.",
  );
}

export function ambiguousCreateMessage(endpoint: string): string {
  return (
    `The service did not confirm the create of the webhook for ${endpoint}, and no new matching webhook ` +
    "is listed, so nothing was adopted and nothing was re-sent. Run `pulumi up` again; if a matching webhook " +
    "appears in the listing later, take it over with adoptWebhookUuid instead of creating another."
  );
}
