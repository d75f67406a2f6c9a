import type { z } from "zod";

/**
 * Zod's default wording ("Invalid option: expected one of …", "Invalid input: expected object, received
 * array") as the sentences the rest of the package writes: what the field must be, after its name. Passed
 * as the `error` of a parse, it yields to the messages a schema states itself.
 */

const KINDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  null: "null",
};

/** What a value is, in words: "an array", "null", "a number". */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return KINDS[typeof value] ?? typeof value;
}

const listed = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

/** `at least 16 characters`, `at most 20 items`, `greater than 0`: a bound in the words of its origin. */
function bound(issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig>): string {
  const small = issue.code === "too_small";
  const limit = small ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  const word = small ? (inclusive ? "at least" : "greater than") : inclusive ? "at most" : "less than";
  if (issue.origin === "string") return `must be ${word} ${limit} characters long`;
  if (issue.origin === "array" || issue.origin === "set") return `must have ${word} ${limit} items`;
  return `must be ${word} ${limit}`;
}

/** A readable message for a zod issue, or undefined to keep zod's own for codes not worded here. */
export function readableIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${KINDS[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${listed(issue.values)}`
        : `must be one of ${listed(issue.values)}`;
    case "too_small":
    case "too_big":
      return bound(issue);
    case "unrecognized_keys":
      return `has ${issue.keys.length === 1 ? "an unknown member" : "unknown members"}: ${issue.keys.join(", ")}`;
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    case "invalid_union":
      return "does not match any of the shapes this field takes";
    default:
      return undefined;
  }
}
