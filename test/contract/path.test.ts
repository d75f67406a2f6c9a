import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fillPath as fillPathWith, toRouterPath } from "../../contract/path";
import { ConfigurationError, type ServiceError } from "../../provider/client/index";
import { rejection } from "../helpers/client-sandbox";
import { useHooksSandbox } from "../helpers/hooks-sandbox";

/**
 * fillPath is the only place a value from outside (an id from state, an adopted uuid) becomes part of a
 * request path, so whatever the value, it must stay inside its own segment and address nothing else.
 */
const TEMPLATE = "/v2/webhooks/{webhook_uuid}/deactivate";

/** What the caller makes of a refusal; the client makes a ConfigurationError (the last describe below). */
class Refused extends Error {}
const fillPath = (template: string, params: Readonly<Record<string, string | null | undefined>>) =>
  fillPathWith(template, params, (problem) => new Refused(problem));
const REFUSED = ["", ".", "..", null, undefined] as const;
/** C0, DEL and C1: the control characters the service refuses in any string. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Any value fillPath accepts: a string of any code points (lone surrogates aside, which no id holds and
 * encodeURIComponent cannot encode) other than the refused ones and control characters.
 */
const acceptedValue = fc
  .string({
    unit: fc
      .oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }))
      .map((code) => String.fromCodePoint(code)),
    maxLength: 40,
  })
  .filter((s) => !(REFUSED as readonly unknown[]).includes(s) && !CONTROL.test(s));

/** Strings rich in the characters that could break out of a segment. */
const tricky = fc
  .array(fc.constantFrom("/", "?", "#", ".", "%", "..", "%2e", "%2F", "a", "é", "🙂", " ", "&", "="), {
    minLength: 1,
    maxLength: 12,
  })
  .map((parts) => parts.join(""))
  .filter((s) => !(REFUSED as readonly unknown[]).includes(s));

function segmentOf(filled: string): string {
  expect(filled.startsWith("/v2/webhooks/")).toBe(true);
  expect(filled.endsWith("/deactivate")).toBe(true);
  return filled.slice("/v2/webhooks/".length, -"/deactivate".length);
}

describe("fillPath (property)", () => {
  it("encodes every value so that it round-trips and stays one segment", () => {
    fc.assert(
      fc.property(fc.oneof(acceptedValue, tricky), (value) => {
        const segment = segmentOf(fillPath(TEMPLATE, { webhook_uuid: value }));
        expect(segment).not.toMatch(/[/?#]/);
        // Only unreserved characters and percent escapes: nothing a router or proxy reinterprets.
        expect(segment).toMatch(/^(?:[A-Za-z0-9\-_.!~*'()]|%[0-9A-F]{2})+$/);
        expect(decodeURIComponent(segment)).toBe(value);
        expect(segment === "." || segment === "..").toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("fills every parameter of a template, each in its place", () => {
    fc.assert(
      fc.property(acceptedValue, acceptedValue, (first, second) => {
        const filled = fillPath("/a/{first}/b/{second}", { first, second });
        const [, a, one, b, two, ...rest] = filled.split("/");
        expect([a, b, rest]).toEqual(["a", "b", []]);
        expect(decodeURIComponent(one!)).toBe(first);
        expect(decodeURIComponent(two!)).toBe(second);
      }),
      { numRuns: 100 },
    );
  });

  it("refuses empty, '.', '..', null and undefined with the caller's error, wherever they stand", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...REFUSED),
        fc.boolean(),
        acceptedValue,
        fc.boolean(),
        (bad, badFirst, good, omitted) => {
          const params: Record<string, string | null | undefined> = badFirst
            ? { first: bad, second: good }
            : { first: good, second: bad };
          // A parameter missing from the object altogether is as bad as one set to undefined.
          if (omitted && bad === undefined) delete params[badFirst ? "first" : "second"];
          let thrown: unknown;
          try {
            fillPath("/a/{first}/b/{second}", params);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(Refused);
          expect((thrown as Error).message).toContain(`Path parameter ${badFirst ? "first" : "second"}`);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("refuses a value holding a control character, naming the parameter and the character", () => {
    fc.assert(
      fc.property(
        acceptedValue,
        fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })),
        acceptedValue,
        (before, code, after) => {
          const value = `${before}${String.fromCodePoint(code)}${after}`;
          expect(() => fillPath(TEMPLATE, { webhook_uuid: value })).toThrow(Refused);
          expect(() => fillPath(TEMPLATE, { webhook_uuid: value })).toThrow(
            `Path parameter webhook_uuid must not contain control characters (found U+${code.toString(16).toUpperCase().padStart(4, "0")}`,
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it("leaves a template without parameters as it is", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^(\/[a-z0-9_.-]{1,8}){1,4}$/), (template) => {
        expect(fillPath(template, {})).toBe(template);
        expect(toRouterPath(template)).toBe(template);
      }),
      { numRuns: 50 },
    );
  });

  it("turns every {name} into :name for routers", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z_]{1,10}$/), { minLength: 1, maxLength: 4 }), (names) => {
        const template = names.map((n, i) => `/s${i}/{${n}}`).join("");
        expect(toRouterPath(template)).toBe(names.map((n, i) => `/s${i}/:${n}`).join(""));
      }),
      { numRuns: 50 },
    );
  });
});

describe("a path parameter, through the client against the sandbox", () => {
  const world = useHooksSandbox();
  const { client } = world;

  it("refuses an id that would address another object before sending anything (regression)", async () => {
    const c = client();
    for (const id of ["", ".", ".."]) {
      const error = await rejection<ServiceError>(c.webhooks.retrieve(id));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.code).toBe("configuration");
      expect(error.message).toMatch(/webhook_uuid must be a non-empty identifier/);
    }
    const control = await rejection<ServiceError>(c.webhooks.retrieve("a\nb"));
    expect(control).toBeInstanceOf(ConfigurationError);
    expect(control.code).toBe("configuration");
    expect(control.message).toMatch(
      /^Path parameter webhook_uuid must not contain control characters \(found U\+000A/,
    );
    expect(world.sandbox.requests()).toHaveLength(0);
  });
});
