import type { Dispatcher } from "undici";
import { z } from "zod";
import type { AcceptLanguage } from "../../contract/common-types";
import { AcceptLanguage as AcceptLanguageSchema, ApiVersionSchema, BaseUrl } from "../../contract/connection";
import { DEFAULT_BASE_URL } from "../../contract/default-base-url";
import { DEFAULT_LANGUAGE } from "../../contract/languages";
import { REQUESTS_PER_SECOND } from "../../contract/limits";
import { safeString } from "../../contract/text";
import type { ApiVersion } from "../../contract/versions";
import { rememberSecret } from "../context/process";
import { type AdviceContext, adviceFor, type SettingAdvice } from "../errors/advice";
import { ConfigurationError } from "../errors/base";
import { DEBUG_VARIABLE } from "../errors/host-echo";
import type { RateLimiter } from "./limiter";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";

/** Environment variables the client reads when an option is not given. */
export const ENV = {
  /** The API token. */
  token: "SERVICE_API_TOKEN",
  /** The API base URL; the local sandbox (`DEFAULT_BASE_URL`) when unset. */
  baseUrl: "SERVICE_BASE_URL",
  /** The API version, "2.0" (default) or "1.4". */
  apiVersion: "SERVICE_API_VERSION",
  /** Client-side requests per second per token (default 10, 0 turns the limiter off). */
  rateLimit: "SERVICE_RATE_LIMIT",
  /** Seconds one request may wait for its answer (default 30). */
  timeout: "SERVICE_TIMEOUT_SECONDS",
  /** Seconds a request may spend on retries, 429s included (default 60). */
  retryBudget: "SERVICE_RETRY_BUDGET_SECONDS",
  /**
   * Any value: print one redacted line per request to stderr, and give each failure a resource reports
   * to Pulumi its stack trace (errors/host-echo.ts).
   */
  debug: DEBUG_VARIABLE,
} as const;

/** How a ServiceClient connects. Every member is optional; see `ENV` for the environment fallbacks. */
export interface ClientOptions {
  /** The API token. Falls back to SERVICE_API_TOKEN. */
  readonly token?: string | undefined;
  /** The API base URL. Falls back to SERVICE_BASE_URL, then the local sandbox. */
  readonly baseUrl?: string | undefined;
  /** "2.0" (default) or "1.4". Falls back to SERVICE_API_VERSION. */
  readonly apiVersion?: ApiVersion | undefined;
  /** Language of the service's display strings: "en" (default) or "ja". */
  readonly acceptLanguage?: AcceptLanguage | undefined;
  /** How long one request may wait for its answer; default 30 000 (SERVICE_TIMEOUT_SECONDS). */
  readonly timeoutMs?: number | undefined;
  /** Requests per second of the default shared limiter of the token (see `limiter`); 0 turns it off. */
  readonly rateLimitPerSecond?: number | undefined;
  /** Overrides of the retry policy; `maxElapsedMs` is the retry budget (SERVICE_RETRY_BUDGET_SECONDS). */
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Receives one redacted line per attempt (SERVICE_DEBUG prints them to stderr). */
  readonly logger?: ((line: string) => void) | undefined;
  /** Jitter source in [0, 1). */
  readonly random?: (() => number) | undefined;
  /**
   * This client's clock: the time in epoch milliseconds. Its retry budget, Retry-After pauses and its
   * view of the service's clock (`serverNow`) read it. `Date.now` by default.
   */
  readonly clock?: (() => number) | undefined;
  /** How this client waits (retry backoff); resolves after `ms` milliseconds. A timer by default. */
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  /**
   * This client's transport: an undici Dispatcher (an Agent, a Pool, a MockAgent). By default the client
   * makes its own keep-alive pool on its first request.
   */
  readonly dispatcher?: Dispatcher | undefined;
  /**
   * The rate limiter this client's requests wait on. By default every client of a token shares the
   * token's limiter from `SHARED_LIMITERS` (the limit is the token's, whichever client spends it), at
   * `rateLimitPerSecond`. Pass `sharedLimiter(...)`, a limiter of your own (`new RateLimiter(perSecond,
   * clock)`) to share one differently, or null for none.
   */
  readonly limiter?: RateLimiter | null | undefined;
  /**
   * Where error messages send the reader to change a setting: `"client"` (default) names this client's
   * options and the SERVICE_* variables; `"pulumi"` names stack config and a resource's `connection`,
   * which is what the Webhook and Domain resources set.
   */
  readonly advice?: AdviceContext | undefined;
}

/** A client's settings once defaults and the environment have been applied. */
export interface ResolvedOptions {
  /** The API token (remembered as a secret, so that no message repeats it). */
  readonly token: string;
  /** The API base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** True when no option or environment variable named the base URL, so it is the local sandbox. */
  readonly baseUrlDefaulted: boolean;
  /** The version sent as `Api-Version`, which also picks each operation's route. */
  readonly apiVersion: ApiVersion;
  /** Sent as `Accept-Language`. */
  readonly acceptLanguage: AcceptLanguage;
  /** How long one attempt waits for its answer. */
  readonly timeoutMs: number;
  /** The shared limiter's rate for this token; 0 when it is off. */
  readonly rateLimitPerSecond: number;
  /** Retry attempts, backoff and the per-request budget. */
  readonly retry: RetryPolicy;
  /** Receives one redacted line per request, or undefined for none. */
  readonly logger: ((line: string) => void) | undefined;
  /** The jitter source of the backoff, a number in [0, 1). */
  readonly random: () => number;
  /** How error messages say to change each setting, for the context the client was made in. */
  readonly advice: SettingAdvice;
}

const Settings = z.object({
  token: safeString().min(1, "must not be empty"),
  baseUrl: BaseUrl,
  apiVersion: ApiVersionSchema.default("2.0"),
  acceptLanguage: AcceptLanguageSchema.default(DEFAULT_LANGUAGE),
  timeoutMs: z.number("must be a number").int("must be whole milliseconds").positive("must be positive"),
  rateLimitPerSecond: z.number("must be a number").min(0, "must be 0 (off) or more"),
  retryBudgetMs: z.number("must be a number").positive("must be positive"),
});

function pick(explicit: string | undefined, fromEnv: string | undefined): string | undefined {
  if (explicit !== undefined && explicit !== "") return explicit;
  return fromEnv === "" ? undefined : fromEnv;
}

const seconds = (value: string | undefined) => (value ? Number(value) * 1000 : undefined);

/**
 * The token and base URL a client of `options` would use, before validation: each explicit value (an
 * empty string counts as unset), else its SERVICE_* variable; the local sandbox when no base URL is set
 * anywhere. `resolveOptions` and the Webhook quota's organization key both read credentials through it.
 */
export function credentialsOf(
  options: Pick<ClientOptions, "token" | "baseUrl">,
  env: NodeJS.ProcessEnv = process.env,
): { readonly token: string | undefined; readonly baseUrl: string | undefined } {
  return { token: pick(options.token, env[ENV.token]), baseUrl: pick(options.baseUrl, env[ENV.baseUrl]) };
}

/** Explicit options first, then the SERVICE_* environment variables, then the defaults. */
export function resolveOptions(
  options: ClientOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedOptions {
  const advice = adviceFor(options.advice);
  const { token, baseUrl } = credentialsOf(options, env);
  rememberSecret(token);
  if (token === undefined) {
    throw new ConfigurationError(`No API token was given: set one with ${advice.token}.`);
  }
  const parsed = Settings.safeParse({
    token,
    baseUrl: baseUrl ?? DEFAULT_BASE_URL,
    apiVersion: pick(options.apiVersion, env[ENV.apiVersion]),
    acceptLanguage: options.acceptLanguage,
    timeoutMs: options.timeoutMs ?? seconds(env[ENV.timeout]) ?? 30_000,
    rateLimitPerSecond:
      options.rateLimitPerSecond ?? (env[ENV.rateLimit] ? Number(env[ENV.rateLimit]) : REQUESTS_PER_SECOND),
    retryBudgetMs:
      options.retry?.maxElapsedMs ?? seconds(env[ENV.retryBudget]) ?? DEFAULT_RETRY_POLICY.maxElapsedMs,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigurationError(
      `The setting ${issue.path.join(".")} ${issue.message}: correct it in ${advice.settings}.`,
    );
  }
  const { retryBudgetMs, ...settings } = parsed.data;
  return {
    ...settings,
    baseUrl: settings.baseUrl.replace(/\/+$/, ""),
    baseUrlDefaulted: baseUrl === undefined,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry, maxElapsedMs: retryBudgetMs },
    logger: options.logger ?? (env[ENV.debug] ? (line) => process.stderr.write(`${line}\n`) : undefined),
    random: options.random ?? Math.random,
    advice,
  };
}
