import type { FieldProblem } from "../../contract/errors";
import { redact } from "../context/process";
import { ConfigurationError, type RequestInfo } from "../errors/base";

/**
 * A request the spec forbids, refused by the client before anything was sent: `fields` names each
 * member at fault and the rule it breaks. It is a ConfigurationError, so code that already handles those
 * handles it too, but its `code` is its own: `request_validation`.
 */
export class RequestValidationError extends ConfigurationError {
  /** The name `instanceof` recognises this class by, across copies of the package. */
  static override readonly kind: string = "RequestValidationError";
  /** The method of the request that was not sent. */
  readonly method: string;
  /** The route template of the request that was not sent. */
  readonly route: string;
  /** Each member at fault, by its spec name, and the rule it breaks. */
  readonly fields: readonly FieldProblem[];

  constructor(info: RequestInfo, fields: readonly OptionProblem[]) {
    const listed = fields.map((f) => `${f.field} ${f.message}`).join("; ");
    super(
      `${info.method} ${info.route} was not sent: ${listed}. Correct ${fields.length === 1 ? "it" : "them"} and call again.`,
      "request_validation",
    );
    this.method = info.method;
    this.route = info.route;
    this.fields = fields.map(({ field, message }) => ({ field: redact(field), message: redact(message) }));
  }
}

/** A problem with one option of a request the client refused to send. */
export interface OptionProblem {
  /** The member by its spec name, such as `unique_user_id` or `filters[0].key`. */
  readonly field: string;
  /** The rule it breaks, such as `must be 8 to 40 characters`. */
  readonly message: string;
}
