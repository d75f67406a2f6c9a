import type { z } from "zod";
import { readableIssue } from "../api/issues";
import { formatPath } from "../api/rules";
import type { RequestInfo } from "../errors/base";
import { type OptionProblem, RequestValidationError } from "./validation";

/**
 * Checks a request the client is about to send against the shared request schema of its route (the
 * rules the sandbox enforces too), naming each problem by the option the caller passed.
 */

/** A snake_case wire name as the client's options spell it: `unique_user_id` is `uniqueUserId`. */
const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * The option a wire path came from. Options are the camelCase of the wire members, except
 * `format_options.return_item_photos`, whose option is `returnItemPhotos` alone. The spec's name is kept
 * beside it when the two differ, so that the message can be matched with the spec.
 */
function optionProblem(path: readonly PropertyKey[], message: string): OptionProblem {
  const wire = formatPath(path) || "(body)";
  const option = formatPath(
    path
      .filter((part) => part !== "format_options")
      .map((part) => (typeof part === "string" ? camel(part) : part)),
  );
  return option && option !== wire ? { field: option, wire, message } : { field: wire, message };
}

/** Parses a wire body or query with the shared request schema, or throws RequestValidationError. */
export function checkRequest<S extends z.ZodType>(schema: S, value: unknown, info: RequestInfo): z.output<S> {
  const parsed = schema.safeParse(value, { error: readableIssue });
  if (parsed.success) return parsed.data;
  throw new RequestValidationError(
    info,
    parsed.error.issues.map((issue) => optionProblem(issue.path, issue.message)),
  );
}
