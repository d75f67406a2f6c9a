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
  DomainProps,
  type FilterView,
  filterViews,
  objectKind,
  objectName,
  propertiesOf,
  ResourceState,
  WebhookProps,
} from "./objects";
import { parseUrn, stackLabel } from "./urn";

const StackExport = z.looseObject({
  version: z.number(),
  deployment: z.looseObject({ resources: z.array(ResourceState).nullish() }),
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
    next: NEXT,
    other: { member: "steps", says: "a preview's JSON, not a stack's state; review reads previews" },
  });
  const resources = state.deployment.resources ?? [];
  const first = exported ?? resources.map((r) => parseUrn(r.urn)).find((u) => u !== undefined);
  if (!first)
    throw new CliFailure(`${source}: the state holds no resource, so its stack is unknown: ${NEXT}.`);
  return {
    source,
    project: first.project,
    stack: first.stack,
    label: stackLabel(first),
    objects: resources.flatMap((resource) => stateObject(resource)),
  };
}

function stateObject(resource: ResourceState): StateObject[] {
  const kind = objectKind(resource.type);
  const urn = parseUrn(resource.urn);
  // A resource the program only reads is another stack's, or nobody's: it does not hold the object.
  if (!kind || !urn || resource.external) return [];
  const props = propertiesOf(resource);
  const name = objectName(urn, resource.parent ? parseUrn(resource.parent)?.name : undefined);
  if (kind === "webhook") {
    const hook = WebhookProps.safeParse(props).data ?? {};
    // A webhook whose create has an unknown outcome has no uuid yet: there is nothing to find.
    if (!hook.webhookUuid) return [];
    return [
      {
        kind,
        uuid: hook.webhookUuid,
        name,
        urn: resource.urn,
        organization: hook.owner?.organization,
        endpoint: hook.endpoint,
        channel: hook.channel,
        filters: filterViews(hook.filters),
      },
    ];
  }
  const domain = DomainProps.safeParse(props).data ?? {};
  if (!domain.domainUuid) return [];
  return [
    {
      kind,
      uuid: domain.domainUuid,
      name,
      urn: resource.urn,
      organization: domain.organization,
      domainName: domain.domainName,
    },
  ];
}
