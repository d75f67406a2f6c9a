/**
 * The shapes this package's public API hands out and takes, as plain TypeScript. The zod schemas that
 * validate them (schemas.ts, connection.ts, rules.ts) are checked against these declarations at compile
 * time with `exactly`, so the two cannot drift; this module imports no zod, so that a consumer's compiler
 * never has to read zod's declarations (which fail without skipLibCheck).
 */
import type { Language } from "./languages";
import type { ApiVersion } from "./versions";

export type { ApiVersion };

/** A language of the service's display strings: `en` or `ja`. */
export type AcceptLanguage = Language;

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
  value?: string | undefined;
  values?: string[] | undefined;
}

/** A filter in canonical form: one sorted, de-duplicated `values` list. */
export interface CanonicalFilter {
  readonly key: string;
  readonly values: readonly string[];
}

/** A webhook, in one model for both API generations. */
export interface Webhook {
  webhookUuid: string;
  /** Echoed on every delivery; "default" unless set. */
  channel: string;
  /** The HTTPS URL deliveries are posted to. */
  endpoint: string;
  filters: WireFilter[];
  owner: Owner;
  /** `create_time` (v2) or `create_timestamp` (v1.4). */
  createTime: Timestamp | undefined;
}

/** A registered domain. */
export interface Domain {
  domainUuid: string;
  domainName: string;
  owner: Owner;
  createTime: Timestamp | undefined;
  /** Present on finish_registration's answer (v2). */
  verifier: string | undefined;
}

/** What start_registration answers. `registerToken` is a secret. */
export interface DomainRegistrationStart {
  domainName: string;
  /** `https://<domainName>/service_url_registration/<verifier>`: where to publish the token. */
  url: string;
  verifier: string;
  /** The exact body the URL must serve. A secret: never log it. */
  registerToken: string;
  /** ISO date-time after which the link is dead. */
  expiresAt: string;
}

/** `{status: "ok"}`, as health and deactivate answer. */
export interface StatusOk {
  status: string;
}

/** The body of a webhook create. */
export interface WebhookCreateBody {
  endpoint: { type: "url"; value: string };
  /** The HMAC key of Service-Signature. A secret. */
  secret_key: string;
  channel?: string | null | undefined;
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
