import { z } from "zod";
import { type ConnectionInput as ConnectionShape, exactly } from "./common-types";
import { safeString } from "./control-characters";
import { LANGUAGES } from "./languages";
import { isLoopback } from "./loopback";
import { PLUGIN_PACKAGE } from "./pulumi-package";
import { API_VERSIONS } from "./versions";

/**
 * The connection settings every resource and client validates, each stated once: where the API is,
 * which generation to speak, and which language its display strings use.
 */

/**
 * Why a base URL is refused, without quoting it (it may hold a password): not an http(s) URL; carrying
 * `user:password@`, which would travel with every request and show in logs; or plain http to anything
 * but this machine, which would send the API token in clear over the network.
 */
function baseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an http(s) URL, such as https://api.example.com or the sandbox's http://127.0.0.1:8787";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http(s) URL";
  if (url.username || url.password) {
    return `must not carry credentials (user:password@): remove them, and give the API token on its own (the token option, connection.token, ${PLUGIN_PACKAGE}:token or SERVICE_API_TOKEN)`;
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    return "must use https: plain http would send the API token in clear, and is accepted only for this machine (localhost, 127.0.0.1, [::1]), where the sandbox runs";
  }
  return undefined;
}

export const BaseUrl = z.string("must be an http(s) URL").superRefine((value, ctx) => {
  const problem = baseUrlProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const ApiVersionSchema = z.enum(API_VERSIONS, "must be 2.0 or 1.4");

export const AcceptLanguage = z.enum(LANGUAGES, "must be en or ja");

/** The optional `connection` input: credentials for one resource, ahead of stack config and environment. */
export const ConnectionInput = exactly<ConnectionShape>()(
  z.object({
    token: safeString().min(1, "must not be empty"),
    baseUrl: BaseUrl.optional(),
  }),
);
