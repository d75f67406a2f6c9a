import type { z } from "zod";
import { readableIssue } from "../../contract/issues";
import { formatPath } from "../../contract/path";
import type { RequestInfo } from "../errors/base";
import { RequestValidationError } from "./validation";

/**
 * Checks a request the client is about to send against the shared request schema of its route (the
 * rules the sandbox enforces too), naming each problem by its wire path, which is also the option's name.
 */

/** Parses a wire body or query with the shared request schema, or throws RequestValidationError. */
export function checkRequest<S extends z.ZodType>(schema: S, value: unknown, info: RequestInfo): z.output<S> {
  const parsed = schema.safeParse(value, { error: readableIssue });
  if (parsed.success) return parsed.data;
  throw new RequestValidationError(
    info,
    parsed.error.issues.map((issue) => ({
      field: formatPath(issue.path) || "(body)",
      message: issue.message,
    })),
  );
}
