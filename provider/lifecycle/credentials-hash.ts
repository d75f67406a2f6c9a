import type { ResolvedOptions } from "../client/config";
import { canonicalBaseUrl } from "./input-comparison";
import { hashSecret, secretMatches } from "./secret-hash";

/**
 * The salted hash of the credentials an object was created or last verified with, which state keeps (a
 * secret output), and comparing the credentials in use with it. Credentials are a client's resolved
 * settings: a diff compares them without making a client (client-settings.ts), so that an unchanged
 * preview never loads the HTTP client.
 */
export type Credentials = Pick<ResolvedOptions, "baseUrl" | "token">;

/** The credentials as hashed: the base URL in canonical form, so that two spellings of it hash alike. */
const identity = ({ baseUrl, token }: Credentials) => `${canonicalBaseUrl(baseUrl)}\n${token}`;

/** The salted hash state keeps of `credentials`. */
export function credentialsHash(credentials: Credentials): string {
  return hashSecret(identity(credentials));
}

/** True or false when credentials were recorded to compare with; undefined when none were (inputs hold none). */
export function sameCredentials(credentials: Credentials, stored: string | undefined): boolean | undefined {
  return stored === undefined ? undefined : secretMatches(identity(credentials), stored);
}

/** The hash to keep for credentials that were just seen to work: the stored one if they are the same. */
export function recordedCredentials(credentials: Credentials, stored: string | undefined): string {
  return sameCredentials(credentials, stored) === true ? stored! : credentialsHash(credentials);
}
