/** The salted hashes that stand for secrets in state. */
import { describe, expect, it } from "vitest";
import { hashSecret, secretMatches } from "../../../provider/lifecycle/secret-hash";

const SECRET = "whsec-plan-secret-0123456789";

describe("secret hashes", () => {
  it("match the secret they were made from, and nothing else, without throwing", () => {
    const stored = hashSecret(SECRET);
    expect(stored).toMatch(/^hmac-sha256:[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect(secretMatches(SECRET, stored)).toBe(true);
    expect(secretMatches(`${SECRET}x`, stored)).toBe(false);
    const [, salt, digest] = stored.split(":");
    for (const malformed of [
      `sha1:${salt}:${digest}`,
      // Another scheme of the same length, over the right digest.
      `hmac-sha257:${salt}:${digest}`,
      "hmac-sha256",
      `hmac-sha256:${salt}:${digest!.slice(1)}`,
      `hmac-sha256:${salt}:${digest}0`,
      "",
    ]) {
      expect(secretMatches(SECRET, malformed)).toBe(false);
    }
  });
});
