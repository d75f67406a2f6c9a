/**
 * A webhook as the client takes and answers it (spec 2.6, 4.2, 4.3), in the spec's wire names, as plain
 * TypeScript (no zod, for the reason ../common-types.ts gives). The request rules are in requests.ts, the
 * answer schemas in answers.ts.
 */
import type { Timestamp, WireOwner } from "../common-types";

/** A webhook filter as the service sends and takes it: exactly one of `value` or `values`. */
export interface WireFilter {
  /** `activity.name`, `activity.form_factor` or `owner.user.username`. */
  key: string;
  /** The one value the filter matches. */
  value?: string | undefined;
  /** The values the filter matches, any of them. */
  values?: string[] | undefined;
}

/** A filter in canonical form: one sorted, de-duplicated `values` list. */
export interface CanonicalFilter {
  readonly key: string;
  readonly values: readonly string[];
}

/** Where a webhook's deliveries go (spec 2.6). */
export interface WebhookEndpoint {
  /** Always `url`. */
  type: "url";
  /** An HTTPS URL on a domain registered to the organization (on v2, with no query or fragment). */
  value: string;
}

/** A webhook as the service sends it (spec 2.6), in the wire names of the client's API version. */
export interface Webhook {
  /** The webhook's id, which get and deactivate take. */
  webhook_uuid: string;
  /** Echoed on every delivery; `default` when the service sent none. */
  channel: string;
  /** Where deliveries are posted. */
  endpoint: {
    /** `url`; a string, because the service may add types without a version change. */
    type: string;
    /** The HTTPS URL deliveries are posted to. */
    value: string;
  };
  /** The filters as the service sent them, in its order and value/values form. */
  filters: WireFilter[];
  /** Who created it; absent when the service did not say. */
  webhook_owner?: WireOwner | undefined;
  /** When it was created (API 1.4). */
  create_timestamp?: Timestamp | undefined;
  /** When it was created (API 2.0). */
  create_time?: Timestamp | undefined;
  /** API 2.0 only; its members are not documented. */
  format_options?: Record<string, unknown> | undefined;
}

/** The body of a webhook create. */
export interface WebhookCreateBody {
  /** Where deliveries go. */
  endpoint: WebhookEndpoint;
  /** The HMAC key of Service-Signature, 20 characters or more on API 1.4, 16 to 256 on API 2.0. A secret. */
  secret_key: string;
  /** Echoed on every delivery; the service uses `default` when it is omitted or null. */
  channel?: string | null | undefined;
  /** Must include `activity.name` with `authentication` or `fingerprint`. */
  filters: WireFilter[];
}
