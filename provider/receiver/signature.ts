import { createHmac, timingSafeEqual } from "node:crypto";

export type SignatureCheck =
  | { readonly valid: true /** Index in `secrets` of the key that matched. */; readonly secretIndex: number }
  | { readonly valid: false; readonly reason: string };

const PREFIX = "SHA256:";

/**
 * Checks a delivery's `Service-Signature` header (`SHA256:<base64 HMAC-SHA256 of the raw body>`) against
 * one or more secrets, in constant time. Several secrets let a receiver accept both the old and the new
 * webhook while a rotation replaces one with the other.
 *
 * `rawBody` must be the bytes as received: a body parsed and re-serialized before checking will not match.
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secrets: readonly string[],
): SignatureCheck {
  if (!header) return { valid: false, reason: "the Service-Signature header is missing" };
  if (!header.startsWith(PREFIX)) {
    return { valid: false, reason: `the Service-Signature header must start with ${PREFIX}` };
  }
  const given = Buffer.from(header.slice(PREFIX.length).trim(), "base64");
  if (given.length !== 32)
    return { valid: false, reason: "the Service-Signature value is not a base64 SHA-256 digest" };
  if (secrets.length === 0) return { valid: false, reason: "no secret to check against" };
  let match = -1;
  // Every secret is checked, matched or not, so timing does not reveal which one matched.
  secrets.forEach((secret, i) => {
    const expected = createHmac("sha256", secret).update(rawBody).digest();
    if (timingSafeEqual(expected, given) && match === -1) match = i;
  });
  if (match >= 0) return { valid: true, secretIndex: match };
  const stray = secrets.some((s) => s !== s.trim());
  return {
    valid: false,
    reason:
      "the signature matches none of the secrets: check that the body is the raw bytes received (not parsed and re-serialized)" +
      (stray ? ", and note that a secret has leading or trailing whitespace, often a stray newline" : ""),
  };
}
