import type { FieldProblem } from "../../contract/errors";
import { redact, redactValue } from "../context/process";
import { adviceFor, type SettingAdvice } from "./advice";
import { type ErrorCode, type RequestInfo, requestWords, ServiceError } from "./base";

/** What an error answer carried, besides its status. */
export interface ApiErrorFields extends RequestInfo {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The answer's `X-Request-Id` (or `Request-Id`) header, to quote to the service's support. */
  readonly requestId?: string | undefined;
  /** The answer's body: parsed JSON, or the text when it is not JSON. */
  readonly body?: unknown;
  /** The service's own explanation, when its body carried one. */
  readonly serviceMessage?: string | undefined;
  /** How to change the settings the message names; a plain client's options when omitted. */
  readonly advice?: SettingAdvice | undefined;
}

/** How to change the settings an error names: the fields' advice, else a plain client's. */
const settingsOf = (fields: ApiErrorFields): SettingAdvice => fields.advice ?? adviceFor("client");

/** Words a message and the service's explanation may share without one restating the other. */
const RESTATEMENT_WORDS = 4;

/** The lower-cased words of `text`, punctuation dropped. */
const words = (text: string) => text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];

/**
 * Whether `said` restates part of `hint`: they share a run of RESTATEMENT_WORDS words. The sandbox, and a
 * service that explains itself, often say what the hint says ("does not exist or ..."); printed
 * together, the cause would be stated twice.
 */
function restates(said: string, hint: string): boolean {
  const runs = new Set<string>();
  const ours = words(hint);
  for (let i = 0; i + RESTATEMENT_WORDS <= ours.length; i++)
    runs.add(ours.slice(i, i + RESTATEMENT_WORDS).join(" "));
  const theirs = words(said);
  for (let i = 0; i + RESTATEMENT_WORDS <= theirs.length; i++) {
    if (runs.has(theirs.slice(i, i + RESTATEMENT_WORDS).join(" "))) return true;
  }
  return false;
}

/** The service answered with an error status. */
export class ApiError extends ServiceError {
  static override readonly kind: string = "ApiError";
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The HTTP method of the request. */
  readonly method: string;
  /** The route template, such as `/v2/webhooks/{webhook_uuid}/deactivate`. */
  readonly route: string;
  /** The URL the request went to, without its query; absent when it was never sent. */
  readonly url: string | undefined;
  /** The answer's request id, when it carried one: quote it to the service's support. */
  readonly requestId: string | undefined;
  /** The response body, redacted. */
  readonly body: unknown;
  /** The service's own explanation, redacted, when its body carried one. */
  readonly serviceMessage: string | undefined;

  constructor(code: ErrorCode, fields: ApiErrorFields, hint: string) {
    const said =
      fields.serviceMessage && !restates(fields.serviceMessage, hint) ? `: ${fields.serviceMessage}` : "";
    const id = fields.requestId ? ` (request id ${fields.requestId})` : "";
    super(code, `${requestWords(fields)} answered ${fields.status}${said}. ${hint}${id}`);
    this.status = fields.status;
    this.method = fields.method;
    this.route = fields.route;
    this.url = fields.url === undefined ? undefined : redact(fields.url);
    // The answer's headers are the server's to fill: a request id is shown, so it is redacted like the body.
    this.requestId = fields.requestId === undefined ? undefined : redact(fields.requestId);
    this.body = redactValue(fields.body);
    this.serviceMessage = fields.serviceMessage === undefined ? undefined : redact(fields.serviceMessage);
  }
}

/** 400 (and v1.4 create's 403): the request broke a rule; `fields` says which. */
export class InvalidRequestError extends ApiError {
  static override readonly kind: string = "InvalidRequestError";
  /** The fields at fault, as far as the body said; empty when it named none. */
  readonly fields: readonly FieldProblem[];
  constructor(fields: ApiErrorFields & { problems: readonly FieldProblem[] }) {
    const listed = fields.problems.map((p) => `${p.field} ${p.message}`).join("; ");
    super(
      "invalid_request",
      fields,
      listed
        ? `Invalid fields: ${listed}. Correct them and send the request again.`
        : "The service refused the request as invalid; correct it and send it again.",
    );
    this.fields = fields.problems.map((p) => ({ field: p.field, message: redact(p.message) }));
  }
}

/** 401: the token is missing or refused. */
export class AuthenticationError extends ApiError {
  static override readonly kind: string = "AuthenticationError";
  constructor(fields: ApiErrorFields) {
    super(
      "authentication",
      fields,
      `The API token is missing or was refused: give a valid one with ${settingsOf(fields).token}.`,
    );
  }
}

/** 403 to a webhook or domain operation: the token does not have webhooks enabled. */
export class WebhooksNotEnabledError extends ApiError {
  static override readonly kind: string = "WebhooksNotEnabledError";
  constructor(fields: ApiErrorFields) {
    super(
      "webhooks_not_enabled",
      fields,
      `Webhooks and webhook domains need an API token with webhooks enabled, which is off by default: have it enabled for this token in the partner account, or give a token that has it with ${settingsOf(fields).token}.`,
    );
  }
}

/**
 * A refused token's error with its next step worded by `advice`: the same answer, for when where it
 * surfaced changes what to do (a destroy on the credentials saved in state, see context/saved-state.ts).
 */
export function readvised(
  error: AuthenticationError | WebhooksNotEnabledError,
  advice: SettingAdvice,
): AuthenticationError | WebhooksNotEnabledError {
  const fields: ApiErrorFields = {
    method: error.method,
    route: error.route,
    status: error.status,
    requestId: error.requestId,
    body: error.body,
    serviceMessage: error.serviceMessage,
    advice,
  };
  return error instanceof WebhooksNotEnabledError
    ? new WebhooksNotEnabledError(fields)
    : new AuthenticationError(fields);
}

/** 403: the object does not exist or belongs to another organization (the service does not say which). */
export class NotFoundError extends ApiError {
  static override readonly kind: string = "NotFoundError";
  constructor(fields: ApiErrorFields) {
    super(
      "not_found",
      fields,
      "The object does not exist or belongs to another organization (the service does not say which): check the id and that the token belongs to the organization that owns it.",
    );
  }
}

/** 409: the quota of active webhooks, or a domain that active webhooks still target. */
export class ConflictError extends ApiError {
  static override readonly kind: string = "ConflictError";
  constructor(fields: ApiErrorFields) {
    super(
      "conflict",
      fields,
      "The change conflicts with the organization's current state (10 active webhooks already, or a domain that active webhooks still target): list them and remove what is in the way.",
    );
  }
}

/** 429 past the retry budget, or a Retry-After longer than what is left of it. */
export class RateLimitError extends ApiError {
  static override readonly kind: string = "RateLimitError";
  /** What the service's Retry-After asked for, in seconds. */
  readonly retryAfterSeconds: number | undefined;
  /** When the service said a new attempt may succeed, if it said. */
  readonly retryAt: Date | undefined;
  constructor(
    fields: ApiErrorFields & {
      retryAfterSeconds: number | undefined;
      retryAt?: Date | undefined;
      budgetSeconds?: number | undefined;
    },
  ) {
    const budget = fields.budgetSeconds === undefined ? "" : ` of ${fields.budgetSeconds} s`;
    const when = fields.retryAt
      ? `try again after ${fields.retryAt.toISOString()} (the service asked to wait ${fields.retryAfterSeconds} s)`
      : "try again in a minute";
    super(
      "rate_limited",
      fields,
      `Rate limited, and waiting longer would exceed this request's retry budget${budget}: ${when}, or raise the budget with ${settingsOf(fields).retryBudget}.`,
    );
    this.retryAfterSeconds = fields.retryAfterSeconds;
    this.retryAt = fields.retryAt;
  }
}

/** 503 on a request that is safe to repeat, once retries are spent. */
export class UnavailableError extends ApiError {
  static override readonly kind: string = "UnavailableError";
  constructor(fields: ApiErrorFields) {
    super(
      "unavailable",
      fields,
      "The service is temporarily unavailable and retries are spent; try again later.",
    );
  }
}

/** Another 5xx on a request that is safe to repeat, once retries are spent. */
export class ServerError extends ApiError {
  static override readonly kind: string = "ServerError";
  constructor(fields: ApiErrorFields) {
    super("server_error", fields, "The service failed and retries are spent; try again later.");
  }
}

/** A status the client has no meaning for. */
export class UnexpectedStatusError extends ApiError {
  static override readonly kind: string = "UnexpectedStatusError";
  constructor(fields: ApiErrorFields) {
    super(
      "unexpected_status",
      fields,
      "The client does not know what this status means here; check that the base URL points at the Service API.",
    );
  }
}

/** Reads whatever an error body carries, without assuming a shape (the spec does not give one). */
export function describeBody(body: unknown): {
  /** The explanation, from `message`, `detail` or `error` (a text body's first 500 characters). */
  message: string | undefined;
  /** The fields at fault, from `fields` or `errors`, as a list or an object keyed by field. */
  problems: FieldProblem[];
  /** The error code, when the body carried one. */
  code: string | undefined;
} {
  if (typeof body === "string") {
    return { message: body.trim().slice(0, 500) || undefined, problems: [], code: undefined };
  }
  if (typeof body !== "object" || body === null) return { message: undefined, problems: [], code: undefined };
  const record = body as Record<string, unknown>;
  const inner = (typeof record.error === "object" && record.error !== null ? record.error : record) as Record<
    string,
    unknown
  >;
  return {
    message: firstString(
      inner.message,
      inner.detail,
      record.message,
      record.detail,
      typeof record.error === "string" ? record.error : undefined,
    ),
    problems: fieldProblems(inner.fields ?? inner.errors ?? record.fields ?? record.errors),
    code: firstString(inner.code, record.code),
  };
}

const firstString = (...values: unknown[]) => values.find((v): v is string => typeof v === "string");

function fieldProblems(raw: unknown): FieldProblem[] {
  if (Array.isArray(raw)) {
    return raw.flatMap((f) => {
      if (typeof f !== "object" || f === null) return [];
      const r = f as Record<string, unknown>;
      const field = firstString(r.field, r.path, r.param, r.name);
      const message = firstString(r.message, r.reason, r.detail);
      return field || message ? [{ field: field ?? "(request)", message: message ?? "is invalid" }] : [];
    });
  }
  if (typeof raw === "object" && raw !== null) {
    return Object.entries(raw).map(([field, message]) => ({
      field,
      message: Array.isArray(message) ? message.join(", ") : String(message),
    }));
  }
  return [];
}

/** Maps a non-2xx answer to the error class that says what it means. */
export function errorFromResponse(
  fields: Omit<ApiErrorFields, "serviceMessage"> & {
    readonly retryAfterSeconds?: number | undefined;
    readonly retryAt?: Date | undefined;
    readonly budgetSeconds?: number | undefined;
    /** v1.4 answers 403 for a create parameter that is invalid for the token. */
    readonly invalidStatus?: number | undefined;
  },
): ApiError {
  const { message, problems, code } = describeBody(fields.body);
  const all = { ...fields, serviceMessage: message };
  // The spec says a token without webhooks "is refused with a message saying so", not with which status;
  // checked first, since v1.4's create also answers 403 for invalid parameters.
  const webhooksOff =
    code === "webhooks_not_enabled" ||
    /webhooks? (are |is )?not enabled|webhooks enabled/i.test(message ?? "");
  if (webhooksOff && fields.status === 403) return new WebhooksNotEnabledError(all);
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
