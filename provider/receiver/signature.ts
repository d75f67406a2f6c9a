import { createHmac, timingSafeEqual } from "node:crypto";

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
  if (!header) {
    return {
      valid: false,
      reason:
        "the Service-Signature header is missing: the request did not come from a Service webhook, or a proxy in front of the receiver dropped the header",
    };
  }
  if (!header.startsWith(PREFIX)) {
    return {
      valid: false,
      reason: `the Service-Signature header must start with ${PREFIX}: the request did not come from a Service webhook`,
    };
  }
  const given = Buffer.from(header.slice(PREFIX.length).trim(), "base64");
  if (given.length !== 32) {
    return {
      valid: false,
      reason:
        "the Service-Signature value is not a base64 SHA-256 digest: the header was cut short or altered on the way",
    };
  }
  if (secrets.length === 0) {
    return {
      valid: false,
      reason: "no secret to check against: configure the secret key of every webhook that posts to this URL",
    };
  }
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
