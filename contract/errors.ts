/**
 * What the wire says about a refused request, besides its status (spec 7). The spec shows no body for an
 * error answer; the sandbox lists the fields at fault in the shape below, and the client reports the
 * fields of a 400, and of a request it refused before sending, in it too (provider/errors/api.ts).
 */

/** One field the service (or the client, before sending) found at fault. */
export interface FieldProblem {
  /** The field's path, such as `endpoint.value`; `(request)` when the service named none. */
  readonly field: string;
  /** What is wrong with it; redacted in an error this package throws. */
  readonly message: string;
}
