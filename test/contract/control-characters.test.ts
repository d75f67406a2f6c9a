import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { controlCharacterProblem, safeString } from "../../contract/control-characters";
import { hostnameProblem } from "../../contract/domains/requests";
import { endpointProblem, secretKeySchema } from "../../contract/webhooks/requests";
import { check as checkWith } from "../../provider/webhook/resource";
import { endpoint, hostname, version } from "../helpers/arbitraries";
import { failureOn } from "../helpers/check-failures";
import { HOST, webhookArgs } from "../helpers/fixtures";
import { underProvider } from "../helpers/runtime";
import { hookBody, useRegisteredWorld } from "../helpers/world";

const { check } = underProvider({ check: checkWith });

/**
 * The control-character rule is written once (contract/control-characters.ts) and enforced by every request rule, by
 * check at preview and by the sandbox on the wire. These properties pin what it promises for every input,
 * not only for the handful of examples in the provider and sandbox tests; the other request rules' own
 * properties are in test/contract/webhooks/requests.test.ts and test/contract/domains/requests.test.ts.
 */

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

describe("control characters (property)", () => {
  it("name the control character found in any safe string", () => {
    const message = safeString().safeParse("a\u0007b").error?.issues[0]?.message;
    expect(message).toBe(controlCharacterProblem("a\u0007b"));
  });

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
