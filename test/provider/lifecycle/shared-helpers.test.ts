/**
 * What every resource's lifecycle stands on: the unknown-value rules of a preview, the salted hashes
 * that stand for secrets in state, and what a refresh answers.
 */

import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { refreshAnswer } from "../../../provider/lifecycle/refresh";
import { hashSecret, secretMatches } from "../../../provider/lifecycle/secret-hash";
import { containsUnknown, knownMembers, UNKNOWN } from "../../../provider/lifecycle/unknowns";

const SECRET = "whsec-plan-secret-0123456789";

describe("unknown values", () => {
  /** A JSON value with the unknown sentinel somewhere inside, at any depth. */
  const withUnknown = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 4 },
      fc.constant(UNKNOWN),
      fc.tuple(fc.array(fc.jsonValue(), { maxLength: 2 }), tie("value")).map(([rest, v]) => [...rest, v]),
      fc
        .tuple(fc.dictionary(fc.stringMatching(/^[a-z]{1,4}$/), fc.jsonValue(), { maxKeys: 2 }), tie("value"))
        .map(([rest, v]) => ({ ...rest, inner: v })),
    ),
  })).value;

  it("are found at any depth, and nothing else is taken for one", () => {
    fc.assert(
      fc.property(withUnknown, (value) => {
        expect(containsUnknown(value)).toBe(true);
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        fc.pre(!JSON.stringify(value).includes(UNKNOWN));
        expect(containsUnknown(value)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("leave out only the members that hold one", () => {
    expect(knownMembers({ a: 1, b: [UNKNOWN], c: { d: UNKNOWN }, e: null, f: "x" })).toEqual({
      a: 1,
      e: null,
      f: "x",
    });
  });
});

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

describe("a refresh's answer", () => {
  const stored = { __provider: "code", b: { y: 2, x: 1 }, a: "1", gone: null };

  it("is the stored state itself, with no inputs, when the service showed nothing new in any member order", () => {
    const inputsOf = () => {
      throw new Error("no inputs are needed when nothing changed");
    };
    expect(refreshAnswer("id-1", stored, { a: "1", b: { x: 1, y: 2 } }, inputsOf)).toEqual({
      id: "id-1",
      props: stored,
    });
  });

  it("is the refreshed state and the inputs it implies when the service showed something new", () => {
    const refreshed = { a: "2", b: { x: 1, y: 2 } };
    expect(refreshAnswer("id-1", stored, refreshed, () => ({ a: "2" }))).toEqual({
      id: "id-1",
      props: refreshed,
      inputs: { a: "2" },
    });
  });
});
