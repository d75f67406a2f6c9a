import type { Dispatcher } from "undici";
import { ConfigurationError } from "../errors/base";

/**
 * A keep-alive connection pool, for a client given no `dispatcher` of its own. undici is required from the
 * project's node_modules on the first request, not with this module: `pulumi preview` checks and diffs
 * without any request, and the dynamic-provider host should answer its first Check without loading an
 * HTTP stack.
 */
export function keepAlivePool(): Dispatcher {
  const { Agent } = require("undici") as typeof import("undici");
  return new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 30_000, connections: 32 });
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

export interface RawRequest {
  readonly origin: string;
  readonly path: string;
  readonly method: "GET" | "POST";
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly timeoutMs: number;
}

/** A request that got no answer, and whether it may have reached the service. */
export class SendFailure extends Error {
  constructor(
    /** False only when the request certainly never reached the service. */
    readonly sent: boolean,
    readonly timedOut: boolean,
    readonly detail: string,
    cause: unknown,
  ) {
    super(detail, { cause });
  }
}

/**
 * Sends `request` once through the dispatcher `dispatcher()` gives, and reads the whole answer.
 *
 * @throws SendFailure when no answer came; ConfigurationError when undici cannot be loaded.
 */
export async function sendOnce(dispatcher: () => Dispatcher, request: RawRequest): Promise<RawResponse> {
  let pool: Dispatcher;
  try {
    pool = dispatcher();
  } catch (error) {
    // Nothing was written, and nothing will be on a retry: the HTTP stack itself did not load. The
    // client's constructor has already refused a Node.js too old for undici, so the install is at fault,
    // not the network or the base URL.
    throw new ConfigurationError(
      `undici, the HTTP client of @service/pulumi, could not be loaded (${describe(error).split("\n")[0]}): it is missing or broken where @service/pulumi is installed. Reinstall the project's dependencies (\`npm install\`, or \`npm ci\` with a lockfile), then run the command again.`,
    );
  }
  try {
    const response = await pool.request({
      origin: request.origin,
      path: request.path,
      method: request.method,
      headers: request.headers,
      body: request.body,
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  } catch (error) {
    throw new SendFailure(!neverSent(error), isTimeout(error), describe(error), error);
  }
}

/** Failures that happen before a connection exists, so before any byte of the request was written. */
const NEVER_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
  }
  return codes;
}

/** True only when the request certainly never reached the server (no connection was made). */
export function neverSent(error: unknown): boolean {
  return codesOf(error).some((c) => NEVER_SENT.has(c));
}

export function isTimeout(error: unknown): boolean {
  return codesOf(error).some((c) => TIMEOUTS.has(c));
}

function describe(error: unknown): string {
  const codes = codesOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return codes.length > 0 ? `${codes[0]}: ${message}` : message;
}
