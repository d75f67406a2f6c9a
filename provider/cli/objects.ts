/**
 * Which resources of a preview or a state stand for a webhook or a registered domain, and what the
 * commands read of them. Both providers count: the dynamic resources
 * (`pulumi-nodejs:dynamic/service:Webhook`) and the provider plugin's (`service:index:Webhook`); a domain
 * is its DomainVerification step, which holds the domain_uuid. Only these members are read, through zod:
 * a secret member is never read, so it cannot be printed.
 */
import { z } from "zod";
import { inEnglish } from "../../contract/issues";
import { DOMAIN_COMPONENT_TYPE } from "../domain/declaration";
import { domainVerification, webhook } from "../registry";
import { PENDING_ID_PREFIX } from "../webhook/resource";
import type { UrnParts } from "./urn";

/**
 * A state's inputs or outputs: an object, taken as it is. Its members are read one by one afterwards
 * (webhookProps, domainProps), so checking its shape here without copying it keeps a preview of 100,000
 * steps well under its time budget.
 */
const PropertyMap = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  { error: "expected an object" },
);

/**
 * A resource's state as Pulumi writes it, in a preview's steps and in a stack export alike: the members
 * the commands read first (its properties are then read through WebhookProps or DomainProps).
 */
export const ResourceState = z.looseObject({
  urn: z.string(),
  type: z.string(),
  id: z.string().optional(),
  parent: z.string().optional(),
  /** True for a resource the program only reads (`Webhook.get`): the stack does not manage it. */
  external: z.boolean().optional(),
  inputs: PropertyMap.nullish(),
  outputs: PropertyMap.nullish(),
});
export type ResourceState = z.output<typeof ResourceState>;

/** A member of a state: its output, else its input (what the service answered wins). */
function memberOf(state: ResourceState, name: string): unknown {
  const answered = state.outputs?.[name];
  return answered === undefined || answered === null ? state.inputs?.[name] : answered;
}

/** What kind of object a resource stands for, by its type token; undefined for anything else. */
export function objectKind(type: string): "webhook" | "domain" | undefined {
  if (type === webhook.token || type === webhook.pluginToken) return "webhook";
  if (type === domainVerification.token || type === domainVerification.pluginToken) return "domain";
  return undefined;
}

/**
 * The name a reader knows an object by: a Webhook's resource name, or the Domain component's for its
 * verification step (`hooks` rather than `hooks-verification`).
 */
export function objectName(urn: UrnParts, parentName: string | undefined): string {
  return urn.parentType === DOMAIN_COMPONENT_TYPE && parentName !== undefined ? parentName : urn.name;
}

const Filter = z.looseObject({
  key: z.string(),
  value: z.string().optional(),
  values: z.array(z.string()).optional(),
});

/** The members of a Webhook's inputs or outputs that say what it delivers, and where. */
const WebhookMembers = {
  webhookUuid: z.string(),
  endpoint: z.string(),
  channel: z.string(),
  filters: z.array(Filter),
  owner: z.looseObject({ organization: z.string() }),
};

/** The members of a DomainVerification's inputs or outputs that the commands read. */
const DomainMembers = {
  domainUuid: z.string(),
  domainName: z.string(),
  organization: z.string(),
  /** "adopted" when the stack shares a domain it did not register, and its destroy leaves registered. */
  status: z.enum(["registered", "adopted"]),
};

/** What one read of a resource's members found: each readable member, and the names of the others. */
export type Members<S extends Record<string, z.ZodType>> = {
  readonly [K in keyof S]?: z.output<S[K]>;
} & {
  /** Members kept secret in the state (an encrypted envelope, or `[secret]` in a preview): present, unread. */
  readonly hidden: readonly (keyof S & string)[];
  /** Members present in a shape the commands do not know: the resource cannot be read whole. */
  readonly unreadable: readonly (keyof S & string)[];
};

export type WebhookProps = Members<typeof WebhookMembers>;
export type DomainProps = Members<typeof DomainMembers>;

/** The key of the envelope Pulumi writes a secret in, in a stack export and in the engine's protocol. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/** Whether `value` is a secret as a state or a preview holds it: an envelope, or the mask `[secret]`. */
const isSecret = (value: unknown): boolean =>
  value === "[secret]" || (typeof value === "object" && value !== null && SECRET_SIGNATURE in value);

/**
 * Reads each member of `shapes` from `state` on its own, so that a member the program made secret, or one
 * in an unknown shape, leaves the others (the uuid and the owner above all) readable. The member `uuid`
 * is as recorded, else the resource's id, which no secret hides; an id that is a create's placeholder
 * (`pending-…`) stands for no uuid, and an id that differs from the recorded uuid makes it unreadable.
 */
function readMembers<S extends Record<string, z.ZodType>>(
  shapes: S,
  state: ResourceState,
  uuid: keyof S & string,
): Members<S> {
  const hidden: string[] = [];
  const unreadable: string[] = [];
  const read: Record<string, unknown> = { hidden, unreadable };
  for (const [name, shape] of Object.entries(shapes)) {
    const value = memberOf(state, name);
    if (value === undefined || value === null) continue;
    if (isSecret(value)) hidden.push(name);
    else {
      const parsed = shape.safeParse(value, { error: inEnglish });
      if (parsed.success) read[name] = parsed.data;
      else unreadable.push(name);
    }
  }
  const recorded = read[uuid] as string | undefined;
  const id = state.id?.startsWith(PENDING_ID_PREFIX) ? undefined : state.id || undefined;
  if (recorded !== undefined && id !== undefined && recorded !== id) {
    delete read[uuid];
    unreadable.push(uuid);
  } else read[uuid] = recorded ?? id;
  return read as Members<S>;
}

/** A Webhook's members, each read on its own from its state. */
export const webhookProps = (state: ResourceState): WebhookProps =>
  readMembers(WebhookMembers, state, "webhookUuid");

/** A DomainVerification's members, each read on its own from its state. */
export const domainProps = (state: ResourceState): DomainProps =>
  readMembers(DomainMembers, state, "domainUuid");

/** A filter as the commands compare and print it: its key and its values. */
export interface FilterView {
  readonly key: string;
  readonly values: readonly string[];
}

/** A webhook's filters, each as a sorted list of values, sorted by key. */
export function filterViews(
  filters: readonly { key: string; value?: string | undefined; values?: string[] | undefined }[] | undefined,
): FilterView[] {
  return (filters ?? [])
    .map((f) => ({ key: f.key, values: [...(f.values ?? (f.value === undefined ? [] : [f.value]))].sort() }))
    .sort((a, b) => a.key.localeCompare(b.key));
}
