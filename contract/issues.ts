import { z } from "zod";

/**
 * Zod's default wording ("Invalid option: expected one of …", "Invalid input: expected object, received
 * array") as the sentences the rest of the package writes: what the field must be, after its name. Passed
 * as the `error` of a parse, it yields to the messages a schema states itself.
 */

/** What a schema expects, in words: "must be true or false", "must be an object". */
const KINDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  record: "an object",
  array: "an array",
};

/** What a value is, in words: "an array", "null", "a boolean", "a function". */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "boolean") return "a boolean";
  return KINDS[typeof value] ?? `a ${typeof value}`;
}

const listed = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

/** `at least 16 characters long`, `at most 599`, `greater than 0`: a bound in the words of its origin. */
function bound(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig>): string {
  const small = issue.code === "too_small";
  const limit = small ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  const word = small ? (inclusive ? "at least" : "greater than") : inclusive ? "at most" : "less than";
  if (issue.origin !== "string") return `must be ${word} ${limit}`;
  // What a minimum of one character refuses is the empty string: say that, not "at least 1 characters".
  if (small && inclusive && limit === 1) return "must not be empty";
  return `must be ${word} ${limit} characters long`;
}

/** zod's English wording of the issues the package does not word itself. */
const english = z.locales.en().localeError;

/**
 * zod's own English wording of an issue, as the `error` of a parse: zod's settings are shared by every copy
 * of zod in the process, and a program's `z.config(z.locales.de())` must not reach the package's messages.
 */
export function inEnglish(issue: z.core.$ZodRawIssue): string | undefined {
  const message = english(issue);
  return typeof message === "string" ? message : (message?.message ?? undefined);
}

/**
 * A readable message for a zod issue, or zod's English wording (`inEnglish`) for codes not worded here. Only the
 * codes that the schemas parsed with it (the request rules, and the sandbox's admin bodies) can raise
 * without a message of their own are worded: a type, an enum, a bound. A schema that adds another code
 * states its message itself, as every format, list-length and single-value rule of those schemas does.
 */
export function readableIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      // An integer rule broken by a number: a fraction (zod checks that it is a number first).
      if (issue.expected === "int") return "must be a whole number";
      return `must be ${KINDS[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}`;
    case "invalid_value":
      return `must be one of ${listed(issue.values)}`;
    case "too_small":
    case "too_big":
      return bound(issue);
    default:
      return inEnglish(issue);
  }
}
