import { ServiceError } from "./base";

/**
 * A webhook delivery whose `Service-Signature` does not prove it came from the service with one of the
 * receiver's secrets. A receiver answers 401, and the service retries the delivery later, so deliveries
 * refused because of a misconfigured secret go through once it is fixed.
 */
export class InvalidSignatureError extends ServiceError {
  static override readonly kind: string = "InvalidSignatureError";
  /** Always `invalid_signature`. */
  declare readonly code: "invalid_signature";
  /** Why the signature was refused, with its likely cause. Never contains a secret or the signature. */
  readonly reason: string;

  constructor(reason: string) {
    super(
      "invalid_signature",
      `Refused a webhook delivery: ${reason}. The service retries refused deliveries, so they go through once the receiver's secrets are right.`,
    );
    this.reason = reason;
  }
}

/** Where a malformed delivery came from, as far as its body said. */
export interface MalformedDeliveryDetails {
  /** The webhook that sent it, when the body named one. */
  readonly webhookUuid?: string | undefined;
  /** What to do about it; a general hint when omitted. */
  readonly hint?: string | undefined;
  /** The error that made the body unreadable (a JSON syntax error, say), kept as the error's `cause`. */
  readonly cause?: unknown;
}

/** A message lists this many problems at most: the first few say what went wrong. */
const MAX_LISTED = 5;

/**
 * A delivery with a valid signature whose body is not a delivery this receiver can read: not JSON, not
 * the `{channel, item_count, items, webhook_uuid}` envelope, an `item_count` that does not match `items`,
 * or an item of the wrong shape. A receiver answers 400; the service retries, in vain until the receiver
 * is fixed or upgraded.
 */
export class MalformedDeliveryError extends ServiceError {
  static override readonly kind: string = "MalformedDeliveryError";
  /** Always `malformed_delivery`. */
  declare readonly code: "malformed_delivery";
  /** Each problem found, as `path: what is wrong`, such as `items[0].update_counter: expected number`. */
  readonly problems: readonly string[];
  /** The webhook that sent the delivery, when the body named one. */
  readonly webhookUuid: string | undefined;

  constructor(problems: readonly string[], details: MalformedDeliveryDetails = {}) {
    const listed = problems.slice(0, MAX_LISTED).join("; ");
    const more = problems.length > MAX_LISTED ? ` (and ${problems.length - MAX_LISTED} more)` : "";
    const from = details.webhookUuid === undefined ? "" : ` from webhook ${details.webhookUuid}`;
    const hint =
      details.hint ??
      "Its signature is valid, so the service sent it like this: check that the receiver's apiVersion is the one the webhook was created with, and upgrade @service/pulumi if the service has changed the delivery shape.";
    super("malformed_delivery", `The webhook delivery${from} cannot be read: ${listed}${more}. ${hint}`, {
      cause: details.cause,
    });
    this.problems = problems;
    this.webhookUuid = details.webhookUuid;
  }
}
