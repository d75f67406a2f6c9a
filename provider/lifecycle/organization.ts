/**
 * Which organization a resource's credentials reach, told apart without keeping a token. The service's
 * limits (10 active webhooks) are per organization, and an organization is what a token reaches at one
 * base URL: so two resources count against the same limit when the base URL and token a client would
 * use for them are the same. The key is a salted hash of both, with a salt drawn once per process: it
 * lives only in this process's memory, is never printed, and means nothing in another process.
 */
import { randomBytes } from "node:crypto";
import { DEFAULT_BASE_URL } from "../../contract/default-base-url";
import { credentialsOf } from "../client/config";
import { contextKey, processContext } from "../context/process";
import type { Settings } from "../settings/value";
import { hashSecret } from "./secret-hash";

/** Credentials as a resource's `connection` or the stack configuration give them; any member may be absent. */
export interface CredentialSettings {
  /** The API token. */
  readonly token?: string | undefined;
  /** The API base URL. */
  readonly baseUrl?: string | undefined;
}

const SALT = contextKey("organization key salt", () => randomBytes(16).toString("hex"));

/**
 * The key of the organization reached by a resource with `connection` (or none) under the stack
 * settings `stack`: the token and base URL resolved as `clientFor` resolves them (the resource's own,
 * then the stack's, then those of `settings`, then the local sandbox), hashed with this process's salt.
 * Missing credentials have a key too: such resources fail alike, whatever is counted. `settings` are those
 * the provider's `configure` resolved (in a program's own process, the environment's).
 */
export function organizationKey(
  connection: CredentialSettings | undefined,
  stack: CredentialSettings,
  settings: Settings,
): string {
  const { token, baseUrl } = credentialsOf(
    { token: connection?.token ?? stack.token, baseUrl: connection?.baseUrl ?? stack.baseUrl },
    settings,
  );
  // The client drops trailing slashes from the base URL, so they reach the same service.
  const service = (baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  return hashSecret(`${service}\n${token ?? ""}`, processContext().get(SALT));
}
