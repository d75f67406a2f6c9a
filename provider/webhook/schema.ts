import { z } from "zod";
import { AcceptLanguage, ApiVersionSchema, ConnectionInput } from "../../contract/connection";
import { memoize } from "../../contract/memo";
import { safeString } from "../../contract/text";
import type { ApiVersion } from "../../contract/versions";
import {
  canonicalFilters,
  endpointSchema,
  filtersSchema,
  secretKeySchema,
  toWireFilters,
} from "../../contract/webhooks/requests";
import { WireFilter } from "../../contract/webhooks/responses";
import type { CanonicalFilter } from "../../contract/webhooks/types";
import type { FieldAdvice } from "../lifecycle/check";
import { COMMON_NEXT_STEPS, COMMON_QUOTED } from "../lifecycle/field-advice";

/**
 * A Webhook's inputs after `check`: validated, defaults applied, filters in canonical order and form.
 * Built once per version: zod compiles a schema on its first parse, which costs far more than a parse,
 * and every check and create parses with it.
 */
export const webhookInputsSchema = memoize((version: ApiVersion) =>
  z.object({
    endpoint: endpointSchema(version),
    secretKey: secretKeySchema(version),
    filters: filtersSchema(version).transform((filters) => toWireFilters(canonicalFilters(filters))),
    channel: safeString().min(1, "must not be empty").default("default"),
    apiVersion: ApiVersionSchema.default("2.0"),
    acceptLanguage: AcceptLanguage.optional(),
    connection: ConnectionInput.optional(),
    adoptWebhookUuid: z.guid("must be a webhook UUID").optional(),
  }),
);
export type WebhookInputs = z.output<ReturnType<typeof webhookInputsSchema>>;

/** How a Webhook's check failures describe its inputs: secretKey and connection are never quoted. */
export const WEBHOOK_FIELD_ADVICE: FieldAdvice = {
  quoted: ["endpoint", "channel", "filters", "apiVersion", "adoptWebhookUuid", ...COMMON_QUOTED],
  nextSteps: {
    ...COMMON_NEXT_STEPS,
    endpoint:
      "give the https:// URL your receiver serves, on a hostname that a Domain resource registers for the organization",
    secretKey:
      "give a random key of 16 to 256 characters (at least 20 on API 1.4) as a secret, e.g. the output of `openssl rand -hex 24`",
    filters:
      "give one activity.name filter (authentication or fingerprint) and, if you want, activity.form_factor (lightbox, microscopic, free_camera) and owner.user.username filters, each with value or values",
    channel: "give a short name such as orders, or leave channel out for default",
    apiVersion: "give 2.0, or leave apiVersion out for 2.0",
    adoptWebhookUuid: "give the webhook_uuid the service returned for the active webhook to adopt",
  },
};

/**
 * The input through which a TypeScript program tells a Webhook's check what it counted of the
 * organization's Webhooks (program-quota.ts), when that matters: over the quota, or at it for a Webhook
 * without `deleteBeforeReplace`. Check leaves it out of the inputs it returns, so state never holds its
 * value.
 */
export const QUOTA_INPUT = "__organizationQuota";

/** What a program tells a Webhook's check through `QUOTA_INPUT`. */
export interface QuotaInput {
  /** How many Webhooks the program holds for the Webhook's organization. */
  readonly holds: number;
  /** Set when they are more than the service allows: why the Webhook must not be created. */
  readonly refusal?: string;
}

/** Members whose rules depend on the API version; left unchecked while the version is unknown. */
export const VERSIONED_MEMBERS = ["endpoint", "secretKey", "filters"] as const;

/**
 * What a Webhook keeps in state; a check parses its previous inputs with it too, which hold no hashes.
 * A webhook whose create has an unknown outcome is "pending": it has `pendingSince` and no `webhookUuid`
 * until a later update or refresh finds out what the service did.
 */
export const WebhookState = z.object({
  webhookUuid: z.string().optional(),
  endpoint: z.string(),
  channel: z.string(),
  filters: z.array(WireFilter),
  owner: z.object({ organization: z.string(), username: z.string() }).optional(),
  createTime: z.string().optional(),
  apiVersion: ApiVersionSchema.default("2.0"),
  /**
   * A salted hash: enough to notice a rotated secret, useless for recovering it. Absent for a webhook
   * adopted by `pulumi import`, whose secret the service never returns: the secret the program gives is
   * then taken as the webhook's own (as `adoptWebhookUuid` does), and the next update records its hash.
   */
  secretKeyHash: z.string().optional(),
  acceptLanguage: AcceptLanguage.optional(),
  connection: ConnectionInput.optional(),
  adoptWebhookUuid: z.string().optional(),
  /** A salted hash of the base URL and token the webhook was created or last verified with. */
  credentialsHash: z.string().optional(),
  /** While pending: when (on the service's clock) the create whose outcome is unknown was sent. */
  pendingSince: z.string().optional(),
  /** While pending: webhooks with the same configuration known to belong to other resources. */
  claimedElsewhere: z.array(z.string()).optional(),
});
export type WebhookState = z.output<typeof WebhookState>;

/** A webhook that exists: its uuid and owner are known. */
export type WebhookOutputs = WebhookState & {
  webhookUuid: string;
  owner: { organization: string; username: string };
};

export function isPending(state: WebhookState): boolean {
  return state.webhookUuid === undefined && state.pendingSince !== undefined;
}

/** What makes two webhooks indistinguishable to the service: endpoint, channel and filters. */
export interface WebhookIdentity {
  readonly endpoint: string;
  readonly channel: string;
  readonly filters: readonly CanonicalFilter[];
}

export function identityOf(config: {
  endpoint: string;
  channel?: string | null | undefined;
  filters: readonly z.input<typeof WireFilter>[];
}): WebhookIdentity {
  return {
    endpoint: config.endpoint,
    channel: config.channel ?? "default",
    filters: canonicalFilters(config.filters),
  };
}

export const sameIdentity = (a: WebhookIdentity, b: WebhookIdentity) =>
  a.endpoint === b.endpoint &&
  a.channel === b.channel &&
  JSON.stringify(a.filters) === JSON.stringify(b.filters);
