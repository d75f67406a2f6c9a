import type { Domain, Webhook } from "../api/schemas";
import type { ServiceClient } from "../client/client";
import { credentialKey } from "./credentials";

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

const webhookListings = new Map<string, Entry<Webhook>>();
const domainListings = new Map<string, Entry<Domain>>();

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

function cached<T>(
  cache: Map<string, Entry<T>>,
  client: ServiceClient,
  load: () => AsyncIterable<T>,
): Promise<T[]> {
  const key = credentialKey(client);
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < TTL_MS) return hit.items;
  const items = collect(load());
  cache.set(key, { at: now, items });
  items.catch(() => cache.delete(key));
  return items;
}

export function activeWebhooks(client: ServiceClient, { fresh = false } = {}): Promise<Webhook[]> {
  if (fresh) forgetWebhooks(client);
  return cached(webhookListings, client, () => client.webhooks());
}

export function registeredDomains(client: ServiceClient, { fresh = false } = {}): Promise<Domain[]> {
  if (fresh) forgetDomains(client);
  return cached(domainListings, client, () => client.domains());
}

export function forgetWebhooks(client: ServiceClient): void {
  webhookListings.delete(credentialKey(client));
}

export function forgetDomains(client: ServiceClient): void {
  domainListings.delete(credentialKey(client));
}
