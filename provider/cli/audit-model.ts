/**
 * How audit classifies what an organization runs against the states that should account for it:
 * - managed: in exactly one stack's state;
 * - conflict: in two or more, each of which would change or delete it;
 * - orphaned: in none, so a webhook uses a slot of the quota that nobody will free;
 * - drifted: in a state, but no longer active or registered, so that stack needs `pulumi refresh`.
 * A registered domain that no state holds but that webhooks the stacks keep still target is `unmanaged`:
 * reported with how to adopt it, but not a finding, since it is in use (and the service refuses to
 * deactivate it). Every orphan comes with the commands that adopt it.
 */
import type { Domain } from "../../contract/domains/types";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import type { Webhook } from "../../contract/webhooks/types";
import { deliveryOf, type WebhookView } from "./deliveries";
import type { Listing } from "./listing";
import { filterViews } from "./objects";
import type { StackState, StateObject } from "./state-export";

/** What audit found an object to be. */
export type Status = "managed" | "conflict" | "orphaned" | "drifted" | "unmanaged";

/** The statuses that make audit exit 1. */
export const FINDINGS: readonly Status[] = ["conflict", "orphaned", "drifted"];

/** A stack whose state holds an object, and the resource that stands for it there. */
export interface Holder {
  /** `project/stack`, as the report names the stack. */
  readonly stack: string;
  /** The Pulumi project and stack names, for the commands the report gives. */
  readonly project: string;
  readonly stackName: string;
  /** The resource's name. */
  readonly name: string;
  readonly urn: string;
}

/** The commands that adopt an orphan, for each front door. */
interface Adoption {
  /** For the provider plugin (Python, Go, C#, YAML, or TypeScript through the plugin). */
  readonly plugin: string;
  /** For the TypeScript dynamic resource. */
  readonly typescript: string;
}

/** An active webhook, or one a state holds that is no longer active. */
export interface AuditedWebhook {
  readonly uuid: string;
  readonly status: Exclude<Status, "unmanaged">;
  readonly endpoint: string | undefined;
  readonly channel: string;
  /** What it delivers, in plain words. */
  readonly delivers: string;
  readonly stacks: readonly Holder[];
  /** The commands that adopt it; null unless it is orphaned. */
  readonly adopt: Adoption | null;
  /** What to do about it; null when it is managed. */
  readonly next: string | null;
}

/** A registered domain, or one a state holds that is no longer registered. */
export interface AuditedDomain {
  readonly uuid: string;
  readonly domainName: string | undefined;
  readonly status: Status;
  readonly stacks: readonly Holder[];
  /** The commands that adopt it; null unless no state holds it. */
  readonly adopt: Adoption | null;
  /** What to do about it; null when it is managed. */
  readonly next: string | null;
}

/** One organization's audit. */
export interface OrganizationAudit {
  readonly organization: string;
  /** The stacks audited against it. */
  readonly stacks: readonly string[];
  /** Active webhooks, of the limit. */
  readonly quota: { readonly used: number; readonly limit: number };
  /** The requests each listing took (pages of 20). */
  readonly requests: { readonly webhooks: number; readonly domains: number };
  readonly webhooks: readonly AuditedWebhook[];
  readonly domains: readonly AuditedDomain[];
}

/** What one organization's listings and stacks are, before classification. */
export interface OrganizationInput {
  readonly organization: string;
  readonly stacks: readonly StackState[];
  readonly webhooks: Listing<Webhook>;
  readonly domains: Listing<Domain>;
}

const holderOf = (state: StackState, object: StateObject): Holder => ({
  stack: state.label,
  project: state.project,
  stackName: state.stack,
  name: object.name,
  urn: object.urn,
});

/** Every holder of each uuid, across all the audited stacks. */
function holdersByUuid(states: readonly StackState[]): Map<string, Holder[]> {
  const holders = new Map<string, Holder[]>();
  for (const state of states) {
    for (const object of state.objects)
      holders.set(object.uuid, [...(holders.get(object.uuid) ?? []), holderOf(state, object)]);
  }
  return holders;
}

/** A resource name for an adopted object: its channel or hostname, as a Pulumi name can spell it. */
const nameFor = (text: string | undefined, uuid: string) =>
  (text ?? "").replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || `adopted-${uuid.slice(0, 8)}`;

function webhookAdoption(hook: Webhook): Adoption {
  const name = nameFor(hook.channel, hook.webhook_uuid);
  const filters = JSON.stringify(
    hook.filters.map((f) => (f.values ? { key: f.key, values: f.values } : { key: f.key, value: f.value })),
  );
  return {
    plugin: `pulumi import service:index:Webhook ${name} ${hook.webhook_uuid}`,
    typescript: `new Webhook("${name}", { endpoint: "${hook.endpoint.value}", channel: "${hook.channel}", filters: ${filters}, secretKey, adoptWebhookUuid: "${hook.webhook_uuid}" })`,
  };
}

function domainAdoption(domain: Domain): Adoption {
  const name = nameFor(domain.domain_name.split(".")[0], domain.domain_uuid);
  return {
    plugin: `pulumi import service:index:DomainVerification ${name} ${domain.domain_name}`,
    typescript: `new Domain("${name}", { domainName: "${domain.domain_name}", adopt: true })`,
  };
}

const conflictNext = ([kept, ...others]: readonly Holder[]) =>
  `each of ${[kept!, ...others].map((h) => h.stack).join(" and ")} would change or delete it: keep it in ${kept!.stack}, and remove it from the others: ${others.map((h) => `\`pulumi state delete '${h.urn}' --stack ${h.stackName} --yes\` in project ${h.project}'s folder`).join("; ")}`;

const driftNext = (holder: Holder) =>
  `run \`pulumi refresh --stack ${holder.stackName}\` in project ${holder.project}'s folder, which drops it from the state (the next \`pulumi up\` creates it again)`;

/**
 * The objects of `kind` of `organization` (or of none recorded) that `stacks` hold but its listing did not
 * show: drifted. An object of another organization is not in this listing by design.
 */
function unlisted(
  stacks: readonly StackState[],
  kind: StateObject["kind"],
  organization: string,
  listed: ReadonlySet<string>,
): [Holder, StateObject][] {
  return stacks.flatMap((state) =>
    state.objects
      .filter(
        (o) => o.kind === kind && (o.organization ?? organization) === organization && !listed.has(o.uuid),
      )
      .map((o): [Holder, StateObject] => [holderOf(state, o), o]),
  );
}

const viewOf = (hook: Webhook): WebhookView => ({
  uuid: hook.webhook_uuid,
  endpoint: hook.endpoint.value,
  channel: hook.channel,
  filters: filterViews(hook.filters),
});

/**
 * Classifies one organization's listed objects against `allStates` (a uuid held by a stack of another
 * credential group still counts as held), and the objects of its own stacks that are no longer listed.
 */
export function auditOrganization(
  input: OrganizationInput,
  allStates: readonly StackState[],
): OrganizationAudit {
  const holders = holdersByUuid(allStates);
  const status = (uuid: string) => {
    const n = holders.get(uuid)?.length ?? 0;
    return n === 0 ? "orphaned" : n === 1 ? "managed" : "conflict";
  };
  const webhooks: AuditedWebhook[] = input.webhooks.items.map((hook) => {
    const found = status(hook.webhook_uuid);
    const held = holders.get(hook.webhook_uuid) ?? [];
    return {
      uuid: hook.webhook_uuid,
      status: found,
      endpoint: hook.endpoint.value,
      channel: hook.channel,
      delivers: deliveryOf(viewOf(hook)),
      stacks: held,
      adopt: found === "orphaned" ? webhookAdoption(hook) : null,
      next:
        found === "orphaned"
          ? "in no stack's state, it uses a slot of the quota: adopt it, or deactivate it with --deactivate-orphans"
          : found === "conflict"
            ? conflictNext(held)
            : null,
    };
  });
  const listedHooks = new Set(input.webhooks.items.map((w) => w.webhook_uuid));
  for (const [holder, object] of unlisted(input.stacks, "webhook", input.organization, listedHooks)) {
    const view = {
      uuid: object.uuid,
      endpoint: object.endpoint,
      channel: object.channel ?? "default",
      filters: object.filters ?? [],
    };
    webhooks.push({
      uuid: object.uuid,
      status: "drifted",
      endpoint: object.endpoint,
      channel: view.channel,
      delivers: deliveryOf(view),
      stacks: [holder],
      adopt: null,
      next: `no longer active: ${driftNext(holder)}`,
    });
  }
  // A domain is in use when a webhook that a stack keeps targets it; orphaned webhooks do not count.
  const kept = input.webhooks.items.filter((w) => holders.has(w.webhook_uuid));
  const users = (name: string) =>
    kept.filter((w) => URL.canParse(w.endpoint.value) && new URL(w.endpoint.value).hostname === name).length;
  const domains: AuditedDomain[] = input.domains.items.map((domain) => {
    const held = holders.get(domain.domain_uuid) ?? [];
    const found = status(domain.domain_uuid);
    const inUse = users(domain.domain_name);
    const unmanaged = found === "orphaned" && inUse > 0;
    return {
      uuid: domain.domain_uuid,
      domainName: domain.domain_name,
      status: unmanaged ? "unmanaged" : found,
      stacks: held,
      adopt: found === "orphaned" ? domainAdoption(domain) : null,
      next: unmanaged
        ? `in no stack's state, but the host of ${inUse} active webhook${inUse === 1 ? "" : "s"} the stacks keep: adopt it`
        : found === "orphaned"
          ? "in no stack's state, and no webhook a stack keeps targets it: adopt it, or deactivate it with --deactivate-orphans"
          : found === "conflict"
            ? conflictNext(held)
            : null,
    };
  });
  const listedDomains = new Set(input.domains.items.map((d) => d.domain_uuid));
  for (const [holder, object] of unlisted(input.stacks, "domain", input.organization, listedDomains)) {
    domains.push({
      uuid: object.uuid,
      domainName: object.domainName,
      status: "drifted",
      stacks: [holder],
      adopt: null,
      next: `no longer registered: ${driftNext(holder)}`,
    });
  }
  return {
    organization: input.organization,
    stacks: input.stacks.map((s) => s.label),
    quota: { used: input.webhooks.items.length, limit: MAX_ACTIVE_WEBHOOKS },
    requests: { webhooks: input.webhooks.requests, domains: input.domains.requests },
    webhooks: webhooks.sort(byStatus((w) => w.channel)),
    domains: domains.sort(byStatus((d) => d.domainName ?? "")),
  };
}

const ORDER: readonly Status[] = ["conflict", "orphaned", "drifted", "unmanaged", "managed"];
/** Findings first, then by what a reader recognises (channel or hostname), then by uuid. */
const byStatus =
  <T extends { status: Status; uuid: string }>(key: (o: T) => string) =>
  (a: T, b: T) =>
    ORDER.indexOf(a.status) - ORDER.indexOf(b.status) ||
    key(a).localeCompare(key(b)) ||
    a.uuid.localeCompare(b.uuid);

/** How many objects of all organizations have each status. */
export function summaryOf(organizations: readonly OrganizationAudit[]): Record<Status, number> {
  const summary: Record<Status, number> = { managed: 0, conflict: 0, orphaned: 0, drifted: 0, unmanaged: 0 };
  for (const org of organizations) for (const o of [...org.webhooks, ...org.domains]) summary[o.status] += 1;
  return summary;
}
