import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Salted hashes of secrets kept in state: enough for diff to notice a rotated secret, useless for
 * recovering it.
 */
const SCHEME = "hmac-sha256";

export function hashSecret(secret: string, salt = randomBytes(16).toString("hex")): string {
  return `${SCHEME}:${salt}:${createHmac("sha256", salt).update(secret).digest("hex")}`;
}

export function secretMatches(secret: string, stored: string): boolean {
  const [scheme, salt] = stored.split(":");
  if (scheme !== SCHEME || salt === undefined) return false;
  const expected = Buffer.from(hashSecret(secret, salt));
  const actual = Buffer.from(stored);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
