import type { z } from "zod";
import { readableIssue } from "../../contract/issues";
import { formatPath } from "../../contract/path";
import { programLanguage, propertyName } from "../context/program-language";
import { knownMembers } from "./unknowns";

/** A check failure as the engine receives it. */
export interface CheckFailure {
  /**
   * Always empty. The engine prints a failure that names a property as `property <name> value <value> has a
   * problem`, and formats the value with Go's `%v`, which shows a secret's plaintext; a nested path prints as
   * `<nil>`. So the field is named in `reason` instead, and the engine prints
   * `<type> resource '<name>' has a problem: <reason>`.
   */
  readonly property: "";
  /** One sentence: the field, the rule, what was given when it is safe to show, and the next step. */
  readonly reason: string;
}

/** How a resource's fields are described in its check failures. */
export interface FieldAdvice {
  /**
   * Top-level inputs whose given values a failure may quote. Anything else (a secret, a connection, a
   * URL that may carry a password) is described by its length only: the list says what is safe, so an
   * input added later is never quoted by mistake.
   */
  readonly quoted: readonly string[];
  /** The next step for a top-level input whose rule does not carry one of its own. */
  readonly nextSteps: Readonly<Record<string, string>>;
}

/** The longest given value a failure quotes in full; longer ones are cut with an ellipsis. */
const QUOTE_LIMIT = 60;

/** `(got "http://…")` for a value that may be quoted, `(got 8 characters)` for one that may not. */
function given(value: unknown, quotable: boolean): string {
  if (typeof value === "number" || typeof value === "boolean") return quotable ? ` (got ${value})` : "";
  if (typeof value !== "string") return "";
  if (!quotable) return ` (got ${value.length} character${value.length === 1 ? "" : "s"})`;
  const shown = value.length > QUOTE_LIMIT ? `${value.slice(0, QUOTE_LIMIT - 1)}…` : value;
  return ` (got ${JSON.stringify(shown)})`;
}

/**
 * A rule's words and its own next step. Rules state their fix after ": " where they have one
 * ("must use https: change the scheme to https"), so that the client and the sandbox say it too.
 */
export function splitRule(rule: string): { words: string; fix: string | undefined } {
  const at = rule.indexOf(": ");
  return at < 0 ? { words: rule, fix: undefined } : { words: rule.slice(0, at), fix: rule.slice(at + 2) };
}

/**
 * The failure for `field` (a property path of the schema, such as `filters[0].key`), which breaks `rule`, as the engine
 * will print it: `secretKey must be 16 to 256 characters on API 2.0 (got 8 characters): use a longer
 * random key, e.g. openssl rand -hex 24`.
 */
export function checkFailure(field: string, rule: string, value: unknown, advice: FieldAdvice): CheckFailure {
  const top = /^[^.[]*/.exec(field)![0];
  const { words, fix } = splitRule(rule);
  const step = fix ?? advice.nextSteps[top] ?? "correct it in the program";
  // In the program's spelling (secret_key in Python). Where the language is unknown, the schema's own
  // name, which TypeScript and YAML programs use; a failure names one field, not a list of spellings.
  const name = propertyName(field, programLanguage() ?? "nodejs");
  return { property: "", reason: `${name} ${words}${given(value, advice.quoted.includes(top))}: ${step}` };
}

/** The value at `path` inside `value`, or undefined. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const part of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/**
 * Validates the known members of a resource's inputs with a zod object schema. Members that are still
 * unknown at preview are left out of validation and passed through untouched; each failure is one sentence
 * that names the property path, the rule and the next step (see checkFailure).
 */
export function checkInputs<T extends Record<string, unknown>>(
  schema: z.ZodObject,
  news: Record<string, unknown>,
  advice: FieldAdvice,
): { inputs: T; failures: CheckFailure[] } {
  const known = knownMembers(news);
  const mask = Object.fromEntries(
    Object.keys(schema.shape)
      .filter((k) => !(k in news) || k in known)
      .map((k) => [k, true]),
  );
  const parsed = schema.pick(mask as Record<string, true>).safeParse(known, { error: readableIssue });
  if (!parsed.success) {
    return {
      inputs: news as T,
      failures: parsed.error.issues.map((issue) =>
        checkFailure(formatPath(issue.path) || "inputs", issue.message, valueAt(known, issue.path), advice),
      ),
    };
  }
  return { inputs: { ...news, ...(parsed.data as object) } as T, failures: [] };
}
