import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * HMAC signatures under a key made fresh for each sandbox: what the sandbox hands out (image URLs,
 * signed SDK authorization requests) can be checked later without storing it.
 */
export class Signer {
  private readonly key = randomBytes(32);

  /** The base64url HMAC-SHA256 of `text`. */
  sign(text: string): string {
    return createHmac("sha256", this.key).update(text).digest("base64url");
  }

  /** Whether `signature` is `sign(text)`, compared in constant time. */
  verify(text: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(text));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
