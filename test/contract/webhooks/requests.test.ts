import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SESSION_KINDS } from "../../../contract/kinds";
import { formatPath } from "../../../contract/path";
import { API_VERSIONS, VERSION_TRAITS } from "../../../contract/versions";
import {
  canonicalFilters,
  endpointProblem,
  FILTER_KEYS,
  type FilterInput,
  FORM_FACTORS,
  filtersSchema,
  sameFilters,
  secretKeySchema,
  toWireFilters,
  webhookCreateBodySchema,
} from "../../../contract/webhooks/requests";
import type { CanonicalFilter } from "../../../contract/webhooks/types";
import { endpoint, hostname, path, version } from "../../helpers/arbitraries";

/**
 * Diff compares filter lists through canonicalFilters, and create sends toWireFilters of the canonical
 * form: a list the user merely reordered, or wrote with `values: [x]` instead of `value: x`, must compare
 * equal (no spurious replacement), and a real change must not.
 */
const value = fc.string({ minLength: 1, maxLength: 6 });

/** A filter list with distinct keys (the rules refuse a repeated key), in any spelling. */
const filterList = fc
  .uniqueArray(
    fc.record({
      key: fc.oneof(fc.constantFrom(...FILTER_KEYS), fc.string({ minLength: 1, maxLength: 6 })),
      values: fc.uniqueArray(value, { minLength: 1, maxLength: 4 }),
    }),
    { selector: (f) => f.key, maxLength: 5 },
  )
  .map((filters) => filters.map(({ key, values }) => ({ key, values: [...values].sort() })));

/**
 * The same filters spelt another way: reordered, one value as `value`, values rotated and (unless
 * `repeats` is false) one repeated.
 */
function respelt(filters: readonly CanonicalFilter[], repeats = true) {
  return fc
    .tuple(
      fc.shuffledSubarray([...filters], { minLength: filters.length, maxLength: filters.length }),
      fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.nat()), {
        minLength: filters.length,
        maxLength: filters.length,
      }),
    )
    .map(([order, choices]) =>
      order.map((f, i): FilterInput => {
        const [asValue, repeat, rotate] = choices[i]!;
        if (f.values.length === 1 && asValue) return { key: f.key, value: f.values[0]! };
        const shift = rotate % f.values.length;
        const rotated = [...f.values.slice(shift), ...f.values.slice(0, shift)];
        return { key: f.key, values: repeat && repeats ? [...rotated, ...rotated.slice(0, 1)] : rotated };
      }),
    );
}

const asInput = (filters: readonly CanonicalFilter[]): FilterInput[] =>
  filters.map((f) => ({ key: f.key, values: [...f.values] }));

describe("filter canonicalisation (property)", () => {
  it("does not depend on order, on value versus values, or on repeated values", () => {
    fc.assert(
      fc.property(
        filterList.chain((filters) => fc.tuple(fc.constant(filters), respelt(filters), respelt(filters))),
        ([filters, one, other]) => {
          expect(canonicalFilters(one)).toEqual(canonicalFilters(asInput(filters)));
          expect(canonicalFilters(one)).toEqual(canonicalFilters(other));
          expect(sameFilters(one, other)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("has sorted, distinct keys and sorted, distinct values, and is idempotent", () => {
    fc.assert(
      fc.property(
        filterList.chain((filters) => respelt(filters)),
        (filters) => {
          const canonical = canonicalFilters(filters);
          const keys = canonical.map((f) => f.key);
          expect(keys).toEqual([...new Set(keys)].sort());
          for (const f of canonical) expect(f.values).toEqual([...new Set(f.values)].sort());
          expect(canonicalFilters(asInput(canonical))).toEqual(canonical);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("writes one value as `value` and several as `values`, and the wire form reads back the same", () => {
    fc.assert(
      fc.property(
        filterList.chain((filters) => respelt(filters)),
        (filters) => {
          const canonical = canonicalFilters(filters);
          const wire = toWireFilters(canonical);
          wire.forEach((w, i) => {
            const values = canonical[i]!.values;
            expect(w).toEqual(
              values.length === 1 ? { key: w.key, value: values[0] } : { key: w.key, values },
            );
          });
          expect(canonicalFilters(wire)).toEqual(canonical);
          expect(sameFilters(wire, filters)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("tells lists apart that differ by a value or a key", () => {
    fc.assert(
      fc.property(
        filterList.filter((filters) => filters.length > 0),
        fc.nat(),
        value,
        fc.boolean(),
        (filters, which, extra, dropKey) => {
          const i = which % filters.length;
          const target = filters[i]!;
          fc.pre(dropKey || !target.values.includes(extra));
          const changed = dropKey
            ? filters.filter((_, j) => j !== i)
            : filters.map((f, j) => (j === i ? { key: f.key, values: [...f.values, extra] } : f));
          expect(sameFilters(asInput(filters), asInput(changed))).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("keeps a valid list valid on both API versions once canonical", () => {
    const valid = fc
      .record({
        name: fc.constantFrom(...SESSION_KINDS),
        formFactors: fc.option(fc.uniqueArray(fc.constantFrom(...FORM_FACTORS), { minLength: 1 })),
        users: fc.option(fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,7}$/), { minLength: 1 })),
      })
      .map(({ name, formFactors, users }) => {
        const filters: CanonicalFilter[] = [{ key: "activity.name", values: [name] }];
        if (formFactors) filters.push({ key: "activity.form_factor", values: formFactors });
        if (users) filters.push({ key: "owner.user.username", values: users });
        return filters;
      });
    fc.assert(
      fc.property(
        // activity.name takes exactly one value, so no value is repeated here.
        valid.chain((filters) => respelt(filters, false)),
        fc.constantFrom(...API_VERSIONS),
        (filters, version) => {
          expect(filtersSchema(version).safeParse(filters).success).toBe(true);
          expect(filtersSchema(version).safeParse(toWireFilters(canonicalFilters(filters))).success).toBe(
            true,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("request rule messages", () => {
  it("say what is wrong with an endpoint", () => {
    expect(endpointProblem("hooks.example.com/events", "2.0")).toBe(
      "must be an absolute https:// URL: give the full address your receiver serves, such as https://hooks.example.com/service/events",
    );
  });

  it("say what is wrong with a filter list, at the filter's path", () => {
    const problems = (filters: unknown) =>
      filtersSchema("1.4")
        .safeParse(filters)
        .error?.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    const name = { key: "activity.name", value: "authentication" };
    expect(problems([name, { key: "colour", value: "x" }])).toEqual([
      "[1].key: must be one of activity.name, activity.form_factor, owner.user.username",
    ]);
    expect(problems([name, name])).toEqual(["[1].key: activity.name must appear only once"]);
    expect(problems([name, { key: "owner.user.username" }])).toEqual(["[1]: needs value or values"]);
    expect(problems([{ key: "activity.name", values: ["authentication", "fingerprint"] }])).toEqual([
      "[0].values: activity.name takes exactly one value, authentication or fingerprint",
    ]);
    expect(problems([name, { key: "activity.form_factor", values: ["lightbox", "huge", "tiny"] }])).toEqual([
      "[1].values: activity.form_factor values must be among lightbox, microscopic, free_camera (got huge, tiny)",
    ]);
    expect(problems([name, { key: "owner.user.username", value: "" }])).toEqual([
      "[1].value: must not be empty",
    ]);
    expect(problems([name, { key: "owner.user.username", values: [""] }])).toEqual([
      "[1].values[0]: must not be empty",
    ]);
    expect(problems([name, { key: "owner.user.username", values: [] }])).toEqual([
      "[1].values: must not be empty",
    ]);
    const body = webhookCreateBodySchema("2.0").safeParse({
      endpoint: { type: "email", value: "https://hooks.example.com/e" },
      secret_key: "s".repeat(20),
      channel: "",
      filters: [name],
    });
    expect(body.error?.issues.map((i) => `${formatPath(i.path)}: ${i.message}`)).toEqual([
      "endpoint.type: must be url",
      "channel: must not be empty",
    ]);
    expect(problems([])).toEqual([
      ": must contain an activity.name filter with value authentication or fingerprint",
    ]);
  });
});

describe("endpoints (property)", () => {
  it("accepts every https URL on a well-formed host with a plain path, on both versions", () => {
    fc.assert(
      fc.property(endpoint, version, (url, v) => {
        expect(endpointProblem(url, v)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a query, a fragment or ;params on v2 only", () => {
    const suffix = fc.oneof(
      fc.stringMatching(/^[a-z0-9=&]{0,8}$/).map((q) => ({ text: `?${q}`, what: /query string/ })),
      fc.stringMatching(/^[a-z0-9]{0,8}$/).map((f) => ({ text: `#${f}`, what: /fragment/ })),
      fc.stringMatching(/^[a-z0-9=]{0,8}$/).map((p) => ({ text: `/x;${p}`, what: /;params/ })),
    );
    fc.assert(
      fc.property(endpoint, suffix, (url, { text, what }) => {
        expect(endpointProblem(url + text, "2.0")).toMatch(what);
        expect(endpointProblem(url + text, "1.4")).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("refuses other schemes, credentials, and hosts that break the hostname rule", () => {
    fc.assert(
      fc.property(hostname, path, version, (host, rest, v) => {
        expect(endpointProblem(`http://${host}${rest}`, v)).toMatch(
          /^must be an https:\/\/ URL on a registered domain: change the scheme to https$/,
        );
        for (const credentials of ["user:pw@", "user@", ":pw@"]) {
          expect(endpointProblem(`https://${credentials}${host}${rest}`, v)).toMatch(
            /^must not carry credentials \(user:password@\): remove them/,
          );
        }
        const single = host.split(".")[0]!;
        // A label that is a number (`7`, `0x0`) is an IPv4 address to the URL parser, not a single label;
        // one that only looks like a number (`08`: octal with an 8) makes the whole URL unparsable
        // (regression: seed 569105120 shrank to the host `08.a.aa`).
        const parsed = URL.canParse(`https://${single}/`)
          ? new URL(`https://${single}/`).hostname
          : undefined;
        expect(endpointProblem(`https://${single}${rest}`, v)).toMatch(
          parsed === undefined
            ? /^must be an absolute https:\/\/ URL/
            : /^\d+\.\d+\.\d+\.\d+$/.test(parsed)
              ? /^host must be a registered domain name, not an IP address/
              : /^host must have/,
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe("secret keys (property)", () => {
  it("accept exactly the lengths the version allows", () => {
    fc.assert(
      fc.property(version, fc.integer({ min: 0, max: 300 }), (v, length) => {
        const { min, max } = VERSION_TRAITS[v].secretKey;
        const ok = length >= min && (max === undefined || length <= max);
        expect(secretKeySchema(v).safeParse("k".repeat(length)).success).toBe(ok);
      }),
      { numRuns: 300 },
    );
  });
});

describe("filter lists (property)", () => {
  const name = fc.constantFrom("authentication", "fingerprint");

  it("refuse a repeated key, an unknown key, an empty value and a missing activity.name", () => {
    fc.assert(
      fc.property(version, name, fc.string({ minLength: 1, maxLength: 10 }), (v, n, unknown) => {
        fc.pre(!["activity.name", "activity.form_factor", "owner.user.username"].includes(unknown));
        const base = { key: "activity.name", value: n };
        const schema = filtersSchema(v);
        expect(schema.safeParse([base]).success).toBe(true);
        expect(schema.safeParse([base, base]).success).toBe(false);
        expect(schema.safeParse([base, { key: unknown, value: "x" }]).success).toBe(false);
        expect(schema.safeParse([base, { key: "owner.user.username", values: [] }]).success).toBe(false);
        expect(schema.safeParse([base, { key: "owner.user.username", value: "" }]).success).toBe(false);
        expect(schema.safeParse([{ key: "owner.user.username", value: "alice" }]).success).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it("take both value and values on v2 only", () => {
    fc.assert(
      fc.property(name, (n) => {
        const both = [{ key: "activity.name", value: n, values: [n] }];
        expect(filtersSchema("2.0").safeParse(both).success).toBe(true);
        expect(filtersSchema("1.4").safeParse(both).success).toBe(false);
      }),
      { numRuns: 10 },
    );
  });
});
