/**
 * Where the credentials of a resource come from, in words that name no secret: which setting holds the
 * token, and the base URL. A diff that finds the credentials moved (credentials-hash.ts) shows these
 * words, so that a reviewer reads what changed (`connection.token`, the stack's `service:token`, the
 * environment, the base URL) and can tell whether it was meant.
 */
import type { ConnectionInput } from "../../contract/common-types";
import { CONFIG_NAMESPACE, SETTINGS, textOf } from "../settings/table";
import { stackSettings } from "./stack-config";

/** The base URL without what a reviewer must not read: user name, password, query and fragment. */
function shown(url: string): string {
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`.replace(/\/+$/, "");
  } catch {
    return "(not a URL)";
  }
}

/** The credentials a resource with the `connection` input given would use, described, never revealed. */
export function credentialsSource(
  connection: ConnectionInput | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const stack = stackSettings();
  const { token, baseUrl } = SETTINGS;
  const tokenFrom = textOf(connection?.token)
    ? "connection.token"
    : textOf(stack.token)
      ? `${CONFIG_NAMESPACE}:${token.config} (stack configuration)`
      : `${token.env} (environment)`;
  const url =
    textOf(connection?.baseUrl) ?? textOf(stack.baseUrl) ?? textOf(env[baseUrl.env]) ?? baseUrl.default;
  return `token from ${tokenFrom}, base URL ${shown(url)}`;
}
