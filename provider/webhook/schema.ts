import { z } from "zod";
import {
  canonicalFilters,
  endpointSchema,
  filtersSchema,
  secretKeySchema,
  toWireFilters,
} from "../api/rules";
import { WireFilter } from "../api/schemas";
import { safeString } from "../api/text";
import { API_VERSIONS, type ApiVersion } from "../api/versions";
import { AcceptLanguage, ConnectionInput } from "../runtime/credentials";

/** A Webhook's inputs after `check`: validated, defaults applied, filters in canonical order and form. */
export function webhookInputsSchema(version: ApiVersion) {
  return z.object({
    endpoint: endpointSchema(version),
    secretKey: secretKeySchema(version),
    filters: filtersSchema(version).transform((filters) => toWireFilters(canonicalFilters(filters))),
    channel: safeString().min(1, "must not be empty").default("default"),
    apiVersion: z.enum(API_VERSIONS, "must be 2.0 or 1.4").default("2.0"),
    acceptLanguage: AcceptLanguage.optional(),
    connection: ConnectionInput.optional(),
    adoptWebhookUuid: z.guid("must be a webhook UUID").optional(),
  });
}
export type WebhookInputs = z.output<ReturnType<typeof webhookInputsSchema>>;

/** Members whose rules depend on the API version; left unchecked while the version is unknown. */
export const VERSIONED_MEMBERS = ["endpoint", "secretKey", "filters"] as const;

/** What a Webhook keeps in state. Parsing accepts state written by every earlier version of this package. */
export const WebhookOutputs = z.object({
  webhookUuid: z.string(),
  endpoint: z.string(),
  channel: z.string(),
  filters: z.array(WireFilter),
  owner: z.object({ organization: z.string(), username: z.string() }),
  createTime: z.string().optional(),
  apiVersion: z.enum(API_VERSIONS).default("2.0"),
  /** A salted hash: enough to notice a rotated secret, useless for recovering it. */
  secretKeyHash: z.string(),
  acceptLanguage: AcceptLanguage.optional(),
  connection: ConnectionInput.optional(),
  adoptWebhookUuid: z.string().optional(),
});
export type WebhookOutputs = z.output<typeof WebhookOutputs>;

/** Outputs derived from secret inputs; the Webhook class marks them secret (additionalSecretOutputs). */
export const WEBHOOK_SECRET_OUTPUTS = ["secretKeyHash", "connection"] as const;
