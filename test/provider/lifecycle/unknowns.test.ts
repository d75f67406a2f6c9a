/** The unknown-value rules of a preview, which every resource's lifecycle stands on. */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containsUnknown, knownMembers, UNKNOWN } from "../../../provider/lifecycle/unknowns";

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
