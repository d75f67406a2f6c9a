/**
 * The shapes every API area shares (connection settings, the timestamp object, the owner of a webhook or
 * domain, `{status}`), as plain TypeScript; each area's own are in its folder (webhooks/, domains/,
 * sessions/, integrations/). The zod schemas that validate them are checked against these declarations
 * at compile time with `exactly`, so the two cannot drift; this module imports no zod, so that a
 * consumer's compiler never has to read zod's declarations (which fail without skipLibCheck).
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

/** `{status: "ok"}`, as health and deactivate answer. */
export interface StatusOk {
  /** `ok`. */
  status: string;
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
