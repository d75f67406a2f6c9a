import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../provider/client/routes";

/**
 * The table of client methods (docs/client.md, linked from the README) is written by hand for readers;
 * the route table is the source of truth. Every route must appear there, marked "(inferred)" exactly when
 * the table says so.
 */
const section = readFileSync(join(__dirname, "../../docs/client.md"), "utf8");
/** Each route cell of the table: `METHOD /path`, with whether "(inferred)" follows it. */
const cells = [...section.matchAll(/`(GET|POST) (\/v[12]\/[^`]+)`( \(inferred\))?/g)].map((m) => ({
  route: `${m[1]} ${m[2]}`,
  inferred: m[3] !== undefined,
}));

describe("the client reference's list of routes (docs/client.md)", () => {
  it("names every route of the route table, marking exactly the inferred ones", () => {
    const listed = new Map(cells.map((c) => [c.route, c.inferred]));
    const expected = new Map(
      Object.values(ROUTES).map((r) => [
        `${r.method} ${r.path}`,
        "inferred" in r && r.inferred !== undefined,
      ]),
    );
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(expected));
  });
});
