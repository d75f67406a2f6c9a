/**
 * One listing pass over an organization's active webhooks and registered domains: pages of 20, through
 * the provider's client (its shared limiter and retries), and how many requests each took. A failure (a
 * 429 or 5xx the retries did not get past, a refused token) is one line naming the stack and the cause.
 */
import type { Domain } from "../../contract/domains/types";
import type { Webhook } from "../../contract/webhooks/types";
import type { ServiceClient } from "../client/client";
import type { Page, PageRequest } from "../client/pages";
import { redact } from "../context/process";
import { CliFailure } from "./failure";

/** The page size of every listing: the most the v2 webhook and domain searches take. */
const PAGE_SIZE = 20;
/** No organization has this many pages of webhooks or domains; a cursor that never ends stops here. */
const MAX_PAGES = 1000;

/** What one listing read, and in how many requests. */
export interface Listing<T> {
  readonly items: readonly T[];
  readonly requests: number;
}

async function listAll<T>(search: (page: PageRequest) => Promise<Page<T>>): Promise<Listing<T>> {
  const items: T[] = [];
  let cursor: string | null = null;
  let requests = 0;
  do {
    const page: Page<T> = await search({ limit: PAGE_SIZE, cursor });
    requests += 1;
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null && requests < MAX_PAGES);
  return { items, requests };
}

async function listing<T>(
  kind: string,
  label: string,
  search: (page: PageRequest) => Promise<Page<T>>,
): Promise<Listing<T>> {
  try {
    return await listAll(search);
  } catch (error) {
    throw new CliFailure(
      `${label}: listing the organization's ${kind} failed: ${redact((error as Error).message)}`,
    );
  }
}

/** One pass over the active webhooks of `client`'s organization; `label` names the stack in a failure. */
export const listWebhooks = (client: ServiceClient, label: string): Promise<Listing<Webhook>> =>
  listing("webhooks", label, (page) => client.searchWebhooks(page));

/** One pass over the registered domains of `client`'s organization; `label` names the stack in a failure. */
export const listDomains = (client: ServiceClient, label: string): Promise<Listing<Domain>> =>
  listing("domains", label, (page) => client.searchDomains(page));

/** The organization's name as its listed objects' owner shows it; undefined when nothing was listed. */
export function organizationListed(
  webhooks: readonly Webhook[],
  domains: readonly Domain[] = [],
): string | undefined {
  return (
    webhooks.find((w) => w.webhook_owner)?.webhook_owner?.organization.name ??
    domains.find((d) => d.domain_owner)?.domain_owner?.organization.name
  );
}
