import type { z } from "zod";
import { inEnglish } from "../../contract/issues";
import type { RequestInfo } from "../errors/base";
import { ResponseValidationError } from "../errors/transport";

/** Reading what the service answered: the one place a 2xx body is checked against its schema. */

/** A 2xx body read with the route's schema, or ResponseValidationError naming the first member at fault. */
export function parseResponse<S extends z.ZodType>(info: RequestInfo, text: string, schema: S): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ResponseValidationError(info, "the body is not JSON");
  }
  const parsed = schema.safeParse(json, { error: inEnglish });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ResponseValidationError(info, `${issue.path.join(".") || "(body)"} ${issue.message}`);
  }
  return parsed.data;
}

/** The first value of a header that may repeat. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** An error body as JSON when it is JSON, else as text: the spec does not give its shape. */
export function parseLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
