/**
 * A receiver must refuse every delivery it cannot verify: these tests check `valid`, not only the reason
 * given, so that a check that says why but lets the delivery through fails.
 */

import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isStale, verifySignature } from "../../../provider/receiver/index";

/**
 * A receiver must refuse every delivery it cannot verify: these tests check `valid`, not only the reason
 * given, so that a check that says why but lets the delivery through fails.
 */
const BODY = '{"items":[]}';
const SECRET = "whsec-receiver-0123456789";
const sign = (body: string, secret: string) =>
  `SHA256:${createHmac("sha256", secret).update(body).digest("base64")}`;

describe("verifySignature refuses", () => {
  it.each([
    ["a missing header", undefined, [SECRET], "the Service-Signature header is missing"],
    ["an empty header", "", [SECRET], "the Service-Signature header is missing"],
    ["another scheme", sign(BODY, SECRET).replace("SHA256:", "SHA512:"), [SECRET], "must start with SHA256:"],
    [
      "a digest of the wrong length",
      "SHA256:bm90LWEtZGlnZXN0",
      [SECRET],
      "not the canonical base64 of a SHA-256 digest",
    ],
    [
      "a signature made with another secret",
      sign(BODY, "other-secret-0123456789"),
      [SECRET],
      "does not match the secret",
    ],
  ])("%s", (_name, header, secrets, reason) => {
    const result = verifySignature(BODY, header, secrets);
    expect(result.valid).toBe(false);
    expect(result.valid ? "" : result.reason).toContain(reason);
  });

  it("mentions stray whitespace only when trimming a secret makes it match", () => {
    const other = sign(BODY, "other-secret-0123456789");
    const plain = verifySignature(BODY, other, [SECRET, " second-secret-0123456789"]);
    const padded = verifySignature(BODY, sign(BODY, SECRET), ["second-secret-0123456789", `${SECRET}\n`]);
    expect(plain.valid ? "" : plain.reason).toBe(
      "the signature does not match any of the 2 secrets. Likely causes: the body was parsed and re-serialized before it was checked (pass the raw bytes received); or the secret is another webhook's (during a rotation, configure the secrets of both the old and the new webhook)",
    );
    expect(padded.valid ? "" : padded.reason).toBe(
      "the signature matches secret 1 once its leading or trailing whitespace is removed: the secret carries a stray newline or space (often from a file or an echo), trim it",
    );
  });
});

describe("verifySignature accepts", () => {
  it("the header of a delivery, naming the first secret that matched", () => {
    const header = sign(BODY, SECRET);
    expect(verifySignature(BODY, header, ["other-secret-0123456789", SECRET, SECRET])).toEqual({
      valid: true,
      secretIndex: 1,
    });
  });
});

describe("isStale", () => {
  it("discards only an update older than the one recorded; the first one is never stale", () => {
    expect(isStale(1, undefined)).toBe(false);
    expect(isStale(3, 4)).toBe(true);
    expect(isStale(4, 4)).toBe(false);
    expect(isStale(5, 4)).toBe(false);
  });
});
