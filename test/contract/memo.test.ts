import { describe, expect, it } from "vitest";
import { memoize } from "../../contract/memo";

/** The request schemas are built once per version and kind: memoize is what guarantees it. */
describe("memoize", () => {
  it("builds once per distinct argument list, and answers the same value after", () => {
    const built: string[][] = [];
    const schemaFor = memoize((version: string, kind: string) => {
      built.push([version, kind]);
      return { version, kind };
    });
    const first = schemaFor("2.0", "authentication");
    expect(schemaFor("2.0", "authentication")).toBe(first);
    expect(schemaFor("1.4", "authentication")).toEqual({ version: "1.4", kind: "authentication" });
    expect(schemaFor("2.0", "fingerprint")).not.toBe(first);
    expect(built).toEqual([
      ["2.0", "authentication"],
      ["1.4", "authentication"],
      ["2.0", "fingerprint"],
    ]);
  });

  it("keeps argument lists apart that would read alike joined without a separator", () => {
    const schemaFor = memoize((a: string, b: string) => `${a}|${b}`);
    expect(schemaFor("ab", "c")).toBe("ab|c");
    expect(schemaFor("a", "bc")).toBe("a|bc");
  });
});
