import type { ServiceClient } from "../client/client";
import { processContext } from "../context/process";
import { schemaOf } from "../settings/schema-kit";
import { SETTINGS, textOf } from "../settings/table";
import { isClaimed } from "./claims";
import { identityOf, sameIdentity, type WebhookIdentity } from "./schema";
import type { WebhookRecord } from "./wire";
import { activeWebhooks } from "./wire";

/**
 * Finding out what a create whose answer was lost did. The service has no idempotency key and cannot tell
 * two webhooks with the same endpoint, channel and filters apart, so the only evidence is the active
 * listing: a matching webhook that appeared after the create was sent, and that no other resource stands
 * for, is this one's.
 */

/** The Date header has whole seconds, and the service stamps the create somewhere inside the request. */
const CLOCK_MARGIN_MS = 2_000;

export interface Search {
  readonly client: ServiceClient;
  readonly identity: WebhookIdentity;
  /** When the create was sent, on the service's clock. */
  readonly since: number;
  /** Webhooks known to belong to other resources. */
  readonly exclude: readonly string[];
}

/** Matching webhooks that appeared since the attempt and no other resource stands for. */
export function candidatesIn(
  listed: readonly WebhookRecord[],
  search: Omit<Search, "client">,
): WebhookRecord[] {
  return listed.filter((hook) => {
    if (isClaimed(hook.webhookUuid) || search.exclude.includes(hook.webhookUuid)) return false;
    if (!sameIdentity(identityOf(hook), search.identity)) return false;
    const created = hook.createTime === undefined ? undefined : hook.createTime.epoch * 1000;
    return created === undefined || created >= search.since - CLOCK_MARGIN_MS;
  });
}

/** The candidates in a fresh listing. */
export async function candidates(search: Search): Promise<WebhookRecord[]> {
  return candidatesIn(await activeWebhooks(search.client, { fresh: true }), search);
}

/** The service-clock time of a local moment, using the offset the client's answers have shown. */
function serviceTime(client: ServiceClient, localMs: number): number {
  return client.serverNow() - (processContext().clock.now() - localMs);
}

/**
 * Re-lists until a candidate appears or `windowMs` has passed, at growing intervals: a create the service
 * applies late (after the client's timeout) shows up here rather than as a duplicate on the next run.
 * Undefined when no listing succeeded at all.
 */
export async function awaitCandidates(
  search: Omit<Search, "since"> & { readonly sentAtLocal: number; readonly since?: number },
  windowMs: number,
): Promise<{ found: WebhookRecord[] | undefined; since: number }> {
  const { clock } = processContext();
  const deadline = clock.now() + windowMs;
  let found: WebhookRecord[] | undefined;
  let since = search.since ?? serviceTime(search.client, search.sentAtLocal);
  for (let pause = 1_000; ; pause *= 2) {
    try {
      const listed = await activeWebhooks(search.client, { fresh: true });
      // Each answer refines the service's clock offset; the time kept is what later runs compare with.
      since = search.since ?? serviceTime(search.client, search.sentAtLocal);
      found = candidatesIn(listed, { ...search, since });
    } catch {
      // The listing failed too: the outcome stays unknown until one succeeds.
    }
    const left = deadline - clock.now();
    if ((found && found.length > 0) || left <= 0) return { found, since };
    await clock.sleep(Math.min(pause, left));
  }
}

const { reconcile: RECONCILE } = SETTINGS;

/** Environment variable: seconds to re-list after a create whose answer was lost (default 30). */
export const RECONCILE_ENV = RECONCILE.env;

/**
 * How long to re-list after an ambiguous create. A lost answer (timeout, dropped connection) may belong to
 * a request the service is still working on, so it gets the whole window; an answered 5xx means the
 * service has finished with the request, so a short look suffices.
 */
export function reconcileWindowMs(answered: boolean): number {
  const configured = schemaOf(RECONCILE).safeParse(textOf(process.env[RECONCILE_ENV]));
  const window = (configured.success ? configured.data : RECONCILE.default) * 1000;
  return answered ? Math.min(window, 5_000) : window;
}
