import { createHash } from "node:crypto";
import { VERSION_TRAITS } from "../../contract/versions";
import { ConfigurationError } from "../errors/base";

/**
 * The shortest `secret_key` the service accepts (API 2.0; API 1.4 asks for 20). A shorter key cannot be
 * a webhook's, and an empty one would let anyone sign a delivery with the HMAC key "".
 */
const MIN_SECRET_LENGTH = VERSION_TRAITS["2.0"].secretKey.min;

/** The rule every receiver secret meets, as the errors below end with it. */
const RULE = `set it to the webhook's secret_key (${MIN_SECRET_LENGTH} to ${VERSION_TRAITS["2.0"].secretKey.max} characters)`;

/** Why `secret` cannot be a webhook's secret key, without quoting it; undefined when it can. */
function secretProblem(secret: unknown): string | undefined {
  if (typeof secret !== "string") {
    const what = secret === null ? "null" : typeof secret;
    return `is ${what}, not a string: the environment variable or setting it was read from is probably unset`;
  }
  if (secret.length === 0) return "is empty";
  if (secret.length < MIN_SECRET_LENGTH) {
    return `is ${secret.length} characters long, shorter than any secret_key the service accepts`;
  }
  return undefined;
}

/**
 * Refuses a secret list a receiver must not run with: not a list, empty, or holding a value that is not a
 * string or is shorter than `MIN_SECRET_LENGTH`. The error names the position, never the value. Checked
 * when a handler is built, and by `verifySignature` and `parseDelivery` on every call, so that no
 * delivery signed with an empty or unset key is ever accepted.
 */
export function checkSecrets(secrets: unknown, caller: string): asserts secrets is readonly string[] {
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new ConfigurationError(
      `${caller} needs at least one secret in secrets: pass the secret key of each webhook that posts to this URL.`,
    );
  }
  secrets.forEach((secret: unknown, i) => {
    const problem = secretProblem(secret);
    if (problem) throw new ConfigurationError(`${caller}: secrets[${i}] ${problem}; ${RULE}.`);
  });
}

/** How many hex digits of a secret's SHA-256 its fingerprint keeps: enough to tell a few secrets apart. */
const FINGERPRINT_DIGITS = 8;

/** The shape of every fingerprint `secretFingerprint` gives, and the only one review prints. */
export const FINGERPRINT_PATTERN = new RegExp(`^sha256:[0-9a-f]{${FINGERPRINT_DIGITS}}$`);

/**
 * A name for a secret that can be logged, compared and printed without revealing it: `sha256:` and the
 * first 8 hex digits of the secret's SHA-256. The rotation helper (`SecretRotation`) records the
 * fingerprints of the secrets a receiver must hold, and `service-pulumi review` prints them, so that a
 * receiver can log `secretFingerprint(secrets[delivery.secretIndex])` and be compared with them.
 *
 * @example
 * ```ts
 * import { secretFingerprint } from "@service/pulumi/receiver";
 *
 * console.log(secretFingerprint(process.env.WEBHOOK_SECRET!)); // sha256:1f2e3d4c
 * ```
 */
export function secretFingerprint(secret: string): string {
  return `sha256:${createHash("sha256").update(secret).digest("hex").slice(0, FINGERPRINT_DIGITS)}`;
}
