/**
 * Where the credentials of a resource come from, in words that name no secret: which setting holds the
 * token, and the base URL. A diff that finds the credentials moved (credentials-hash.ts) shows these
 * words, so that a reviewer reads what changed (`connection.token`, the stack's `service:token`, the
 * environment, the base URL) and can tell whether it was meant.
 */
import type { ConnectionInput } from "../../contract/common-types";
import { settingOrDefault, withConnection } from "../settings/resolve";
import { CONFIG_NAMESPACE, SETTINGS } from "../settings/table";
import type { Settings } from "../settings/value";

/** The base URL without what a reviewer must not read: user name, password, query and fragment. */
function shown(url: string): string {
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`.replace(/\/+$/, "");
  } catch {
    return "(not a URL)";
  }
}

/**
 * The credentials a resource with the `connection` input given would use under the provider's `settings`
 * (those its `configure` resolved), described, never revealed.
 */
export function credentialsSource(connection: ConnectionInput | undefined, settings: Settings): string {
  const resource = withConnection(settings, connection);
  const { token } = SETTINGS;
  const tokenFrom =
    resource.connection.token !== undefined
      ? "connection.token"
      : resource.stack.token !== undefined
        ? `${CONFIG_NAMESPACE}:${token.config} (stack configuration)`
        : `${token.env} (environment)`;
  return `token from ${tokenFrom}, base URL ${shown(settingOrDefault(resource, "baseUrl")!)}`;
}
