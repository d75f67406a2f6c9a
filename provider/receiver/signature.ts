import { createHmac, timingSafeEqual } from "node:crypto";
import { checkSecrets } from "./secrets";

/** The outcome of a signature check. */
export type SignatureCheck =
  | {
      /** The signature matches one of the secrets: the delivery came from the service. */
      readonly valid: true;
      /** Index in `secrets` of the key that matched. */
      readonly secretIndex: number;
    }
  | {
      /** The signature matches none of the secrets, or is missing or malformed. */
      readonly valid: false;
      /** Why, with the likely cause. Never contains a secret or the signature. */
      readonly reason: string;
    };

const PREFIX = "SHA256:";

/**
 * The only spelling of a digest the header may carry: the canonical base64 of 32 bytes, 43 characters
 * and one `=`. The last character before the padding holds 2 unused bits, which must be zero; a decoder
 * ignores them, so without this rule four spellings would stand for one signature.
 */
const CANONICAL_DIGEST = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/** The digest a header carries, or why it is refused. Never quotes the header. */
function parseSignatureHeader(header: string | null | undefined): { digest: Buffer } | { reason: string } {
  if (!header) {
    return {
      reason:
        "the Service-Signature header is missing: the request did not come from a Service webhook, or a proxy in front of the receiver dropped the header; check that the proxy passes it on",
    };
  }
  if (!header.startsWith(PREFIX)) {
    return {
      reason: `the Service-Signature header must start with ${PREFIX}: the request did not come from a Service webhook`,
    };
  }
  const value = header.slice(PREFIX.length);
  if (value.includes(",")) {
    return {
      reason:
        "the Service-Signature header carries several values (it was sent more than once, or a proxy joined two); the service sends exactly one",
    };
  }
  if (/\s/.test(value)) {
    return {
      reason:
        "the Service-Signature value contains whitespace: the service sends SHA256: followed directly by 44 characters of base64",
    };
  }
  if (!CANONICAL_DIGEST.test(value)) {
    return {
      reason:
        "the Service-Signature value is not the canonical base64 of a SHA-256 digest (44 characters of A-Z, a-z, 0-9, + and /, ending in one =): the header was cut short or altered on the way; check that nothing in front of the receiver rewrites it",
    };
  }
  return { digest: Buffer.from(value, "base64") };
}

const hmac = (secret: string, body: string | Uint8Array) =>
  createHmac("sha256", secret).update(body).digest();

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
  checkSecrets(secrets, "verifySignature");
  const parsed = parseSignatureHeader(header);
  if ("reason" in parsed) return { valid: false, reason: parsed.reason };
  const given = parsed.digest;
  let match = -1;
  // Every secret is checked, matched or not, so timing does not reveal which one matched.
  secrets.forEach((secret, i) => {
    if (timingSafeEqual(hmac(secret, rawBody), given) && match === -1) match = i;
  });
  if (match >= 0) return { valid: true, secretIndex: match };
  return { valid: false, reason: mismatchReason(rawBody, given, secrets) };
}

/** Explains a signature that matches no secret. Timing no longer matters: the answer is already "no". */
function mismatchReason(rawBody: string | Uint8Array, given: Buffer, secrets: readonly string[]): string {
  const padded = secrets.findIndex((s) => s !== s.trim() && timingSafeEqual(hmac(s.trim(), rawBody), given));
  if (padded >= 0) {
    return `the signature matches secret ${padded} once its leading or trailing whitespace is removed: the secret carries a stray newline or space (often from a file or an echo), trim it`;
  }
  const count = secrets.length === 1 ? "the secret" : `any of the ${secrets.length} secrets`;
  return `the signature does not match ${count}. Likely causes: the body was parsed and re-serialized before it was checked (pass the raw bytes received); or the secret is another webhook's (during a rotation, configure the secrets of both the old and the new webhook)`;
}
