import { redact } from "../context/process";
import { type RequestInfo, requestWords, ServiceError } from "./base";

/** The request could not be completed: it certainly was not applied, or it was safe to repeat. */
export class TransportError extends ServiceError {
  static override readonly kind: string = "TransportError";
  /** The HTTP method of the request. */
  readonly method: string;
  /** The route template of the request. */
  readonly route: string;
  /** The URL the request went to, without its query. */
  readonly url: string | undefined;
  constructor(code: "connection" | "timeout", info: RequestInfo, detail: string, cause?: unknown) {
    super(code, `${requestWords(info)} failed: ${detail}`, { cause });
    this.method = info.method;
    this.route = info.route;
    this.url = info.url === undefined ? undefined : redact(info.url);
  }
}

/** No connection could be made, or it broke on a request that is safe to repeat. */
export class ConnectionError extends TransportError {
  static override readonly kind: string = "ConnectionError";
  constructor(info: RequestInfo, detail: string, cause?: unknown) {
    super("connection", info, detail, cause);
  }
}

/** No answer in time to a request that is safe to repeat. */
export class TimeoutError extends TransportError {
  static override readonly kind: string = "TimeoutError";
  constructor(info: RequestInfo, detail: string, cause?: unknown) {
    super("timeout", info, detail, cause);
  }
}

/**
 * A request that is not safe to repeat (a create or a state change) was sent, and no answer says whether
 * it was applied: a 5xx, a timeout or a lost connection. The client never re-sends it; the caller finds
 * out by listing what exists.
 */
export class AmbiguousRequestError extends ServiceError {
  static override readonly kind: string = "AmbiguousRequestError";
  /** The HTTP method of the request. */
  readonly method: string;
  /** The route template of the request. */
  readonly route: string;
  /** The URL the request went to, without its query. */
  readonly url: string | undefined;
  /** The 5xx status when the service answered; undefined when no answer came (timeout, lost connection). */
  readonly status: number | undefined;
  /** What happened to the request, such as "the service answered 503" or a socket error. */
  readonly detail: string;
  constructor(info: RequestInfo, detail: string, options: { cause?: unknown; status?: number } = {}) {
    super(
      "ambiguous",
      `${requestWords(info)} was sent but its outcome is unknown (${detail}). It may have been applied, so it was not re-sent: list what exists before sending it again.`,
      { cause: options.cause },
    );
    this.method = info.method;
    this.route = info.route;
    this.url = info.url === undefined ? undefined : redact(info.url);
    this.status = options.status;
    this.detail = redact(detail);
  }
}

/** The service answered 2xx with a body that does not have the documented shape. */
export class ResponseValidationError extends ServiceError {
  static override readonly kind: string = "ResponseValidationError";
  constructor(info: RequestInfo, detail: string) {
    super(
      "invalid_response",
      `${requestWords(info)} answered with a body the client cannot read: ${detail}. Check that the base URL points at the Service API.`,
    );
  }
}
