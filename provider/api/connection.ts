import { z } from "zod";
import { LANGUAGES } from "./languages";
import { type ConnectionInput as ConnectionShape, exactly } from "./shapes";
import { safeString } from "./text";
import { API_VERSIONS } from "./versions";

/**
 * The connection settings every resource and client validates, each stated once: where the API is,
 * which generation to speak, and which language its display strings use.
 */
export const BaseUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

export const ApiVersionSchema = z.enum(API_VERSIONS, "must be 2.0 or 1.4");

export const AcceptLanguage = z.enum(LANGUAGES, "must be en or ja");

/** The optional `connection` input: credentials for one resource, ahead of stack config and environment. */
export const ConnectionInput = exactly<ConnectionShape>()(
  z.object({
    token: safeString().min(1, "must not be empty"),
    baseUrl: BaseUrl.optional(),
  }),
);
