import { createHash } from "node:crypto";
import { Hostname } from "../../contract/domains/requests";
import { canonicalFilters } from "../../contract/webhooks/requests";
import type { CanonicalFilter } from "../../contract/webhooks/types";
import { DOMAIN_COMPONENT_TYPE } from "../domain/declaration";
import { containsUnknown } from "../lifecycle/unknowns";
import * as registry from "../registry";
import type { DeclaredResource, PolicyRole } from "../resource-kit/declaration";
import { VERSIONED_MEMBERS, type WebhookInputs, webhookInputsSchema } from "../webhook/resource";

/**
 * Reads this package's resources out of the list an analyzer gets: which resources are ours (by type
 * token), what each Webhook's inputs are as far as they are known, which credentials it uses, which host it
 * sends to and what makes it the same webhook as another, and which hostname each Domain registers.
 * Everything here is pure: no @pulumi/policy, no engine.
 */

/**
 * The type tokens of the declared resources that the policies read as `role`: each resource's dynamic
 * token and the provider plugin's, so that a stack written with either provider gets the same checks.
 */
function tokensReadAs(role: PolicyRole): readonly string[] {
  const declared: readonly DeclaredResource[] = Object.values(registry);
  return declared
    .filter((resource) => resource.policy === role)
    .flatMap((resource) => [resource.token, resource.pluginToken]);
}

/** Type tokens of the resources read as a `Webhook`. */
export const WEBHOOK_TYPES = tokensReadAs("webhook");
/** Type token of the `Domain` component. */
export const DOMAIN_TYPE = DOMAIN_COMPONENT_TYPE;
/** Type tokens of the steps of a domain (dynamic and plugin); each carries a `domainName` input. */
export const DOMAIN_STEP_TYPES = tokensReadAs("domainStep");

/** A resource as an analyzer describes it, with plain values: unknown sentinels kept, secrets revealed. */
export interface AnalyzedResource {
  /** The resource's URN, unique in the stack. */
  readonly urn: string;
  /** The type token, such as one of WEBHOOK_TYPES. */
  readonly type: string;
  /** The name given in the program (the last part of the URN). */
  readonly name: string;
  /** Inputs at preview, outputs after an update, as the engine sent them. */
  readonly props: Readonly<Record<string, unknown>>;
  /** The parent's URN, if any. */
  readonly parent?: string | undefined;
  /** URNs of the resources this one depends on (`dependsOn`, after the SDK expanded components). */
  readonly dependencies: readonly string[];
  /** URNs each input was computed from. */
  readonly propertyDependencies: Readonly<Record<string, readonly string[]>>;
  /** The `deleteBeforeReplace` resource option, where the program set it. */
  readonly deleteBeforeReplace?: boolean | undefined;
}

/** Which credentials a Webhook uses. Told apart by a hash: the token itself is never kept or shown. */
export interface Credentials {
  /** A SHA-256 of the `connection` input, or "default" for the stack's own credentials. */
  readonly key: string;
  /** True when the Webhook sets `connection`. */
  readonly viaConnection: boolean;
}

/** A Webhook as the policies see it. A member that is unknown at preview, or that `check` rejects, is absent. */
export interface WebhookView {
  /** The Webhook's URN, which violations about it carry. */
  readonly urn: string;
  /** The name given in the program, which messages quote. */
  readonly name: string;
  /** The inputs that are known and pass the Webhook's own check, defaults applied. */
  readonly inputs: Partial<WebhookInputs>;
  /** Undefined while `connection` is unknown or invalid. */
  readonly credentials: Credentials | undefined;
  /** The endpoint's host; undefined while the endpoint is unknown or invalid. */
  readonly host: string | undefined;
  /** What the service compares: credentials, endpoint, channel, canonical filters. Undefined if any is unknown. */
  readonly identity: string | undefined;
  /** URNs the Webhook depends on, through `dependsOn` or any input. */
  readonly dependsOn: ReadonlySet<string>;
  /** True only where the program set the `deleteBeforeReplace` option to true. */
  readonly deleteBeforeReplace: boolean;
}

/** A Domain component, or a DomainRegistration/DomainVerification declared on its own. */
export interface DomainView {
  /** The component's URN, or the step's for a step declared on its own. */
  readonly urn: string;
  /** The name given in the program, which messages quote. */
  readonly name: string;
  /** Undefined while the name is unknown at preview, or invalid. */
  readonly hostname: string | undefined;
  /** URNs that stand for this Domain in a dependency: the resource itself and everything under it. */
  readonly members: ReadonlySet<string>;
}

/** The stack's Webhooks and Domains; every other resource is ignored. */
export interface StackView {
  /** Every Webhook, in the order the analyzer listed them. */
  readonly webhooks: readonly WebhookView[];
  /** Domain components first, then domain steps declared outside a component. */
  readonly domains: readonly DomainView[];
}

const DEFAULT_CREDENTIALS: Credentials = { key: "default", viaConnection: false };

/** The channel a Webhook gets when it sets none, as its input schema defines it. */
export const DEFAULT_CHANNEL = webhookInputsSchema("2.0").shape.channel.parse(undefined);

/**
 * Parses each member with the Webhook's own input schema, so that the policies see what `check` would
 * pass and skip what it rejects. Members whose rules depend on the API version wait for a known version.
 */
function knownWebhookInputs(props: Readonly<Record<string, unknown>>): Partial<WebhookInputs> {
  const version = containsUnknown(props.apiVersion)
    ? undefined
    : webhookInputsSchema("2.0").shape.apiVersion.safeParse(props.apiVersion).data;
  const schema = webhookInputsSchema(version ?? "2.0");
  const known: Record<string, unknown> = {};
  for (const [member, memberSchema] of Object.entries(schema.shape)) {
    if (version === undefined && (VERSIONED_MEMBERS as readonly string[]).includes(member)) continue;
    const value = props[member];
    if (containsUnknown(value)) continue;
    const parsed = memberSchema.safeParse(value);
    if (parsed.success) known[member] = parsed.data;
  }
  return known as Partial<WebhookInputs>;
}

function credentialsOf(inputs: Partial<WebhookInputs>): Credentials | undefined {
  if (!("connection" in inputs)) return undefined;
  const connection = inputs.connection;
  if (connection === undefined) return DEFAULT_CREDENTIALS;
  const key = createHash("sha256")
    .update(JSON.stringify([connection.token, connection.baseUrl ?? null]))
    .digest("hex");
  return { key, viaConnection: true };
}

/** The filters in the order and form the service treats as equal (see canonicalFilters). */
export function webhookFilters(inputs: Partial<WebhookInputs>): CanonicalFilter[] | undefined {
  return inputs.filters === undefined ? undefined : canonicalFilters(inputs.filters);
}

/** Reads one Webhook. */
export function readWebhook(resource: AnalyzedResource): WebhookView {
  const inputs = knownWebhookInputs(resource.props);
  const credentials = credentialsOf(inputs);
  const { endpoint, channel } = inputs;
  const filters = webhookFilters(inputs);
  // The URL parser lower-cases the host and drops a default port, as the service's comparison would.
  const url = endpoint === undefined ? undefined : new URL(endpoint);
  const identity =
    credentials && url && channel !== undefined && filters
      ? JSON.stringify([credentials.key, url.href, channel, filters])
      : undefined;
  return {
    urn: resource.urn,
    name: resource.name,
    inputs,
    credentials,
    host: url?.hostname,
    identity,
    dependsOn: new Set([...resource.dependencies, ...Object.values(resource.propertyDependencies).flat()]),
    deleteBeforeReplace: resource.deleteBeforeReplace === true,
  };
}

function hostnameOf(resource: AnalyzedResource): string | undefined {
  const value = resource.props.domainName;
  if (containsUnknown(value)) return undefined;
  return Hostname.safeParse(value).data;
}

/** Reads the stack's Webhooks and Domains. */
export function readStack(resources: readonly AnalyzedResource[]): StackView {
  const byUrn = new Map(resources.map((r) => [r.urn, r]));
  const children = new Map<string, AnalyzedResource[]>();
  for (const r of resources) {
    if (r.parent !== undefined) children.set(r.parent, [...(children.get(r.parent) ?? []), r]);
  }
  const descendants = (urn: string): AnalyzedResource[] => {
    const found = new Map<string, AnalyzedResource>();
    const queue = [...(children.get(urn) ?? [])];
    // Each resource is visited once, so the walk ends even on a malformed parent cycle.
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (found.has(next.urn)) continue;
      found.set(next.urn, next);
      queue.push(...(children.get(next.urn) ?? []));
    }
    return [...found.values()];
  };
  const underDomain = (resource: AnalyzedResource): boolean => {
    const seen = new Set<string>();
    for (let p = resource.parent; p !== undefined && !seen.has(p); p = byUrn.get(p)?.parent) {
      seen.add(p);
      if (byUrn.get(p)?.type === DOMAIN_TYPE) return true;
    }
    return false;
  };

  const components: DomainView[] = resources
    .filter((r) => r.type === DOMAIN_TYPE)
    .map((component) => {
      const below = descendants(component.urn);
      // The component's own domainName, where it registers one; else the name its steps were given.
      const steps = below.filter((r) => DOMAIN_STEP_TYPES.includes(r.type));
      const hostname = [component, ...steps].map(hostnameOf).find((h) => h !== undefined);
      return {
        urn: component.urn,
        name: component.name,
        hostname,
        members: new Set([component.urn, ...below.map((r) => r.urn)]),
      };
    });
  const standalone: DomainView[] = resources
    .filter((r) => DOMAIN_STEP_TYPES.includes(r.type) && !underDomain(r))
    .map((step) => ({
      urn: step.urn,
      name: step.name,
      hostname: hostnameOf(step),
      members: new Set([step.urn, ...descendants(step.urn).map((r) => r.urn)]),
    }));

  return {
    webhooks: resources.filter((r) => WEBHOOK_TYPES.includes(r.type)).map(readWebhook),
    domains: [...components, ...standalone],
  };
}
