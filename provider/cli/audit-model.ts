/**
 * How audit classifies what an organization runs against the states that should account for it:
 * - managed: in exactly one stack's state;
 * - conflict: in two or more, each of which would change or delete it (a stack that adopted a domain it
 *   did not register shares it, and its destroy leaves it registered: it holds the domain, and is no
 *   conflict);
 * - orphaned: in none, so a webhook uses a slot of the quota that nobody will free;
 * - drifted: in a state, but no longer active or registered, so that stack needs `pulumi refresh`.
 * A registered domain that no state holds but that webhooks the stacks keep still target is `unmanaged`:
 * reported with how to adopt it, but not a finding, since it is in use (and the service refuses to
 * deactivate it). Every orphan comes with the commands that adopt it.
 *
 * The states and the listings are input: the structured members hold their values as they are, and the
 * sentences (delivers, next) show each as a code span. A suggested command quotes each value as one shell
 * word; when a value cannot be shown safely, the sentence says how to find it instead.
 */
import type { Domain } from "../../contract/domains/types";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import type { Webhook } from "../../contract/webhooks/types";
import { deliveryOf, type WebhookView } from "./deliveries";
import type { Listing } from "./listing";
import { filterViews } from "./objects";
import type { StackState, StateObject } from "./state-export";
import { codeSpan, MAX_COMMAND, shellCommand } from "./untrusted";

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
  /** A domain the stack adopted: it shares it, and its destroy leaves it registered. */
  readonly adopted: boolean;
}

/** The commands that adopt an orphan, for the dynamic resources and for the plugin's. */
interface Adoption {
  /**
   * For the provider plugin (Python, Go, C#, YAML, or TypeScript through the plugin): a shell command line;
   * null when the listed uuid or hostname cannot be one safe shell word (a hidden character, a leading
   * `-`, too long).
   */
  readonly plugin: string | null;
  /** For the TypeScript dynamic resource: a statement, each value in it a JSON string literal. */
  readonly typescript: string;
}

/** An active webhook, or one a state holds that is no longer active. */
export interface AuditedWebhook {
  readonly uuid: string;
  readonly status: Exclude<Status, "unmanaged">;
  /** Left out when a state keeps it secret, or records none. */
  readonly endpoint: string | undefined;
  /** True when a state that holds the webhook keeps its endpoint secret: the report never shows it. */
  readonly secretEndpoint: boolean;
  /** Null when a state that holds the webhook keeps its channel secret. */
  readonly channel: string | null;
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
  /** What to do about it; null when it is managed by one stack alone. */
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
  adopted: object.adopted === true,
});

/** Each object of `state` once: a URN listed twice in one state is one resource, not two holders. */
function distinctObjects(state: StackState): StateObject[] {
  const seen = new Set<string>();
  return state.objects.filter((object) => {
    const key = JSON.stringify([object.uuid, object.urn]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every holder of each uuid, across all the audited stacks; a stack and URN holds it once. */
function holdersByUuid(states: readonly StackState[]): Map<string, Holder[]> {
  const holders = new Map<string, Holder[]>();
  for (const state of states) {
    for (const object of distinctObjects(state)) {
      const held = holders.get(object.uuid);
      if (held) held.push(holderOf(state, object));
      else holders.set(object.uuid, [holderOf(state, object)]);
    }
  }
  return holders;
}

/** A resource name for an adopted object: its channel or hostname, as a Pulumi name can spell it. */
const nameFor = (text: string | undefined, uuid: string) =>
  (text ?? "").replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || `adopted-${uuid.slice(0, 8)}`;

/**
 * `pulumi import <type> <name> <id>` as one command line; null when the id cannot be one safe shell word,
 * or would read as an option.
 */
const importCommand = (type: string, name: string, id: string) =>
  id.startsWith("-") ? null : (shellCommand(["pulumi", "import", type, name, id]) ?? null);

/** A JavaScript string literal of `text`, whatever it holds. */
const literal = (text: string | undefined) => JSON.stringify(text ?? "");

function webhookAdoption(hook: Webhook): Adoption {
  const name = nameFor(hook.channel, hook.webhook_uuid);
  const filters = JSON.stringify(
    hook.filters.map((f) => (f.values ? { key: f.key, values: f.values } : { key: f.key, value: f.value })),
  );
  return {
    plugin: importCommand("service:index:Webhook", name, hook.webhook_uuid),
    typescript: `new Webhook(${literal(name)}, { endpoint: ${literal(hook.endpoint.value)}, channel: ${literal(hook.channel)}, filters: ${filters}, secretKey, adoptWebhookUuid: ${literal(hook.webhook_uuid)} })`,
  };
}

function domainAdoption(domain: Domain): Adoption {
  const name = nameFor(domain.domain_name.split(".")[0], domain.domain_uuid);
  return {
    plugin: importCommand("service:index:DomainVerification", name, domain.domain_name),
    typescript: `new Domain(${literal(name)}, { domainName: ${literal(domain.domain_name)}, adopt: true })`,
  };
}

/** `command` as a code span, for a sentence: shellCommand keeps it short enough to show whole. */
const shown = (command: string) => codeSpan(command, MAX_COMMAND);

/** " in project `infra`'s folder". */
const inFolder = (holder: Holder) => ` in project ${codeSpan(holder.project)}'s folder`;

/** How to drop `holder`'s resource from its stack's state, without deleting the object. */
function removal(holder: Holder): string {
  const command = shellCommand([
    "pulumi",
    "state",
    "delete",
    holder.urn,
    "--stack",
    holder.stackName,
    "--yes",
  ]);
  if (command) return `${shown(command)}${inFolder(holder)}`;
  const find = shellCommand(["pulumi", "stack", "--show-urns", "--stack", holder.stackName]);
  return `\`pulumi state delete <urn> --yes\` on the resource ${codeSpan(holder.name)} of ${codeSpan(holder.stack)}, whose URN holds characters that cannot be shown safely: find it with ${find ? shown(find) : "`pulumi stack --show-urns` in that stack (whose name cannot be shown safely either)"}${inFolder(holder)}`;
}

function conflictNext(holders: readonly Holder[]): string {
  const perStack = new Map<string, number>();
  for (const h of holders) perStack.set(h.stack, (perStack.get(h.stack) ?? 0) + 1);
  // Two resources of one stack may hold it: each is then named by its resource too.
  const names = holders.map((h) =>
    perStack.get(h.stack)! > 1 ? `${codeSpan(h.stack)} (${codeSpan(h.name)})` : codeSpan(h.stack),
  );
  return `each of ${names.join(" and ")} would change or delete it: keep it in ${names[0]}, and remove it from the others: ${holders.slice(1).map(removal).join("; ")}`;
}

/**
 * A domain one stack registered and others adopted: the registering stack's destroy is refused while the
 * others' webhooks target it, so those stacks go first, or it leaves the domain to them.
 */
function sharedNext(registrar: Holder, sharers: readonly Holder[]): string {
  const others = sharers.map((h) => codeSpan(h.stack)).join(" and ");
  return `shared: ${codeSpan(registrar.stack)} registered it, ${others} adopted it and leave${sharers.length === 1 ? "s" : ""} it registered when destroyed. Destroy ${others} before ${codeSpan(registrar.stack)}, whose destroy is refused while their webhooks target it; or leave it to them: ${removal(registrar)}`;
}

function driftNext(holder: Holder): string {
  const command = shellCommand(["pulumi", "refresh", "--stack", holder.stackName]);
  const refresh = command
    ? `run ${shown(command)}`
    : `run \`pulumi refresh\` on stack ${codeSpan(holder.stackName)}, selected with \`pulumi stack select\` (its name cannot be shown safely in a command),`;
  return `${refresh}${inFolder(holder)}, which drops it from the state (the next \`pulumi up\` creates it again)`;
}

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
    distinctObjects(state)
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
  // What a stack made secret stays so, though the listing shows it.
  const secret = new Map<string, string[]>();
  for (const object of allStates.flatMap((state) => state.objects)) {
    secret.set(object.uuid, [...(secret.get(object.uuid) ?? []), ...object.hidden]);
  }
  const webhooks: AuditedWebhook[] = input.webhooks.items.map((hook) => {
    const found = status(hook.webhook_uuid);
    const held = holders.get(hook.webhook_uuid) ?? [];
    const hidden = secret.get(hook.webhook_uuid) ?? [];
    const secretEndpoint = hidden.includes("endpoint");
    return {
      uuid: hook.webhook_uuid,
      status: found,
      endpoint: secretEndpoint ? undefined : hook.endpoint.value,
      secretEndpoint,
      channel: hidden.includes("channel") ? null : hook.channel,
      delivers: deliveryOf({ ...viewOf(hook), hidden }),
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
      hidden: object.hidden,
      channel: object.channel ?? "default",
      filters: object.filters ?? [],
    };
    webhooks.push({
      uuid: object.uuid,
      status: "drifted",
      endpoint: object.endpoint,
      secretEndpoint: object.hidden.includes("endpoint"),
      channel: object.hidden.includes("channel") ? null : view.channel,
      delivers: deliveryOf(view),
      stacks: [holder],
      adopt: null,
      next: `no longer active: ${driftNext(holder)}`,
    });
  }
  // A domain is in use when a webhook that a stack keeps targets it; orphaned webhooks do not count.
  const usersByHost = new Map<string, number>();
  for (const hook of input.webhooks.items) {
    if (!holders.has(hook.webhook_uuid) || !URL.canParse(hook.endpoint.value)) continue;
    const host = new URL(hook.endpoint.value).hostname;
    usersByHost.set(host, (usersByHost.get(host) ?? 0) + 1);
  }
  const users = (name: string) => usersByHost.get(name) ?? 0;
  const domains: AuditedDomain[] = input.domains.items.map((domain) => {
    const held = holders.get(domain.domain_uuid) ?? [];
    // Only the stacks that registered it would delete it; those that adopted it share it.
    const registrars = held.filter((h) => !h.adopted);
    const sharers = held.filter((h) => h.adopted);
    const found = held.length === 0 ? "orphaned" : registrars.length > 1 ? "conflict" : "managed";
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
            ? conflictNext(registrars)
            : registrars.length === 1 && sharers.length > 0
              ? sharedNext(registrars[0]!, sharers)
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
    webhooks: webhooks.sort(byStatus((w) => w.channel ?? "")),
    domains: domains.sort(byStatus((d) => d.domainName ?? "")),
  };
}

const ORDER: Readonly<Record<Status, number>> = {
  conflict: 0,
  orphaned: 1,
  drifted: 2,
  unmanaged: 3,
  managed: 4,
};
/** Findings first, then by what a reader recognises (channel or hostname), then by uuid. */
const byStatus =
  <T extends { status: Status; uuid: string }>(key: (o: T) => string) =>
  (a: T, b: T) =>
    ORDER[a.status] - ORDER[b.status] || key(a).localeCompare(key(b)) || a.uuid.localeCompare(b.uuid);

/** How many objects of all organizations have each status. */
export function summaryOf(organizations: readonly OrganizationAudit[]): Record<Status, number> {
  const summary: Record<Status, number> = { managed: 0, conflict: 0, orphaned: 0, drifted: 0, unmanaged: 0 };
  for (const org of organizations) for (const o of [...org.webhooks, ...org.domains]) summary[o.status] += 1;
  return summary;
}
