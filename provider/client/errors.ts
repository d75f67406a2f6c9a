import { redact, redactValue } from "./redact";

/**
 * One error hierarchy for everything the client can fail with. `instanceof` is answered by a brand in
 * the global symbol registry rather than by prototype identity: a serialized dynamic provider and the
 * program can load two copies of this module, and an error from one must still be recognised by the other.
 */
const KINDS = Symbol.for("@service/pulumi:error-kinds");

export type ErrorCode =
  | "configuration"
  | "invalid_request"
  | "authentication"
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "unavailable"
  | "server_error"
  | "unexpected_status"
  | "connection"
  | "timeout"
  | "ambiguous"
  | "invalid_response";

export interface RequestInfo {
  readonly method: string;
  /** The route template, such as `/v2/webhooks/{webhook_uuid}/deactivate`. */
  readonly route: string;
}

export class ServiceError extends Error {
  static readonly kind: string = "ServiceError";
  readonly code: ErrorCode;
  declare readonly [KINDS]: readonly string[];

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(redact(message), options);
    this.code = code;
    this.name = new.target.name;
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === "function" && "kind" in c; c = Object.getPrototypeOf(c)) {
      kinds.push((c as { kind: string }).kind);
    }
    Object.defineProperty(this, KINDS, { value: kinds, enumerable: false });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    const kinds = (value as { [KINDS]?: unknown })[KINDS];
    // `this` is the class on the right of instanceof, a subclass as often as not.
    const kind = (this as unknown as { kind: string }).kind;
    return Array.isArray(kinds) && kinds.includes(kind);
  }
}

/** No usable credentials or settings were found. */
export class ConfigurationError extends ServiceError {
  static override readonly kind: string = "ConfigurationError";
  constructor(message: string) {
    super("configuration", message);
  }
}

export interface ApiErrorFields extends RequestInfo {
  readonly status: number;
  readonly requestId?: string | undefined;
  readonly body?: unknown;
  readonly serviceMessage?: string | undefined;
}

/** The service answered with an error status. */
export class ApiError extends ServiceError {
  static override readonly kind: string = "ApiError";
  readonly status: number;
  readonly method: string;
  readonly route: string;
  readonly requestId: string | undefined;
  /** The response body, redacted. */
  readonly body: unknown;
  readonly serviceMessage: string | undefined;

  constructor(code: ErrorCode, fields: ApiErrorFields, hint: string) {
    const said = fields.serviceMessage ? `: ${fields.serviceMessage}` : "";
    const id = fields.requestId ? ` (request id ${fields.requestId})` : "";
    super(code, `${fields.method} ${fields.route} answered ${fields.status}${said}. ${hint}${id}`);
    this.status = fields.status;
    this.method = fields.method;
    this.route = fields.route;
    this.requestId = fields.requestId;
    this.body = redactValue(fields.body);
    this.serviceMessage = fields.serviceMessage === undefined ? undefined : redact(fields.serviceMessage);
  }
}

export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

export class InvalidRequestError extends ApiError {
  static override readonly kind: string = "InvalidRequestError";
  readonly fields: readonly FieldProblem[];
  constructor(fields: ApiErrorFields & { problems: readonly FieldProblem[] }) {
    const listed = fields.problems.map((p) => `${p.field} ${p.message}`).join("; ");
    super(
      "invalid_request",
      fields,
      listed ? `Invalid fields: ${listed}.` : "The service refused the request as invalid.",
    );
    this.fields = fields.problems.map((p) => ({ field: p.field, message: redact(p.message) }));
  }
}

export class AuthenticationError extends ApiError {
  static override readonly kind: string = "AuthenticationError";
  constructor(fields: ApiErrorFields) {
    super(
      "authentication",
      fields,
      "The API token is missing or was refused: set service:token (pulumi config set --secret service:token ...) or SERVICE_API_TOKEN.",
    );
  }
}

export class NotFoundError extends ApiError {
  static override readonly kind: string = "NotFoundError";
  constructor(fields: ApiErrorFields) {
    super(
      "not_found",
      fields,
      "The object does not exist or belongs to another organization; the service does not say which.",
    );
  }
}

export class ConflictError extends ApiError {
  static override readonly kind: string = "ConflictError";
  constructor(fields: ApiErrorFields) {
    super("conflict", fields, "The change conflicts with the organization's current state.");
  }
}

export class RateLimitError extends ApiError {
  static override readonly kind: string = "RateLimitError";
  readonly retryAfterSeconds: number | undefined;
  constructor(fields: ApiErrorFields & { retryAfterSeconds: number | undefined }) {
    const wait =
      fields.retryAfterSeconds === undefined
        ? ""
        : ` The service asked to wait ${fields.retryAfterSeconds} s.`;
    super("rate_limited", fields, `Rate limited, and the retry budget is spent.${wait}`);
    this.retryAfterSeconds = fields.retryAfterSeconds;
  }
}

export class UnavailableError extends ApiError {
  static override readonly kind: string = "UnavailableError";
  constructor(fields: ApiErrorFields) {
    super("unavailable", fields, "The service is temporarily unavailable; try again later.");
  }
}

export class ServerError extends ApiError {
  static override readonly kind: string = "ServerError";
  constructor(fields: ApiErrorFields) {
    super("server_error", fields, "The service failed; try again later.");
  }
}

export class UnexpectedStatusError extends ApiError {
  static override readonly kind: string = "UnexpectedStatusError";
  constructor(fields: ApiErrorFields) {
    super("unexpected_status", fields, "The client does not know what this status means here.");
  }
}

/** The request could not be completed and was certainly not applied, or was safe to repeat. */
export class TransportError extends ServiceError {
  static override readonly kind: string = "TransportError";
  readonly method: string;
  readonly route: string;
  constructor(code: "connection" | "timeout", info: RequestInfo, detail: string, cause?: unknown) {
    super(code, `${info.method} ${info.route} failed: ${detail}`, { cause });
    this.method = info.method;
    this.route = info.route;
  }
}

export class ConnectionError extends TransportError {
  static override readonly kind: string = "ConnectionError";
  constructor(info: RequestInfo, detail: string, cause?: unknown) {
    super("connection", info, detail, cause);
  }
}

export class TimeoutError extends TransportError {
  static override readonly kind: string = "TimeoutError";
  constructor(info: RequestInfo, detail: string, cause?: unknown) {
    super("timeout", info, detail, cause);
  }
}

/**
 * A request that is not safe to repeat was sent, and no answer says whether it was applied. The client
 * never re-sends it; the caller reconciles by listing what exists.
 */
export class AmbiguousRequestError extends ServiceError {
  static override readonly kind: string = "AmbiguousRequestError";
  readonly method: string;
  readonly route: string;
  constructor(info: RequestInfo, detail: string, cause?: unknown) {
    super(
      "ambiguous",
      `${info.method} ${info.route} was sent but its outcome is unknown (${detail}); it may have been applied and was not re-sent.`,
      { cause },
    );
    this.method = info.method;
    this.route = info.route;
  }
}

export class ResponseValidationError extends ServiceError {
  static override readonly kind: string = "ResponseValidationError";
  constructor(info: RequestInfo, detail: string) {
    super(
      "invalid_response",
      `${info.method} ${info.route} answered with a body the client cannot read: ${detail}`,
    );
  }
}

/** Reads whatever an error body carries, without assuming a shape (the spec does not give one). */
export function describeBody(body: unknown): { message: string | undefined; problems: FieldProblem[] } {
  if (typeof body === "string") return { message: body.trim().slice(0, 500) || undefined, problems: [] };
  if (typeof body !== "object" || body === null) return { message: undefined, problems: [] };
  const record = body as Record<string, unknown>;
  const inner = (typeof record.error === "object" && record.error !== null ? record.error : record) as Record<
    string,
    unknown
  >;
  const text = [
    inner.message,
    inner.detail,
    record.message,
    record.detail,
    typeof record.error === "string" ? record.error : undefined,
  ].find((v): v is string => typeof v === "string");
  const rawFields = inner.fields ?? inner.errors ?? record.fields ?? record.errors;
  const problems: FieldProblem[] = [];
  if (Array.isArray(rawFields)) {
    for (const f of rawFields) {
      if (typeof f === "object" && f !== null) {
        const r = f as Record<string, unknown>;
        const field = [r.field, r.path, r.param, r.name].find((v) => typeof v === "string") as
          | string
          | undefined;
        const message = [r.message, r.reason, r.detail].find((v) => typeof v === "string") as
          | string
          | undefined;
        if (field || message)
          problems.push({ field: field ?? "(request)", message: message ?? "is invalid" });
      }
    }
  } else if (typeof rawFields === "object" && rawFields !== null) {
    for (const [field, message] of Object.entries(rawFields)) {
      problems.push({ field, message: Array.isArray(message) ? message.join(", ") : String(message) });
    }
  }
  return { message: text, problems };
}

/** Maps a non-2xx answer to the error class that says what it means. */
export function errorFromResponse(
  fields: Omit<ApiErrorFields, "serviceMessage"> & {
    readonly retryAfterSeconds?: number | undefined;
    /** v1.4 answers 403 for a create parameter that is invalid for the token. */
    readonly invalidStatus?: number | undefined;
  },
): ApiError {
  const { message, problems } = describeBody(fields.body);
  const all = { ...fields, serviceMessage: message };
  if (fields.status === 400 || fields.status === fields.invalidStatus)
    return new InvalidRequestError({ ...all, problems });
  switch (fields.status) {
    case 401:
      return new AuthenticationError(all);
    case 403:
      return new NotFoundError(all);
    case 409:
      return new ConflictError(all);
    case 429:
      return new RateLimitError({ ...all, retryAfterSeconds: fields.retryAfterSeconds });
    case 503:
      return new UnavailableError(all);
    default:
      return fields.status >= 500 ? new ServerError(all) : new UnexpectedStatusError(all);
  }
}
