import { redact, redactValue } from "../context/process";

/** The brand's key: registered, so that every copy of this module finds the same symbol. */
const KINDS = Symbol.for("@service/pulumi:error-kinds");

/** Stable codes: match on these, not on message text. */
export type ErrorCode =
  // Settings that stop a client or resource from working.
  | "configuration"
  // A request the spec forbids, refused before it was sent.
  | "request_validation"
  // The service answered with an error status.
  | "invalid_request"
  | "authentication"
  | "webhooks_not_enabled"
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "unavailable"
  | "server_error"
  | "unexpected_status"
  | "invalid_response"
  // No usable answer.
  | "connection"
  | "timeout"
  | "ambiguous"
  // What a webhook receiver refused.
  | "invalid_signature"
  | "malformed_delivery"
  // What a resource's lifecycle found.
  | LifecycleCode;

/** Codes of the failures a Webhook or Domain reports; each has a message that says what to do. */
export type LifecycleCode =
  | "quota_reached"
  | "input_refused"
  | "endpoint_domain_not_registered"
  | "adopt_not_found"
  | "adopt_mismatch"
  | "outcome_unknown"
  | "reconcile_conflict"
  | "identical_create_pending"
  | "credentials_changed"
  | "foreign_credentials"
  | "credentials_unverified"
  | "link_expired"
  | "file_not_served"
  | "verification_refused"
  | "finish_blocked"
  | "domain_in_use"
  | "domain_not_registered"
  | "import_not_found"
  | "import_unsupported";

/**
 * The root of every error this package throws. `instanceof` is answered by a brand in the global symbol
 * registry rather than by prototype identity: a serialized dynamic provider and the program can load two
 * copies of this module, and an error from one must still be recognised by the other.
 */
export class ServiceError extends Error {
  /** The name `instanceof` looks for in an error's brand; each subclass sets its own, its class name. */
  static readonly kind: string = "ServiceError";
  /** What went wrong, as a stable code: match on it rather than on the message. */
  readonly code: ErrorCode;
  /**
   * The brand: the `kind` of the error's class and of each of its ancestors.
   * @internal
   */
  declare readonly [KINDS]: readonly string[];

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(redact(message), options && { cause: redactedCause(options.cause) });
    this.code = code;
    this.name = new.target.name;
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === "function" && "kind" in c; c = Object.getPrototypeOf(c)) {
      kinds.push((c as { kind: string }).kind);
    }
    Object.defineProperty(this, KINDS, { value: kinds, enumerable: false });
  }

  /** Whether `value` carries this class's brand, whichever copy of this package created it. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    const kinds = (value as { [KINDS]?: unknown })[KINDS];
    // `this` is the class on the right of instanceof, a subclass as often as not.
    const kind = (this as unknown as { kind: string }).kind;
    return Array.isArray(kinds) && kinds.includes(kind);
  }
}

/** How deep a cause chain is followed: far enough for undici's, and never forever on a cycle. */
const MAX_CAUSE_DEPTH = 4;

/**
 * The cause an error keeps, with every secret this process has seen hidden: itself when nothing in it
 * holds one (so that callers can still inspect the original), else a plain Error copy with the redacted
 * message, stack, `code` and own members, and its own cause treated alike. util.inspect and JSON.stringify
 * print a cause with the error, so a socket error that quoted a URL must not carry a token along.
 */
function redactedCause(cause: unknown, depth = 0): unknown {
  if (!(cause instanceof Error) || cause instanceof ServiceError || depth >= MAX_CAUSE_DEPTH) {
    return cause instanceof Error ? cause : redactValue(cause);
  }
  const inner = redactedCause(cause.cause, depth + 1);
  const members = Object.fromEntries(Object.entries(cause));
  const cleanMembers = redactValue(members);
  const clean =
    inner === cause.cause &&
    redact(cause.message) === cause.message &&
    redact(cause.stack ?? "") === (cause.stack ?? "") &&
    JSON.stringify(cleanMembers) === JSON.stringify(members);
  if (clean) return cause;
  const copy = new Error(redact(cause.message), inner === undefined ? undefined : { cause: inner });
  Object.assign(copy, cleanMembers);
  copy.name = cause.name;
  copy.stack = redact(cause.stack ?? "");
  return copy;
}

/** No usable credentials or settings were found, or a value would address the wrong object. */
export class ConfigurationError extends ServiceError {
  static override readonly kind: string = "ConfigurationError";
  /** `code` is for subclasses with a meaning of their own, such as RequestValidationError. */
  constructor(message: string, code: "configuration" | "request_validation" = "configuration") {
    super(code, message);
  }
}

/** A request as errors name it: its method, its route template and, once it is sent, its URL. */
export interface RequestInfo {
  /** The HTTP method, `GET` or `POST`. */
  readonly method: string;
  /** The route template, such as `/v2/webhooks/{webhook_uuid}/deactivate`. */
  readonly route: string;
  /**
   * The URL the request went to, without its query: the base URL and the path with the object's uuid
   * (`https://api.example.com/v2/webhooks/8f0c…/deactivate`). Absent for a request refused before it was
   * sent.
   */
  readonly url?: string | undefined;
}

/**
 * A request in a message: its method and URL, which name the object and the base URL it went to; its
 * route template only when it was never sent.
 */
export const requestWords = (info: RequestInfo): string => `${info.method} ${info.url ?? info.route}`;
