import { redact } from "../context/process";
import type { FieldProblem } from "../errors/api";
import { ConfigurationError, type RequestInfo } from "../errors/base";

/**
 * A request the spec forbids, refused by the client before anything was sent: `fields` names each
 * option at fault and the rule it breaks. It is a ConfigurationError, so code that already handles those
 * handles it too; `code` is `configuration`.
 */
export class RequestValidationError extends ConfigurationError {
  /** The name `instanceof` recognises this class by, across copies of the package. */
  static override readonly kind: string = "RequestValidationError";
  /** The method of the request that was not sent. */
  readonly method: string;
  /** The route template of the request that was not sent. */
  readonly route: string;
  /** Each option at fault, by the name the caller passed it under, and the rule it breaks. */
  readonly fields: readonly FieldProblem[];

  constructor(info: RequestInfo, fields: readonly OptionProblem[]) {
    const listed = fields
      .map((f) => `${f.field}${f.wire === undefined ? "" : ` (${f.wire})`} ${f.message}`)
      .join("; ");
    super(
      `${info.method} ${info.route} was not sent: ${listed}. Correct ${fields.length === 1 ? "it" : "them"} and call again.`,
    );
    this.method = info.method;
    this.route = info.route;
    this.fields = fields.map(({ field, message }) => ({ field: redact(field), message: redact(message) }));
  }
}

/** A problem with one option of a request the client refused to send. */
export interface OptionProblem {
  /** The option, as the caller passed it, such as `uniqueUserId` or `filters[0].key`. */
  readonly field: string;
  /** The spec's name of the member, when it differs from the option's, such as `unique_user_id`. */
  readonly wire?: string | undefined;
  /** The rule it breaks, such as `must be 8 to 40 characters`. */
  readonly message: string;
}
