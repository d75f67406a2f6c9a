/**
 * Which resources of a preview or a state stand for a webhook or a registered domain, and what the
 * commands read of them. Both front doors count: the dynamic resources
 * (`pulumi-nodejs:dynamic/service:Webhook`) and the provider plugin's (`service:index:Webhook`); a domain
 * is its DomainVerification step, which holds the domain_uuid. Only these members are read, through zod:
 * a secret member is never read, so it cannot be printed.
 */
import { z } from "zod";
import { DOMAIN_COMPONENT_TYPE } from "../domain/declaration";
import { domainVerification, webhook } from "../registry";
import type { UrnParts } from "./urn";

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
  inputs: z.record(z.string(), z.unknown()).nullish(),
  outputs: z.record(z.string(), z.unknown()).nullish(),
});
export type ResourceState = z.output<typeof ResourceState>;

/** A state's inputs and outputs as one record, outputs first: what the service answered wins. */
export const propertiesOf = (state: ResourceState): Record<string, unknown> => ({
  ...state.inputs,
  ...state.outputs,
});

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
export const WebhookProps = z.object({
  webhookUuid: z.string().optional(),
  endpoint: z.string().optional(),
  channel: z.string().optional(),
  filters: z.array(Filter).optional(),
  owner: z.object({ organization: z.string() }).optional(),
});
export type WebhookProps = z.output<typeof WebhookProps>;

/** The members of a DomainVerification's inputs or outputs that the commands read. */
export const DomainProps = z.object({
  domainUuid: z.string().optional(),
  domainName: z.string().optional(),
  organization: z.string().optional(),
});
export type DomainProps = z.output<typeof DomainProps>;

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
