import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SecretRegistry } from "../../../provider/context/secrets";

/**
 * Redaction is by exact match: every remembered secret disappears from any text, and nothing else in the
 * text changes. Both halves matter: the first keeps tokens out of logs and errors, the second keeps the
 * package's own advice readable (issue 9.6: a pattern once ate the word after every "token").
 */
const MASK = "[REDACTED]";

/** Secrets as the service issues them: long runs of letters, digits and dashes. */
const secret = fc.stringMatching(/^[a-z0-9-]{8,24}$/);
/** Text around secrets: anything, including pieces of the mask and of secrets. */
const filler = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(" ", "token ", "Token ", MASK, "[", "]", "-", "\n"),
);

function registry(secrets: readonly string[]): SecretRegistry {
  const r = new SecretRegistry();
  for (const s of secrets) r.remember(s);
  return r;
}

/** `parts` with secrets woven in: each secret at least once, in some order, with filler between. */
const woven = fc
  .uniqueArray(secret, { minLength: 1, maxLength: 4 })
  .chain((secrets) =>
    fc.tuple(
      fc.constant(secrets),
      fc.array(fc.oneof(filler, fc.constantFrom(...secrets)), { maxLength: 10 }),
      fc.shuffledSubarray(secrets, { minLength: secrets.length, maxLength: secrets.length }),
    ),
  )
  .map(([secrets, parts, order]) => ({ secrets, text: [...parts, ...order].join("") }));

describe("SecretRegistry.redact (property)", () => {
  it("leaves no remembered secret in any text, whatever surrounds it", () => {
    fc.assert(
      fc.property(woven, ({ secrets, text }) => {
        const out = registry(secrets).redact(text);
        for (const s of secrets) expect(out).not.toContain(s);
        expect(out).toContain(MASK);
      }),
      { numRuns: 300 },
    );
  });

  it("changes nothing in text that holds no remembered secret", () => {
    fc.assert(
      fc.property(fc.uniqueArray(secret, { maxLength: 4 }), fc.array(filler), (secrets, parts) => {
        const text = parts.join("");
        fc.pre(secrets.every((s) => !text.includes(s)));
        expect(registry(secrets).redact(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("masks each secret where it stood and keeps the words around it", () => {
    const word = fc.stringMatching(/^[A-Z ,.:]{0,10}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(secret, { minLength: 1, maxLength: 3 }),
        fc.array(word, { minLength: 4, maxLength: 4 }),
        (secrets, words) => {
          // Upper-case words and punctuation cannot run into a lower-case secret and change what matches.
          const text = words.map((w, i) => w + (secrets[i % secrets.length] ?? "")).join("");
          const expected = words.map((w) => w + MASK).join("");
          expect(registry(secrets).redact(text)).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("hides a secret that contains another one whole, in whichever order they were remembered", () => {
    fc.assert(
      fc.property(secret, secret, secret, fc.boolean(), (inner, before, after, innerFirst) => {
        const outer = before + inner + after;
        const r = registry(innerFirst ? [inner, outer] : [outer, inner]);
        expect(r.redact(`<${outer}>`)).toBe(`<${MASK}>`);
        expect(r.redact(`<${outer}|${inner}>`)).toBe(`<${MASK}|${MASK}>`);
      }),
      { numRuns: 200 },
    );
  });

  it("ignores values too short or not strings, so ordinary words are never hidden", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 7 }), fc.integer(), fc.constant(undefined), fc.constant(null)),
        fc.string(),
        (value, text) => {
          const r = registry([]);
          r.remember(value);
          const withValue = `${text}${String(value)}${text}`;
          expect(r.redact(withValue)).toBe(withValue);
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** A JSON value with secrets planted in some of its string leaves, at any depth. */
function plantedTree(secrets: readonly string[]) {
  const leaf = fc.oneof(
    fc.tuple(filler, fc.constantFrom(...secrets), filler).map(([a, s, b]) => a + s + b),
    filler,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
    tree: fc.oneof(
      { depthSize: "small", maxDepth: 4 },
      leaf,
      fc.array(tie("tree"), { maxLength: 3 }),
      fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie("tree"), { maxKeys: 3 }),
    ),
  }));
  return tree;
}

/** Every string in `value`, at any depth. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

/** `value` with every string replaced by a marker, to compare shapes. */
function shape(value: unknown): unknown {
  if (typeof value === "string") return "<string>";
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return value;
}

describe("SecretRegistry.redactValue and redactHeaders (property)", () => {
  it("hides secrets at any depth and keeps the shape and every other value", () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(secret, { minLength: 1, maxLength: 3 })
          .chain((secrets) => fc.tuple(fc.constant(secrets), plantedTree(secrets))),
        ([secrets, value]) => {
          const out = registry(secrets).redactValue(value);
          for (const s of strings(out)) for (const planted of secrets) expect(s).not.toContain(planted);
          expect(shape(out)).toEqual(shape(value));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("masks the authorization header whole, whatever its case, and redacts the others", () => {
    fc.assert(
      fc.property(
        secret,
        fc.mixedCase(fc.constant("authorization")),
        fc.string({ maxLength: 20 }),
        (s, name, value) => {
          const headers = registry([s]).redactHeaders({ [name]: value, "x-other": `a ${s} b`, plain: value });
          expect(headers[name]).toBe(MASK);
          expect(headers["x-other"]).toBe(`a ${MASK} b`);
          if (!value.includes(s)) expect(headers.plain).toBe(value);
        },
      ),
      { numRuns: 100 },
    );
  });
});
