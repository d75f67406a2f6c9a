import { SETTINGS } from "../settings/table";

/**
 * When to try a request again, as one pure function. Rate limiting is a separate layer (limiter.ts);
 * this only decides whether and how long to wait after a failed attempt.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included, after 5xx answers and lost connections. 429s are bounded by time only. */
  readonly maxAttempts: number;
  /**
   * The request's retry budget: no wait may end later than this after the first attempt began. A 429 is
   * retried after its Retry-After for as long as that holds, however many attempts it takes.
   */
  readonly maxElapsedMs: number;
  /** The first backoff step; each later attempt doubles it, with jitter over its upper half. */
  readonly baseDelayMs: number;
  /** The largest backoff step. */
  readonly maxDelayMs: number;
}

/** 6 attempts, backoff from 250 ms to 8 s, and a 60 s budget per request (README, Configure). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  maxElapsedMs: SETTINGS.retryBudget.default * SETTINGS.retryBudget.option.scale,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
};

export type AttemptFailure =
  /** 429: the service did not process the request, so any request may be repeated. */
  | { readonly kind: "rate_limited"; readonly retryAfterMs: number | undefined }
  /** A 5xx answer. */
  | { readonly kind: "server"; readonly status: number }
  /** No answer. `sent` is false only when the request certainly never reached the service. */
  | { readonly kind: "network"; readonly sent: boolean };

export interface RetryInput {
  /** The attempt that just failed, from 1. */
  readonly attempt: number;
  readonly elapsedMs: number;
  readonly failure: AttemptFailure;
  /** The route may be repeated even if the failed attempt was applied. */
  readonly retrySafe: boolean;
  /** A number in [0, 1) for jitter. */
  readonly random: number;
}

/** Exponential backoff with equal jitter: never shorter than half the step, so waits keep growing. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return step / 2 + (random * step) / 2;
}

/** Milliseconds to wait before the next attempt, or undefined to give up. */
export function retryDelay(policy: RetryPolicy, input: RetryInput): number | undefined {
  const { failure } = input;
  let delay: number;
  if (failure.kind === "rate_limited") {
    delay = failure.retryAfterMs ?? backoffMs(policy, input.attempt, input.random);
  } else {
    if (input.attempt >= policy.maxAttempts) return undefined;
    const mayRepeat = input.retrySafe || (failure.kind === "network" && !failure.sent);
    if (!mayRepeat) return undefined;
    delay = backoffMs(policy, input.attempt, input.random);
  }
  return input.elapsedMs + delay > policy.maxElapsedMs ? undefined : delay;
}

/** Retry-After in seconds (or an HTTP date) as milliseconds from `nowMs`. */
export function parseRetryAfter(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
