import type { FieldProblem } from "../contract/errors";

/**
 * The sandbox's error answer. The service's error body shape is not specified; this one keeps a code,
 * a human message and, for invalid parameters, the fields at fault.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: readonly FieldProblem[] = [],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  body(): { error: { code: string; message: string; fields?: FieldProblem[] } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fields.length > 0 ? { fields: [...this.fields] } : {}),
      },
    };
  }
}

/** 400 `invalid_parameters` (or `status`), naming the fields at fault. */
export const invalid = (message: string, fields: readonly FieldProblem[] = [], status = 400) =>
  new HttpError(status, "invalid_parameters", message, fields);
/** 403 `not_found`: the spec answers an unknown id and another organization's id alike. */
export const notFound = (what: string) =>
  new HttpError(
    403,
    "not_found",
    `${what} does not exist or does not belong to this organization; check the id, and that the token is the owning organization's`,
  );
