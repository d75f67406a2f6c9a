/**
 * How many Webhooks a program declares per organization, counted before any is created: the service
 * allows an organization `MAX_ACTIVE_WEBHOOKS` active webhooks and refuses each create beyond (409), so a
 * program that declares more would stop halfway through `pulumi up`. Pure bookkeeping: who is counted
 * and where, with no Pulumi and no API. The program's side (program-quota.ts) and the provider plugin's
 * side (plan.ts) each keep one tally per run.
 */
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";

/** One declared Webhook, as the tally counts it. */
export interface Declared {
  /** What makes it one Webhook: its URN, or its place in the program. Counted once, however often recorded. */
  readonly id: string;
  /** Its name in the program, which messages list. */
  readonly name: string;
  /** The key of the organization its credentials reach (see organizationKey). */
  readonly organization: string;
}

/** What one organization holds: the names of the Webhooks declared for it, in the order first recorded. */
export interface Holding {
  /** The organization's key. */
  readonly organization: string;
  /** The names of its Webhooks, each once. */
  readonly names: readonly string[];
}

/** Whether `holding` has more Webhooks than the organization may have active at once. */
export function overQuota(holding: Holding, quota: number = MAX_ACTIVE_WEBHOOKS): boolean {
  return holding.names.length > quota;
}

/**
 * Webhooks per organization. Recording a Webhook again (the same id) changes nothing, so a resource that
 * is checked twice, or replaced, still takes one place.
 */
export class QuotaTally {
  /** Per organization, the names of its Webhooks by id. */
  private readonly organizations = new Map<string, Map<string, string>>();

  /** Records each of `declared`; answers what each organization among them now holds. */
  record(declared: readonly Declared[]): Holding[] {
    for (const { id, name, organization } of declared) {
      const names = this.organizations.get(organization) ?? new Map<string, string>();
      names.set(id, name);
      this.organizations.set(organization, names);
    }
    return [...new Set(declared.map((d) => d.organization))].map((o) => this.holding(o));
  }

  /** What `organization` holds now (nothing, if nothing was recorded for it). */
  holding(organization: string): Holding {
    return { organization, names: [...(this.organizations.get(organization)?.values() ?? [])] };
  }
}
