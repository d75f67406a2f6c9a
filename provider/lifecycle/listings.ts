import type { Domain } from "../../contract/domains/types";
import type { Webhook } from "../../contract/webhooks/types";
import type { ServiceClient } from "../client/client";
import { type ContextKey, contextKey, processContext } from "../context/process";
import { credentialKey } from "./clients";

/**
 * One listing serves every resource of the same credentials in this provider process: a refresh of ten
 * webhooks reads the organization's active webhooks once. Entries live briefly, and every create or
 * delete through this process drops them, so a listing never hides this process's own changes.
 */
const TTL_MS = 10_000;

interface Entry<T> {
  readonly at: number;
  readonly items: Promise<T[]>;
}

type Cache<T> = Map<string, Entry<T>>;
const WEBHOOK_LISTINGS = contextKey("active-webhook listings", () => new Map() as Cache<Webhook>);
const DOMAIN_LISTINGS = contextKey("registered-domain listings", () => new Map() as Cache<Domain>);

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

function cached<T>(
  key: ContextKey<Cache<T>>,
  client: ServiceClient,
  fresh: boolean,
  load: () => AsyncIterable<T>,
): Promise<T[]> {
  const { clock } = processContext();
  const cache = processContext().get(key);
  const id = credentialKey(client);
  const now = clock.now();
  const hit = cache.get(id);
  if (!fresh && hit && now - hit.at < TTL_MS) return hit.items;
  const items = collect(load());
  cache.set(id, { at: now, items });
  items.catch(() => {
    if (cache.get(id)?.items === items) cache.delete(id);
  });
  return items;
}

/** The organization's active webhooks; `fresh` skips the cache (and refills it). */
export function activeWebhooks(client: ServiceClient, { fresh = false } = {}): Promise<Webhook[]> {
  return cached(WEBHOOK_LISTINGS, client, fresh, () => client.webhooks.iterate());
}

/** The organization's registered domains; `fresh` skips the cache (and refills it). */
export function registeredDomains(client: ServiceClient, { fresh = false } = {}): Promise<Domain[]> {
  return cached(DOMAIN_LISTINGS, client, fresh, () => client.domains.iterate());
}

/** Drops the cached webhook listing after a change through this process. */
export function forgetWebhooks(client: ServiceClient): void {
  processContext().get(WEBHOOK_LISTINGS).delete(credentialKey(client));
}

/** Drops the cached domain listing after a change through this process. */
export function forgetDomains(client: ServiceClient): void {
  processContext().get(DOMAIN_LISTINGS).delete(credentialKey(client));
}
