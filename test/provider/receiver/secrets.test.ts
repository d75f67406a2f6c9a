import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../provider/errors/index";
import {
  createLambdaHandler,
  createNodeHandler,
  parseDelivery,
  verifySignature,
} from "../../../provider/receiver/index";
import { SECRET } from "../../helpers/fixtures";

/**
 * Regression (issue 18, item 1): `secrets: [""]` was accepted, so a body signed with the HMAC key "" was
 * answered 200; an unset variable (`secrets: [process.env.X]`) gave a 500 on every delivery. Both are
 * refused when the handler is built, and by the functions that check a signature, naming the position.
 */
const SHORT = "short-secret-15"; // 15 characters: one fewer than the shortest secret_key
const options = (secrets: unknown[]) => ({
  secrets: secrets as string[],
  store: new Map<string, number>(),
  handleItem: () => undefined,
});

const BAD: readonly [string, unknown[], RegExp][] = [
  ["an empty secret", [""], /secrets\[0\] is empty/],
  ["an unset variable (undefined)", [SECRET, undefined], /secrets\[1\] is undefined, not a string/],
  ["a value that is not a string", [42], /secrets\[0\] is number, not a string/],
  ["null", [SECRET, SECRET, null], /secrets\[2\] is null, not a string/],
  ["a secret shorter than 16 characters", [SHORT], /secrets\[0\] is 15 characters long/],
];

const BUILDERS = {
  createNodeHandler: (secrets: unknown[]) => createNodeHandler(options(secrets)),
  createLambdaHandler: (secrets: unknown[]) => createLambdaHandler(options(secrets)),
  verifySignature: (secrets: unknown[]) => verifySignature("{}", undefined, secrets as string[]),
  parseDelivery: (secrets: unknown[]) => parseDelivery("{}", undefined, secrets as string[]),
};

describe("receiver secrets are checked before any delivery", () => {
  for (const [caller, build] of Object.entries(BUILDERS)) {
    it.each(BAD)(`${caller} refuses %s, naming its position and the rule`, (_name, secrets, position) => {
      let thrown: unknown;
      try {
        build(secrets);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      const message = (thrown as Error).message;
      expect(message).toMatch(position);
      expect(message).toContain(caller);
      expect(message).toContain("set it to the webhook's secret_key (16 to 256 characters)");
    });
  }

  it("never quotes the refused secret, in the message or any field", () => {
    let thrown: unknown;
    try {
      createNodeHandler(options([SECRET, SHORT]));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    for (const text of [inspect(thrown, { depth: 10 }), JSON.stringify(thrown), (thrown as Error).message]) {
      expect(text).not.toContain(SHORT);
      expect(text).not.toContain(SECRET);
    }
  });

  it("accepts a secret of exactly 16 characters", () => {
    expect(() => createLambdaHandler(options(["k".repeat(16)]))).not.toThrow();
  });
});
