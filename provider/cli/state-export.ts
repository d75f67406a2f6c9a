/**
 * Reads a stack's state as `pulumi stack export` writes it: the Webhooks and Domains it holds (dynamic and
 * plugin resources alike), each with its uuid and what the commands print of it. Only the members in
 * objects.ts are read (zod strips the rest), so an encrypted or plain secret is never kept. The stack and
 * project are read from the URNs.
 */
import { z } from "zod";
import { CliFailure } from "./failure";
import { readJsonInput } from "./json-input";
import {
  type DomainProps,
  domainProps,
  type FilterView,
  filterViews,
  objectKind,
  objectName,
  ResourceState,
  type WebhookProps,
  webhookProps,
} from "./objects";
import { parseUrn, stackLabel } from "./urn";

const PendingOperation = z.looseObject({ resource: z.looseObject({ type: z.string(), urn: z.string() }) });

const StackExport = z.looseObject({
  version: z.number(),
  deployment: z.looseObject({
    resources: z.array(ResourceState).nullish(),
    pending_operations: z.array(PendingOperation).nullish(),
  }),
});

/** A Webhook or Domain a state holds. */
export interface StateObject {
  readonly kind: "webhook" | "domain";
  /** Its webhook_uuid or domain_uuid. */
  readonly uuid: string;
  /** The resource name a reader knows it by. */
  readonly name: string;
  readonly urn: string;
  /** The organization that owns it, as recorded when it was created or last refreshed. */
  readonly organization: string | undefined;
  /** A Webhook's endpoint, channel and filters; a Domain's hostname. */
  readonly endpoint?: string | undefined;
  readonly channel?: string | undefined;
  readonly filters?: readonly FilterView[];
  readonly domainName?: string | undefined;
  /** A Domain this stack shares but did not register (status adopted): its destroy leaves it registered. */
  readonly adopted?: boolean;
  /** Members the state keeps secret (`endpoint`, say): present, never read or printed. */
  readonly hidden: readonly string[];
}

/** A Webhook or Domain of a state that could not be read whole, and why, in the report's words. */
interface UnreadObject {
  readonly urn: string;
  readonly cause: string;
}

/** One stack's state, as audit reads it. */
export interface StackState {
  /** Where it came from: a file, or `pulumi stack export --stack <name>`. */
  readonly source: string;
  readonly project: string;
  readonly stack: string;
  /** `project/stack`. */
  readonly label: string;
  readonly objects: readonly StateObject[];
  /**
   * The Webhooks and Domains it holds that could not be read whole (no id, a member in an unknown shape),
   * and those an interrupted update left pending: what they stand for is unknown, so no listed object can
   * be called an orphan while one is here.
   */
  readonly unread: readonly UnreadObject[];
}

const NEXT = "give the output of `pulumi stack export --stack <name> > state.json`";

/**
 * Reads one stack export's text; `source` names it in every failure. The stack is `exported`'s when the
 * state was exported here (a state imported from another stack keeps that stack's name in its URNs),
 * else the URNs'.
 */
export function readState(
  source: string,
  text: string,
  exported?: { project: string; stack: string },
): StackState {
  const state = readJsonInput(source, text, {
    schema: StackExport,
    what: "a stack's state",
    items: {
      of: (json) => (json.deployment as { resources?: unknown } | undefined)?.resources,
      are: "resources",
    },
    next: NEXT,
    other: { member: "steps", says: "a preview's JSON, not a stack's state; review reads previews" },
  });
  const resources = state.deployment.resources ?? [];
  const first = exported ?? resources.map((r) => parseUrn(r.urn)).find((u) => u !== undefined);
  if (!first)
    throw new CliFailure(`${source}: the state holds no resource, so its stack is unknown: ${NEXT}.`);
  const objects: StateObject[] = [];
  const unread: UnreadObject[] = [];
  for (const resource of resources) {
    const read = stateObject(resource);
    if (read === undefined) continue;
    if ("cause" in read) unread.push(read);
    else objects.push(read);
  }
  for (const { resource } of state.deployment.pending_operations ?? []) {
    if (objectKind(resource.type)) {
      unread.push({
        urn: resource.urn,
        cause: "an interrupted update left an operation on it pending",
      });
    }
  }
  return { source, project: first.project, stack: first.stack, label: stackLabel(first), objects, unread };
}

/**
 * A Webhook or Domain of the state, read member by member: its uuid as recorded, else the resource's id,
 * and a member the program made secret is kept as hidden, not dropped with the rest. Undefined for
 * another resource; one that cannot be read whole says why.
 */
function stateObject(resource: ResourceState): StateObject | UnreadObject | undefined {
  const kind = objectKind(resource.type);
  const urn = parseUrn(resource.urn);
  // A resource the program only reads is another stack's, or nobody's: it does not hold the object.
  if (!kind || resource.external) return undefined;
  if (!urn) return { urn: resource.urn, cause: "its URN is not a Pulumi URN" };
  const read = kind === "webhook" ? webhookProps(resource) : domainProps(resource);
  if (!resource.id) return { urn: resource.urn, cause: "it has no id" };
  if (read.unreadable.length > 0) {
    return { urn: resource.urn, cause: `its ${read.unreadable.join(" and ")} cannot be read` };
  }
  const uuid = kind === "webhook" ? (read as WebhookProps).webhookUuid : (read as DomainProps).domainUuid;
  if (uuid === undefined) {
    return {
      urn: resource.urn,
      cause: (read.hidden as readonly string[]).includes(kind === "webhook" ? "webhookUuid" : "domainUuid")
        ? "its uuid is secret and its id is a create's placeholder"
        : "its create's outcome is unknown: it has a placeholder id and no uuid",
    };
  }
  const held = {
    uuid,
    name: objectName(urn, resource.parent ? parseUrn(resource.parent)?.name : undefined),
    urn: resource.urn,
    hidden: read.hidden,
  };
  if (kind === "domain") {
    const domain = read as DomainProps;
    return {
      kind,
      ...held,
      organization: domain.organization,
      domainName: domain.domainName,
      adopted: domain.status === "adopted",
    };
  }
  const hook = read as WebhookProps;
  return {
    kind,
    ...held,
    organization: hook.owner?.organization,
    endpoint: hook.endpoint,
    channel: hook.channel,
    filters: filterViews(hook.filters),
  };
}
