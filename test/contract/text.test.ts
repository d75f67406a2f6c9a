import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostnameProblem } from "../../contract/domains/requests";
import { controlCharacterProblem, safeString } from "../../contract/text";
import { API_VERSIONS, VERSION_TRAITS } from "../../contract/versions";
import { endpointProblem, filtersSchema, secretKeySchema } from "../../contract/webhooks/requests";
import { check } from "../../provider/webhook/resource";
import { failureOn } from "../helpers/check-failures";
import { HOST, webhookArgs } from "../helpers/fixtures";
import { hookBody, useRegisteredWorld } from "../helpers/world";

/**
 * The request rules are written once and enforced twice: by check at preview, and by the sandbox on the
 * wire. These properties pin what they promise for every input, not only for the handful of examples in
 * the provider and sandbox tests.
 */
const version = fc.constantFrom(...API_VERSIONS);

/** C0 controls, DEL and C1 controls: the characters a URL parser strips or a header splits on. */
const controlCharacter = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0x9f }))
  .map((code) => String.fromCharCode(code));

/**
 * Any string with no control character in it, built from code points outside the control ranges (a
 * filter over arbitrary strings would reject most of them: fast-check favours small code points).
 */
const clean = (maxLength = 30) =>
  fc.string({
    unit: fc
      .oneof(
        fc.integer({ min: 0x20, max: 0x7e }),
        fc.integer({ min: 0xa0, max: 0xd7ff }),
        fc.integer({ min: 0xe000, max: 0x10ffff }),
      )
      .map((code) => String.fromCodePoint(code)),
    maxLength,
  });

/** `value` with a control character put at some position; the position and the character, too. */
function withControl(value: fc.Arbitrary<string>) {
  return fc.tuple(value, controlCharacter, fc.nat()).map(([text, control, at]) => {
    const i = at % (text.length + 1);
    return { text: text.slice(0, i) + control + text.slice(i), control, at: i };
  });
}

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);
const hostname = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,6}$/))
  .map(([labels, tld]) => [...labels, tld].join("."));
/** A path of unreserved characters and percent escapes: nothing a v2 endpoint refuses. */
const path = fc
  .array(fc.stringMatching(/^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2}){1,10}$/), { maxLength: 4 })
  .map((segments) => segments.map((s) => `/${s}`).join(""));
const port = fc.option(
  fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`),
  { nil: "" },
);
const endpoint = fc.tuple(hostname, port, path).map(([host, p, rest]) => `https://${host}${p}${rest}`);

describe("control characters (property)", () => {
  it("are found wherever they stand, and named by code point and position", () => {
    fc.assert(
      fc.property(withControl(clean()), ({ text, control, at }) => {
        const code = control.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
        expect(controlCharacterProblem(text)).toBe(
          `must not contain control characters (found U+${code} at position ${at})`,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("are the only thing controlCharacterProblem and safeString refuse", () => {
    fc.assert(
      fc.property(clean(), (text) => {
        expect(controlCharacterProblem(text)).toBeUndefined();
        expect(safeString().safeParse(text).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("make every rule refuse the value, on both versions", () => {
    fc.assert(
      fc.property(
        version,
        withControl(endpoint),
        withControl(hostname),
        withControl(fc.string({ minLength: 30, maxLength: 40 })),
        (v, badEndpoint, badHost, badSecret) => {
          expect(endpointProblem(badEndpoint.text, v)).toMatch(/^must not contain control characters/);
          expect(hostnameProblem(badHost.text)).toMatch(/^must not contain control characters/);
          const secret = secretKeySchema(v).safeParse(badSecret.text);
          expect(secret.success).toBe(false);
          expect(secret.error!.issues.map((i) => i.message).join()).toMatch(/control characters/);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("in any string input make check fail on that property, before anything is sent", async () => {
    const members = {
      endpoint: (text: string) => ({ endpoint: text }),
      secretKey: (text: string) => ({ secretKey: text }),
      channel: (text: string) => ({ channel: text }),
      "filters[0].value": (text: string) => ({ filters: [{ key: "activity.name", value: text }] }),
      "filters[1].values[0]": (text: string) => ({
        filters: [
          { key: "activity.name", value: "authentication" },
          { key: "owner.user.username", values: [text] },
        ],
      }),
      "connection.token": (text: string) => ({ connection: { token: text } }),
    } as const;
    const validValue = {
      endpoint: `https://${HOST}/events`,
      secretKey: "s".repeat(24),
      channel: "orders",
      "filters[0].value": "authentication",
      "filters[1].values[0]": "alice",
      "connection.token": "token-0123456789",
    } as const;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(members) as (keyof typeof members)[])),
        version,
        controlCharacter,
        fc.nat(),
        async (member, v, control, at) => {
          const good = validValue[member];
          const i = at % (good.length + 1);
          const text = good.slice(0, i) + control + good.slice(i);
          const { failures } = await check({}, webhookArgs({ apiVersion: v, ...members[member](text) }));
          expect(failureOn(failures, member)?.reason).toMatch(/control characters/);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("the sandbox (property)", () => {
  const world = useRegisteredWorld();

  it("answers 400 to a control character in any string of a create, and stores nothing", async () => {
    const place = {
      endpoint: (text: string) => ({ endpoint: { type: "url", value: `https://${HOST}/${text}` } }),
      secret_key: (text: string) => ({ secret_key: `${"s".repeat(24)}${text}` }),
      channel: (text: string) => ({ channel: text }),
      filter: (text: string) => ({ filters: [{ key: "activity.name", value: `authentication${text}` }] }),
    } as const;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(place) as (keyof typeof place)[])),
        withControl(fc.stringMatching(/^[a-z]{0,6}$/)),
        async (where, { text }) => {
          const body = hookBody(place[where](text));
          const { failures } = await check(
            {},
            {
              endpoint: body.endpoint.value,
              secretKey: body.secret_key,
              channel: (body as { channel?: string }).channel,
              filters: body.filters,
            },
          );
          expect(failures).not.toEqual([]);
          const answer = await world.current.api("POST", "/v2/webhooks", { body });
          expect(answer.status).toBe(400);
        },
      ),
      { numRuns: 30 },
    );
    const listed = await world.current.api("POST", "/v2/search/webhooks", { body: {} });
    expect(listed.json.items).toEqual([]);
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
