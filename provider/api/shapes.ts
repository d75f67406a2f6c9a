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

/** Who owns a webhook or domain. */
export interface Owner {
  /** The organization's name. */
  organization: string;
  /** The user who created it, or "" when the service did not say. */
  username: string;
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

/** A webhook, in one model for both API generations. */
export interface Webhook {
  /** The service's `webhook_uuid`. */
  webhookUuid: string;
  /** Echoed on every delivery; "default" unless set. */
  channel: string;
  /** The HTTPS URL deliveries are posted to. */
  endpoint: string;
  /** The filters as the service sent them, in its order and value/values form. */
  filters: WireFilter[];
  /** Who created it; empty names when the service did not say. */
  owner: Owner;
  /** `create_time` (v2) or `create_timestamp` (v1.4). */
  createTime: Timestamp | undefined;
}

/** A registered domain. */
export interface Domain {
  /** The service's `domain_uuid`, which deactivation takes. */
  domainUuid: string;
  /** The hostname, bare: no scheme, port or path. */
  domainName: string;
  /** Who registered it; empty names when the service did not say. */
  owner: Owner;
  /** `create_time` (v2) or `create_timestamp` (v1.4 search); undefined when the answer carried neither. */
  createTime: Timestamp | undefined;
  /** Present on finish_registration's answer (v2). */
  verifier: string | undefined;
}

/** What start_registration answers. `registerToken` is a secret. */
export interface DomainRegistrationStart {
  /** The hostname being registered. */
  domainName: string;
  /** `https://<domainName>/service_url_registration/<verifier>`: where to publish the token. */
  url: string;
  /** Names this registration: the URL's last path segment, and what finish_registration takes. */
  verifier: string;
  /** The exact body the URL must serve. A secret: never log it. */
  registerToken: string;
  /** ISO date-time after which the link is dead. */
  expiresAt: string;
}

/** `{status: "ok"}`, as health and deactivate answer. */
export interface StatusOk {
  /** `ok`. */
  status: string;
}

/** The body of a webhook create. */
export interface WebhookCreateBody {
  /** Where deliveries go. */
  endpoint: {
    /** Always `url`. */
    type: "url";
    /** An HTTPS URL on a domain registered to the organization (on v2, with no query or fragment). */
    value: string;
  };
  /** The HMAC key of Service-Signature. A secret. */
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
