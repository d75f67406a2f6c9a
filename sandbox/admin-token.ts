import { randomBytes } from "node:crypto";
import { hostnameOf, isLoopback } from "../contract/loopback";

/** Who may use the admin routes. */
export interface AdminAccess {
  /** When set, every admin request must carry it in the admin token header (ADMIN_TOKEN_HEADER). */
  readonly adminToken: string | undefined;
  /** The host the sandbox was told to serve: requests addressed to it are accepted besides loopback. */
  readonly servedHost: string | undefined;
}

/** The request header that carries the admin token. A custom header also makes a browser ask first. */
export const ADMIN_TOKEN_HEADER = "x-sandbox-admin-token";

/** The environment variable `startSandbox` reads the admin token from when the option is not given. */
export const ADMIN_TOKEN_ENV = "SERVICE_SANDBOX_ADMIN_TOKEN";

/**
 * The admin token a sandbox listening on `host` runs with: the one given, else SERVICE_SANDBOX_ADMIN_TOKEN,
 * else, beyond loopback, one made up (24 random bytes), since anyone who can reach the port could otherwise
 * read every organization's state; on loopback, none.
 */
export function resolveAdminToken(
  host: string,
  given: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { adminToken: string | undefined; generated: boolean } {
  const chosen = given ?? (env[ADMIN_TOKEN_ENV] || undefined);
  if (chosen !== undefined || isLoopback(hostnameOf(host))) return { adminToken: chosen, generated: false };
  return { adminToken: randomBytes(24).toString("base64url"), generated: true };
}
