import type { Dispatcher } from "undici";
import type { z } from "zod";
import { fillPath } from "../../contract/path";
import type { Route } from "../../contract/routes";
import type { Clock } from "../context/clock";
import { redact } from "../context/process";
import { START_SANDBOX } from "../errors/advice";
import { errorFromResponse } from "../errors/api";
import { ConfigurationError, type RequestInfo, type ServiceError } from "../errors/base";
import { AmbiguousRequestError, ConnectionError, TimeoutError } from "../errors/transport";
import { type Call, type Requester, routeInfo } from "./call";
import type { ResolvedOptions } from "./config";
import type { RateLimiter } from "./limiter";
import { headerValue, parseLoose, parseResponse } from "./response";
import { type AttemptFailure, parseRetryAfter, retryDelay } from "./retry";
import { type RawResponse, SendFailure, sendOnce } from "./transport";

const USER_AGENT = "@service/pulumi";

/** A path parameter the contract refuses (an id that would address another object) is the caller's to fix. */
const refusePath = (problem: string) => new ConfigurationError(problem);

/** What one client's pipeline is made of; each piece belongs to that client alone, unless shared on purpose. */
export interface PipelineParts {
  /** The client's settings. */
  readonly options: ResolvedOptions;
  /** The client's clock: every wait, budget and timestamp of its requests. */
  readonly clock: Clock;
  /** The limiter its requests wait on, or undefined for none. */
  readonly limiter: RateLimiter | undefined;
  /** Its transport, made on the first request. */
  readonly dispatcher: () => Dispatcher;
}

/**
 * The one request pipeline every API area sends through: credentials and version headers, the
 * limiter, retries of what is safe to repeat, typed errors and redaction. It also keeps how far the
 * service's clock is from this client's, read from the Date header of its answers: reconciling a lost
 * create compares the service's create_time with the time of the attempt, and the two clocks need not agree.
 */
export class RequestPipeline implements Requester {
  readonly version;
  private serverOffsetMs = 0;

  constructor(private readonly parts: PipelineParts) {
    this.version = parts.options.apiVersion;
  }

  /** The service's clock now, as far as its responses have shown it (this client's clock before any response). */
  serverNow(): number {
    return this.parts.clock.now() + this.serverOffsetMs;
  }

  async send<S extends z.ZodType>(route: Route, call: Call<S>): Promise<z.output<S>> {
    const { options, clock, limiter } = this.parts;
    const { baseUrl, token, acceptLanguage, timeoutMs, retry, random } = options;
    const url = new URL(baseUrl);
    const query = new URLSearchParams(call.query).toString();
    const routePath = `${url.pathname.replace(/\/+$/, "")}${fillPath(route.path, call.params ?? {}, refusePath)}`;
    const path = `${routePath}${query ? `?${query}` : ""}`;
    const info = { ...routeInfo(route), url: `${url.origin}${routePath}` };
    const headers = {
      authorization: `Token ${token}`,
      "api-version": route.accepts[0]!,
      "accept-language": acceptLanguage,
      "content-type": "application/json",
      "user-agent": USER_AGENT,
    };
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const started = clock.now();

    for (let attempt = 1; ; attempt++) {
      const release = (await limiter?.acquire()) ?? (() => {});
      const attemptStart = clock.now();
      let failure: AttemptFailure;
      let error: ServiceError;
      try {
        const res = await sendOnce(this.parts.dispatcher, {
          origin: url.origin,
          path,
          method: route.method,
          headers,
          body,
          timeoutMs,
        });
        this.noteServerClock(res);
        this.log(
          `${route.method} ${path} -> ${res.status} in ${clock.now() - attemptStart} ms (attempt ${attempt})`,
        );
        if (res.status >= 200 && res.status < 300) return parseResponse(info, res.text, call.schema);
        const requestId = headerValue(res.headers["x-request-id"] ?? res.headers["request-id"]);
        const answer = {
          ...info,
          status: res.status,
          requestId,
          body: parseLoose(res.text),
          advice: options.advice,
        };
        if (res.status === 429) {
          const retryAfterMs = parseRetryAfter(headerValue(res.headers["retry-after"]), clock.now());
          if (retryAfterMs !== undefined) limiter?.pauseUntil(clock.now() + retryAfterMs);
          failure = { kind: "rate_limited", retryAfterMs };
          error = errorFromResponse({
            ...answer,
            retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
            retryAt: retryAfterMs === undefined ? undefined : new Date(clock.now() + retryAfterMs),
            budgetSeconds: retry.maxElapsedMs / 1000,
          });
        } else if (res.status >= 500) {
          failure = { kind: "server", status: res.status };
          // A state change that failed on the service's side may still have been applied.
          error = route.retrySafe
            ? errorFromResponse(answer)
            : new AmbiguousRequestError(info, `the service answered ${res.status}`, { status: res.status });
        } else {
          throw errorFromResponse({ ...answer, invalidStatus: call.invalidStatus });
        }
      } catch (caught) {
        if (!(caught instanceof SendFailure)) throw caught;
        this.log(`${route.method} ${path} -> no answer (${caught.detail}) (attempt ${attempt})`);
        failure = { kind: "network", sent: caught.sent };
        error = this.transportError(info, caught, route.retrySafe);
      } finally {
        release();
      }
      const delay = retryDelay(retry, {
        attempt,
        elapsedMs: clock.now() - started,
        failure,
        retrySafe: route.retrySafe,
        random: random(),
      });
      if (delay === undefined) throw error;
      this.log(`${route.method} ${path}: retrying in ${Math.round(delay)} ms`);
      await clock.sleep(delay);
    }
  }

  private log(line: string): void {
    this.parts.options.logger?.(redact(line));
  }

  private transportError(info: RequestInfo, failure: SendFailure, retrySafe: boolean): ServiceError {
    if (failure.sent && !retrySafe)
      return new AmbiguousRequestError(info, failure.detail, { cause: failure });
    const { baseUrl, baseUrlDefaulted, advice, timeoutMs } = this.parts.options;
    if (failure.timedOut) {
      return new TimeoutError(
        info,
        `${failure.detail}. No answer came within ${timeoutMs} ms, and the retries are spent: try again later, or allow longer with ${advice.timeout}.`,
        failure,
      );
    }
    const where = baseUrlDefaulted
      ? `No base URL was given, so it defaulted to the local sandbox at ${baseUrl}: start the sandbox with ${START_SANDBOX}, or give the service's URL with ${advice.baseUrl}.`
      : `Check that ${baseUrl} is the right base URL and is reachable from here, or give another with ${advice.baseUrl}.`;
    return new ConnectionError(info, `${failure.detail}. ${where}`, failure);
  }

  private noteServerClock(res: RawResponse): void {
    const date = Date.parse(headerValue(res.headers.date) ?? "");
    if (Number.isNaN(date)) return;
    // The header has whole seconds; half a second is the expected error.
    this.serverOffsetMs = date + 500 - this.parts.clock.now();
  }
}
