/**
 * The shapes this package's public API hands out and takes, as plain TypeScript. The zod schemas that
 * validate them (schemas.ts, connection.ts, rules.ts) are checked against these declarations at compile
 * time with `exactly`, so the two cannot drift; this module imports no zod, so that a consumer's compiler
 * never has to read zod's declarations (which fail without skipLibCheck).
 */
import type { LANGUAGES } from "./languages";
import type { ApiVersion } from "./versions";

export type { ApiVersion };

/** A language of the service's display strings: `en` or `ja`. */
export type AcceptLanguage = (typeof LANGUAGES)[number];

/** Credentials for one resource; each member left out falls back on its own to stack config, then the environment. */
export interface ConnectionInput {
  /** The API token (a token with webhooks enabled for webhooks and domains). */
  readonly token: string;
  /** The API base URL; defaults to `service:baseUrl`, then SERVICE_BASE_URL. */
  readonly baseUrl?: string | undefined;
}

/** A point in time as the service shows it. */
export interface Timestamp {
  /** Date-time with fractional seconds and a UTC marker, in the Accept-Language's format. */
  display: string;
  /** Unix seconds, fractional. */
  epoch: number;
}

/**
 * Who owns a webhook or domain, as the Pulumi resources output it (`owner.organization`,
 * `owner.username`): their translation of the wire's `webhook_owner` and `domain_owner`.
 */
export interface Owner {
  /** The organization's name. */
  organization: string;
  /** The user who created it, or "" when the service did not say. */
  username: string;
}

/** `webhook_owner` and `domain_owner` as the service sends them (spec 2.6, 2.7). */
export interface WireOwner {
  /** The organization the object belongs to: the caller's own. */
  organization: {
    /** The organization's name. */
    name: string;
  };
  /** The user who created it; absent when the service did not say. */
  user?:
    | {
        /** The user's username. */
        username: string;
      }
    | undefined;
}

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
  /** Where deliveries are posted. The service may send a `type` other than `url` one day. */
  endpoint: { type: string; value: string };
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

/** A registered domain as the service sends it (spec 2.7). */
export interface Domain {
  /** The domain's id, which deactivation takes. */
  domain_uuid: string;
  /** The hostname, bare: no scheme, port or path. */
  domain_name: string;
  /** Who registered it; absent when the service did not say. */
  domain_owner?: WireOwner | undefined;
  /** When it was registered (API 1.4 search). */
  create_timestamp?: Timestamp | undefined;
  /** When it was registered (API 2.0). */
  create_time?: Timestamp | undefined;
  /** Present on finish_registration's answer (API 2.0). */
  verifier?: string | undefined;
}

/** What start_registration answers (spec 2.8). `register_token` is a secret. */
export interface DomainRegistrationStart {
  /** The hostname being registered. */
  domain_name: string;
  /** `https://<domain_name>/service_url_registration/<verifier>`: where to publish the token. */
  url: string;
  /** Names this registration: the URL's last path segment, and what finish_registration takes. */
  verifier: string;
  /** The exact body the URL must serve. A secret: never log it. */
  register_token: string;
  /** ISO date-time after which the link is dead. */
  expires_at: string;
}

/** The body of start_registration. */
export interface StartDomainRegistrationBody {
  /** A bare hostname: no scheme, port, path or trailing slash. */
  domain_name: string;
}

/** The body of finish_registration. */
export interface FinishDomainRegistrationBody {
  /** The hostname given to start_registration. */
  domain_name: string;
  /** The verifier start_registration answered. */
  verifier: string;
}

/** `{status: "ok"}`, as health and deactivate answer. */
export interface StatusOk {
  /** `ok`. */
  status: string;
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

/**
 * Compile-time proof that a schema's output is exactly `Shape`: `exactly<Shape>()(schema)` returns the
 * schema unchanged, and fails to compile when either side has a member the other lacks.
 */
export function exactly<Shape>() {
  return <S extends { readonly _zod: { output: unknown } }>(
    schema: S &
      ([S["_zod"]["output"]] extends [Shape]
        ? [Shape] extends [S["_zod"]["output"]]
          ? unknown
          : never
        : never),
  ): S => schema;
}

/** Like `exactly`, for what a schema accepts (its input) rather than what it produces. */
export function exactlyInput<Shape>() {
  return <S extends { readonly _zod: { input: unknown } }>(
    schema: S &
      ([S["_zod"]["input"]] extends [Shape]
        ? [Shape] extends [S["_zod"]["input"]]
          ? unknown
          : never
        : never),
  ): S => schema;
}
