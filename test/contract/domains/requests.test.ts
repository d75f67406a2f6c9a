import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostnameProblem } from "../../../contract/domains/requests";
import { hostname } from "../../helpers/arbitraries";

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

describe("hostnames (property)", () => {
  it("accepts lower-case dotted labels, and refuses case, schemes, ports, paths and single labels", () => {
    fc.assert(
      fc.property(hostname, fc.constantFrom("/", ":", "?", "#", "@", " "), fc.nat(), (host, bad, at) => {
        expect(hostnameProblem(host)).toBeUndefined();
        const i = at % (host.length + 1);
        expect(hostnameProblem(host.slice(0, i) + bad + host.slice(i))).toMatch(/bare hostname/);
        fc.pre(/[a-z]/.test(host));
        expect(hostnameProblem(host.toUpperCase())).toBe("must be lower case");
        // One label that is a number (decimal, or 0x hex such as "0xa") is an IPv4 address to a URL parser.
        const joined = host.replaceAll(".", "");
        expect(hostnameProblem(joined)).toMatch(
          /^(\d+|0x[0-9a-f]*)$/.test(joined) ? /not an IP address/ : /at least two labels/,
        );
      }),
      { numRuns: 200 },
    );
  });
});
