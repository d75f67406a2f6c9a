import { describe, expect, it } from "vitest";
import { hostnameProblem } from "../../../contract/domains/requests";

describe("request rule messages", () => {
  it("say what is wrong with a hostname", () => {
    expect(hostnameProblem("")).toBe("must not be empty");
    expect(hostnameProblem(`${"a.".repeat(127)}com`)).toBe("must be at most 253 characters");
    expect(hostnameProblem(`${"a.".repeat(125)}com`)).toBeUndefined();
    expect(`${"a.".repeat(125)}com`).toHaveLength(253);
    for (const host of [
      "-hooks.example.com",
      "hooks-.example.com",
      "ho_oks.example.com",
      `${"a".repeat(64)}.com`,
    ]) {
      expect(hostnameProblem(host)).toBe(
        "must consist of labels of letters, digits and inner hyphens, separated by single dots",
      );
    }
    expect(hostnameProblem(`${"a".repeat(63)}.com`)).toBeUndefined();
  });
});
