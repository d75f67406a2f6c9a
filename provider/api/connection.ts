import { z } from "zod";
import { safeString } from "./text";
import { API_VERSIONS } from "./versions";

/**
 * The connection settings every resource and client shares, each stated once: where the API is, which
 * generation to speak, and which language its display strings use.
 */
export const BaseUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

export const ApiVersionSchema = z.enum(API_VERSIONS, "must be 2.0 or 1.4");

export const ACCEPT_LANGUAGES = ["en", "ja"] as const;
export type AcceptLanguage = (typeof ACCEPT_LANGUAGES)[number];
export const AcceptLanguage = z.enum(ACCEPT_LANGUAGES, "must be en or ja");

/** The optional `connection` input: credentials for one resource, ahead of stack config and environment. */
export const ConnectionInput = z.object({
  token: safeString().min(1, "must not be empty"),
  baseUrl: BaseUrl.optional(),
});

/** Credentials for one resource; each member left out falls back on its own to stack config, then the environment. */
export interface ConnectionInput {
  /** The API token (a token with webhooks enabled for webhooks and domains). */
  readonly token: string;
  /** The API base URL; defaults to `service:baseUrl`, then SERVICE_BASE_URL. */
  readonly baseUrl?: string | undefined;
}
