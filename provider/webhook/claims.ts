import { contextKey, processContext } from "../context/process";
import type { WebhookIdentity } from "./schema";

/**
 * How a Webhook's resource id starts while its create's outcome is unknown. A later update that settles
 * the create records the webhook's uuid in `webhookUuid`, but cannot change the id: it stays a
 * placeholder until a refresh, so readers of a state take the uuid from `webhookUuid` first.
 */
export const PENDING_ID_PREFIX = "pending-";

/**
 * Which webhooks resources in this process already stand for, and which configurations have a create
 * whose outcome is unknown. Reconciling a lost create picks a matching webhook that appeared after the
 * attempt; it must never pick one that another resource owns.
 */
const CLAIMS = contextKey("webhook claims", () => ({
  uuids: new Set<string>(),
  pending: new Set<string>(),
}));

const claims = () => processContext().get(CLAIMS);
const keyOf = (identity: WebhookIdentity) => JSON.stringify(identity);

/** Records that a resource stands for this webhook. */
export function claim(uuid: string | undefined): void {
  if (uuid) claims().uuids.add(uuid);
}

export function isClaimed(uuid: string): boolean {
  return claims().uuids.has(uuid);
}

/** Every webhook a resource in this process stands for. */
export function claimedUuids(): string[] {
  return [...claims().uuids];
}

/** Notes that a resource with this configuration has a create whose outcome is unknown. */
export function notePending(identity: WebhookIdentity): void {
  claims().pending.add(keyOf(identity));
}

export function clearPending(identity: WebhookIdentity): void {
  claims().pending.delete(keyOf(identity));
}

export function hasPending(identity: WebhookIdentity): boolean {
  return claims().pending.has(keyOf(identity));
}
