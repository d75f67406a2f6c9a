/**
 * One listing pass over an organization's active webhooks and registered domains: pages of 20, through
 * the provider's client (its shared limiter and retries), and how many requests each took. A failure (a
 * 429 or 5xx the retries did not get past, a refused token) is one line naming the stack and the cause.
 */
import type { Domain } from "../../contract/domains/types";
import type { Webhook } from "../../contract/webhooks/types";
import type { ServiceClient } from "../client/client";
import type { Page, PageRequest } from "../client/pages";
import { CliFailure } from "./failure";

/** The page size of every listing: the most the v2 webhook and domain searches take. */
const PAGE_SIZE = 20;
/** No organization has this many pages of webhooks or domains: a listing that goes on is refused here. */
const MAX_PAGES = 1000;

/** What one listing read, and in how many requests. */
export interface Listing<T> {
  readonly items: readonly T[];
  readonly requests: number;
}

/**
 * Every page of one listing. An answer that could not be the whole listing is refused rather than
 * reported as if it were (an audit would call it clean, or count its repeats): a page larger than asked
 * for, a cursor that comes back (it would page forever), or no end after MAX_PAGES.
 */
async function listAll<T>(search: (page: PageRequest) => Promise<Page<T>>): Promise<Listing<T>> {
  const untrusted = (cause: string) =>
    new Error(
      `${cause}, so it cannot be taken as the whole listing: run again, and report it if it persists.`,
    );
  const items: T[] = [];
  const cursors = new Set<string>();
  let cursor: string | null = null;
  let requests = 0;
  do {
    if (requests === MAX_PAGES) throw untrusted(`it did not end after ${MAX_PAGES} pages`);
    const page: Page<T> = await search({ limit: PAGE_SIZE, cursor });
    requests += 1;
    if (page.items.length > PAGE_SIZE) {
      throw untrusted(`a page held ${page.items.length} items, more than the ${PAGE_SIZE} asked for`);
    }
    items.push(...page.items);
    cursor = page.next_cursor;
    if (cursor !== null && cursors.has(cursor)) {
      throw untrusted(`the cursor ${JSON.stringify(cursor)} came back a second time`);
    }
    if (cursor !== null) cursors.add(cursor);
  } while (cursor !== null);
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
    throw new CliFailure(`${label}: listing the organization's ${kind} failed: ${(error as Error).message}`);
  }
}

/** One pass over the active webhooks of `client`'s organization; `label` names the stack in a failure. */
export const listWebhooks = (client: ServiceClient, label: string): Promise<Listing<Webhook>> =>
  listing("webhooks", label, (page) => client.webhooks.list(page));

/** One pass over the registered domains of `client`'s organization; `label` names the stack in a failure. */
export const listDomains = (client: ServiceClient, label: string): Promise<Listing<Domain>> =>
  listing("domains", label, (page) => client.domains.list(page));

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
