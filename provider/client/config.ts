import { z } from "zod";
import { REQUESTS_PER_SECOND } from "../api/limits";
import { API_VERSIONS } from "../api/versions";
import type { Clock } from "./clock";
import { ConfigurationError } from "./errors";
import { rememberSecret } from "./redact";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";

/** The local sandbox (`npm run sandbox`) is the default target, so nothing reaches a real account by accident. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

export const ConnectionSettings = z.object({
  token: z.string().min(1, "must not be empty"),
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).default(DEFAULT_BASE_URL),
  apiVersion: z.enum(API_VERSIONS, "must be 2.0 or 1.4").default("2.0"),
  acceptLanguage: z.enum(["en", "ja"], "must be en or ja").default("en"),
  timeoutMs: z.number().int().positive().default(30_000),
  /** Requests per second per token; 0 turns the client-side limiter off. */
  rateLimitPerSecond: z.number().min(0).default(REQUESTS_PER_SECOND),
});
export type ConnectionSettings = z.output<typeof ConnectionSettings>;

export interface ClientOptions extends Partial<z.input<typeof ConnectionSettings>> {
  readonly retry?: Partial<RetryPolicy>;
  /** Receives one redacted line per attempt. */
  readonly logger?: (line: string) => void;
  readonly clock?: Clock;
  /** Jitter source in [0, 1). */
  readonly random?: () => number;
}

export interface ResolvedOptions extends ConnectionSettings {
  readonly retry: RetryPolicy;
  readonly logger: ((line: string) => void) | undefined;
  readonly clock: Clock | undefined;
  readonly random: () => number;
}

export const ENV = {
  token: "SERVICE_API_TOKEN",
  baseUrl: "SERVICE_BASE_URL",
  apiVersion: "SERVICE_API_VERSION",
  /** Client-side requests per second per token (default 10, 0 turns the limiter off). */
  rateLimit: "SERVICE_RATE_LIMIT",
} as const;

function pick(explicit: string | undefined, fromEnv: string | undefined): string | undefined {
  if (explicit !== undefined && explicit !== "") return explicit;
  return fromEnv === "" ? undefined : fromEnv;
}

/** Explicit options first, then SERVICE_API_TOKEN, SERVICE_BASE_URL and SERVICE_API_VERSION. */
export function resolveOptions(
  options: ClientOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): ResolvedOptions {
  const token = pick(options.token, env[ENV.token]);
  rememberSecret(token);
  if (token === undefined) {
    throw new ConfigurationError(
      `No API token: pass token, set the stack config service:token, or set ${ENV.token}.`,
    );
  }
  const parsed = ConnectionSettings.safeParse({
    ...options,
    token,
    baseUrl: pick(options.baseUrl, env[ENV.baseUrl]),
    apiVersion: pick(options.apiVersion, env[ENV.apiVersion]),
    rateLimitPerSecond:
      options.rateLimitPerSecond ?? (env[ENV.rateLimit] ? Number(env[ENV.rateLimit]) : undefined),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigurationError(`Client setting ${issue.path.join(".")} ${issue.message}.`);
  }
  return {
    ...parsed.data,
    baseUrl: parsed.data.baseUrl.replace(/\/+$/, ""),
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    logger: options.logger ?? (env.SERVICE_DEBUG ? (line) => process.stderr.write(`${line}\n`) : undefined),
    clock: options.clock,
    random: options.random ?? Math.random,
  };
}
