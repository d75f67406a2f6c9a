import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../../provider/receiver/index";
import { SECRET } from "../../helpers/fixtures";

/**
 * Regression (issue 18, item 3): the Service-Signature value was trimmed and handed to a lenient base64
 * decoder, so junk characters, URL-safe base64, missing padding, inner whitespace and trailing garbage
 * all verified. Only the spec's form is accepted now: `SHA256:` and the canonical base64 of 32 bytes.
 */
const BODY = '{"channel":"default","item_count":0,"items":[],"webhook_uuid":"w-1"}';
const digest = createHmac("sha256", SECRET).update(BODY).digest();
const canonical = digest.toString("base64");
const header = `SHA256:${canonical}`;

/** The same digest with its 2 unused bits set: a lenient decoder reads the same 32 bytes. */
function withUnusedBits(value: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const last = alphabet.indexOf(value[42]!);
  return `${value.slice(0, 42)}${alphabet[last | 1]}=`;
}

const SPELLINGS: readonly [string, string, RegExp][] = [
  ["a junk character inside", `SHA256:${canonical.slice(0, 10)}!${canonical.slice(10)}`, /canonical base64/],
  ["URL-safe base64", `SHA256:${digest.toString("base64url")}=`, /canonical base64/],
  ["missing padding", `SHA256:${canonical.replace(/=$/, "")}`, /canonical base64/],
  ["whitespace inside", `SHA256:${canonical.slice(0, 20)} ${canonical.slice(20)}`, /whitespace/],
  ["a trailing newline", `${header}\n`, /whitespace/],
  ["a space after the prefix", `SHA256: ${canonical}`, /whitespace/],
  ["trailing garbage", `${header}AAAA`, /canonical base64/],
  ["non-zero unused bits", `SHA256:${withUnusedBits(canonical)}`, /canonical base64/],
  ["two values joined by a proxy", `${header}, ${header}`, /several values/],
  ["a lower-case hash name", `sha256:${canonical}`, /must start with SHA256:/],
];

describe("the Service-Signature header is parsed strictly", () => {
  it("accepts the spec's form", () => {
    expect(canonical).toHaveLength(44);
    expect(verifySignature(BODY, header, [SECRET])).toEqual({ valid: true, secretIndex: 0 });
  });

  it.each(SPELLINGS)("refuses %s, with a reason", (_name, spelled, reason) => {
    const check = verifySignature(BODY, spelled, [SECRET]);
    expect(check.valid).toBe(false);
    expect(check.valid ? "" : check.reason).toMatch(reason);
    expect(check.valid ? "" : check.reason).not.toContain(canonical);
  });
});
