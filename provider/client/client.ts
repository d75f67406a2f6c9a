import type { z } from "zod";
import { fillPath } from "../api/path";
import { ROUTES, type RouteName, VERSIONED } from "../api/routes";
import * as Schemas from "../api/schemas";
import type { Domain, DomainRegistrationStart, StatusOk, Webhook, WebhookCreateBody } from "../api/shapes";
import { type ApiVersion, VERSION_TRAITS } from "../api/versions";
import { contextKey, processContext, rememberSecret } from "../context/process";
import { errorFromResponse } from "../errors/api";
import { ConfigurationError, type RequestInfo, type ServiceError } from "../errors/base";
import {
  AmbiguousRequestError,
  ConnectionError,
  ResponseValidationError,
  TimeoutError,
} from "../errors/transport";
import { type ClientOptions, ENV, type ResolvedOptions, resolveOptions } from "./config";
import { type RateLimiter, sharedLimiter } from "./limiter";
import { type AttemptFailure, parseRetryAfter, retryDelay } from "./retry";
import { type RawResponse, SendFailure, sendOnce } from "./transport";

/** One page of a listing. */
export interface Page<T> {
  readonly items: T[];
  /** Pass it as `cursor` for the next page; null at the end. */
  readonly nextCursor: string | null;
}

/** Which page of a listing to read. */
export interface PageRequest {
  /** Items per page, within the generation's page-size range. */
  readonly limit?: number;
  readonly cursor?: string | null;
}

interface Call<S extends z.ZodType> {
  readonly params?: Record<string, string>;
  readonly body?: unknown;
  readonly schema: S;
  /** The status this route uses for "invalid parameter" besides 400 (v1.4 create answers 403). */
  readonly invalidStatus?: number;
}

const USER_AGENT = "@service/pulumi";
const WebhookPage = Schemas.ListEnvelope(Schemas.Webhook);
const DomainPage = Schemas.ListEnvelope(Schemas.Domain);

/**
 * How far the service's clock is from this machine's, per base URL, read from the Date header of its
 * answers. Reconciling a lost create compares the service's create_time with the time of the attempt,
 * and the two clocks need not agree.
 */
const SERVER_CLOCK_OFFSETS = contextKey(
  "service clock offsets per base URL",
  () => new Map<string, number>(),
);

/**
 * The Service API client. Every request goes through `call`: credentials and version headers, the
 * shared per-token rate limiter, retries of what is safe to repeat, typed errors and redaction.
 */
export class ServiceClient {
  /** The settings in force, defaults and environment applied. */
  readonly options: ResolvedOptions;
  private readonly limiter: RateLimiter | undefined;

  constructor(options: ClientOptions = {}) {
    this.options = resolveOptions(options);
    const { baseUrl, token, rateLimitPerSecond } = this.options;
    this.limiter =
      rateLimitPerSecond > 0 ? sharedLimiter(`${baseUrl}\u0000${token}`, rateLimitPerSecond) : undefined;
  }

  /** The API generation this client speaks. */
  get apiVersion(): ApiVersion {
    return this.options.apiVersion;
  }

  /** The service's clock now, as far as its answers have shown it (this machine's clock before any answer). */
  serverNow(): number {
    const offset = processContext().get(SERVER_CLOCK_OFFSETS).get(this.options.baseUrl) ?? 0;
    return processContext().clock.now() + offset;
  }

  /** GET /v1/health: tests the credentials and the service. */
  health(): Promise<StatusOk> {
    return this.call("health", { schema: Schemas.StatusOk });
  }

  /** Creates a webhook. Never re-sent: a lost answer raises AmbiguousRequestError. */
  createWebhook(body: WebhookCreateBody): Promise<Webhook> {
    rememberSecret(body.secret_key);
    return this.call(VERSIONED.createWebhook[this.apiVersion], {
      body,
      schema: Schemas.Webhook,
      invalidStatus: VERSION_TRAITS[this.apiVersion].invalidCreateStatus,
    });
  }

  /** One active webhook of the organization; NotFoundError (403) when unknown, inactive or foreign. */
  getWebhook(webhookUuid: string): Promise<Webhook> {
    return this.call(VERSIONED.getWebhook[this.apiVersion], {
      params: { webhook_uuid: webhookUuid },
      schema: Schemas.Webhook,
    });
  }

  /** Deactivates a webhook; there is no way back. */
  async deactivateWebhook(webhookUuid: string): Promise<void> {
    await this.call(VERSIONED.deactivateWebhook[this.apiVersion], {
      params: { webhook_uuid: webhookUuid },
      schema: Schemas.StatusOk,
    });
  }

  /** One page of the organization's active webhooks. */
  async searchWebhooks(page: PageRequest = {}): Promise<Page<Webhook>> {
    const body = this.pageBody(page);
    const out = await this.call(VERSIONED.searchWebhooks[this.apiVersion], { body, schema: WebhookPage });
    return { items: out.items, nextCursor: out.next_cursor ?? null };
  }

  /** Every active webhook of the organization, page after page. */
  webhooks(page: Omit<PageRequest, "cursor"> = {}): AsyncIterable<Webhook> {
    return this.paginate((cursor) => this.searchWebhooks({ ...page, cursor }));
  }

  /** start_registration: a verifier and a register token (secret) to publish before `expiresAt`. */
  async startDomainRegistration(domainName: string): Promise<DomainRegistrationStart> {
    const start = await this.call("v2StartDomainRegistration", {
      body: { domain_name: domainName },
      schema: Schemas.DomainRegistrationStart,
    });
    rememberSecret(start.registerToken);
    return start;
  }

  /** finish_registration: the service fetches the verification URL and registers the domain. */
  finishDomainRegistration(domainName: string, verifier: string): Promise<Domain> {
    return this.call("v2FinishDomainRegistration", {
      body: { domain_name: domainName, verifier },
      schema: Schemas.Domain,
    });
  }

  /** Deactivates a domain; refused (409) while an active webhook targets it. */
  async deactivateDomain(domainUuid: string): Promise<void> {
    await this.call("v2DeactivateDomain", { params: { domain_uuid: domainUuid }, schema: Schemas.StatusOk });
  }

  /** One page of the organization's registered domains. */
  async searchDomains(page: PageRequest = {}): Promise<Page<Domain>> {
    const body = this.pageBody(page);
    const out = await this.call(VERSIONED.searchDomains[this.apiVersion], { body, schema: DomainPage });
    return { items: out.items, nextCursor: out.next_cursor ?? null };
  }

  /** Every registered domain of the organization, page after page. */
  domains(page: Omit<PageRequest, "cursor"> = {}): AsyncIterable<Domain> {
    return this.paginate((cursor) => this.searchDomains({ ...page, cursor }));
  }

  private pageBody(page: PageRequest): { limit: number; cursor: string | null } {
    const rule = VERSION_TRAITS[this.apiVersion].listPage;
    const limit = page.limit ?? rule.max;
    if (!Number.isInteger(limit) || limit < rule.min || limit > rule.max) {
      throw new ConfigurationError(
        `limit must be an integer from ${rule.min} to ${rule.max} on API ${this.apiVersion}, not ${limit}.`,
      );
    }
    return { limit, cursor: page.cursor ?? null };
  }

  private async *paginate<T>(fetchPage: (cursor: string | null) => Promise<Page<T>>): AsyncGenerator<T> {
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: Page<T> = await fetchPage(cursor);
      yield* page.items;
      cursor = page.nextCursor;
      if (cursor !== null) {
        // A cursor that comes back again would page forever.
        if (seen.has(cursor)) {
          throw new ResponseValidationError(
            { method: "POST", route: "search" },
            `the cursor ${JSON.stringify(cursor)} came back a second time, which would page forever`,
          );
        }
        seen.add(cursor);
      }
    } while (cursor !== null);
  }

  private log(line: string): void {
    this.options.logger?.(processContext().secrets.redact(line));
  }

  private async call<S extends z.ZodType>(name: RouteName, call: Call<S>): Promise<z.output<S>> {
    const route = ROUTES[name];
    const info: RequestInfo = { method: route.method, route: route.path };
    const { baseUrl, token, acceptLanguage, timeoutMs, retry, random } = this.options;
    const { clock } = processContext();
    const url = new URL(baseUrl);
    const path = url.pathname.replace(/\/+$/, "") + fillPath(route.path, call.params ?? {});
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
      const release = (await this.limiter?.acquire()) ?? (() => {});
      const attemptStart = clock.now();
      let failure: AttemptFailure;
      let error: ServiceError;
      try {
        const res = await sendOnce({
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
        if (res.status >= 200 && res.status < 300) return this.parse(info, res.text, call.schema);
        const requestId = headerValue(res.headers["x-request-id"] ?? res.headers["request-id"]);
        const answer = { ...info, status: res.status, requestId, body: parseLoose(res.text) };
        if (res.status === 429) {
          const retryAfterMs = parseRetryAfter(headerValue(res.headers["retry-after"]), clock.now());
          if (retryAfterMs !== undefined) this.limiter?.pauseUntil(clock.now() + retryAfterMs);
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

  private transportError(info: RequestInfo, failure: SendFailure, retrySafe: boolean): ServiceError {
    if (failure.sent && !retrySafe)
      return new AmbiguousRequestError(info, failure.detail, { cause: failure });
    if (failure.timedOut) return new TimeoutError(info, failure.detail, failure);
    const { baseUrl, baseUrlDefaulted } = this.options;
    const where = baseUrlDefaulted
      ? `No base URL is set (connection.baseUrl, service:baseUrl or ${ENV.baseUrl}), so it defaulted to the local sandbox at ${baseUrl}: start it with \`npm run sandbox\`, or set the service's URL with \`pulumi config set service:baseUrl https://…\`.`
      : `Check that ${baseUrl} is the right base URL and is reachable from here.`;
    return new ConnectionError(info, `${failure.detail}. ${where}`, failure);
  }

  private noteServerClock(res: RawResponse): void {
    const date = Date.parse(headerValue(res.headers.date) ?? "");
    if (Number.isNaN(date)) return;
    // The header has whole seconds; half a second is the expected error.
    const offset = date + 500 - processContext().clock.now();
    processContext().get(SERVER_CLOCK_OFFSETS).set(this.options.baseUrl, offset);
  }

  private parse<S extends z.ZodType>(info: RequestInfo, text: string, schema: S): z.output<S> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ResponseValidationError(info, "the body is not JSON");
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ResponseValidationError(info, `${issue.path.join(".") || "(body)"} ${issue.message}`);
    }
    return parsed.data;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseLoose(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
