import type { z } from "zod";
import { fillPath } from "../api/path";
import { ROUTES, type RouteName, VERSIONED } from "../api/routes";
import type { WebhookCreateBody } from "../api/rules";
import { Domain, DomainRegistrationStart, ListEnvelope, StatusOk, Webhook } from "../api/schemas";
import { type ApiVersion, VERSION_TRAITS } from "../api/versions";
import { systemClock } from "./clock";
import { type ClientOptions, type ResolvedOptions, resolveOptions } from "./config";
import {
  AmbiguousRequestError,
  ConfigurationError,
  ConnectionError,
  errorFromResponse,
  ResponseValidationError,
  ServiceError,
  TimeoutError,
} from "./errors";
import { type RateLimiter, sharedLimiter } from "./limiter";
import { redact, rememberSecret } from "./redact";
import { type AttemptFailure, parseRetryAfter, retryDelay } from "./retry";
import { describeTransportFailure, isTimeout, neverSent, sendOnce } from "./transport";

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

export interface PageRequest {
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
const WebhookPage = ListEnvelope(Webhook);
const DomainPage = ListEnvelope(Domain);

/**
 * The Service API client. Every request goes through `call`: credentials and version headers, the
 * shared per-token rate limiter, retries of what is safe to repeat, typed errors and redaction.
 */
export class ServiceClient {
  readonly options: ResolvedOptions;
  private readonly limiter: RateLimiter | undefined;

  constructor(options: ClientOptions = {}) {
    this.options = resolveOptions(options);
    const { baseUrl, token, rateLimitPerSecond, clock } = this.options;
    this.limiter =
      rateLimitPerSecond > 0
        ? sharedLimiter(`${baseUrl}\u0000${token}`, rateLimitPerSecond, clock)
        : undefined;
  }

  get apiVersion(): ApiVersion {
    return this.options.apiVersion;
  }

  health(): Promise<z.output<typeof StatusOk>> {
    return this.call("health", { schema: StatusOk });
  }

  createWebhook(body: WebhookCreateBody): Promise<Webhook> {
    rememberSecret(body.secret_key);
    return this.call(VERSIONED.createWebhook[this.apiVersion], {
      body,
      schema: Webhook,
      invalidStatus: VERSION_TRAITS[this.apiVersion].invalidCreateStatus,
    });
  }

  getWebhook(webhookUuid: string): Promise<Webhook> {
    return this.call(VERSIONED.getWebhook[this.apiVersion], {
      params: { webhook_uuid: webhookUuid },
      schema: Webhook,
    });
  }

  async deactivateWebhook(webhookUuid: string): Promise<void> {
    await this.call(VERSIONED.deactivateWebhook[this.apiVersion], {
      params: { webhook_uuid: webhookUuid },
      schema: StatusOk,
    });
  }

  async searchWebhooks(page: PageRequest = {}): Promise<Page<Webhook>> {
    const body = this.pageBody(page);
    const out = await this.call(VERSIONED.searchWebhooks[this.apiVersion], { body, schema: WebhookPage });
    return { items: out.items, nextCursor: out.next_cursor ?? null };
  }

  /** Every active webhook of the organization, page after page. */
  webhooks(page: Omit<PageRequest, "cursor"> = {}): AsyncIterable<Webhook> {
    return this.paginate((cursor) => this.searchWebhooks({ ...page, cursor }));
  }

  startDomainRegistration(domainName: string): Promise<DomainRegistrationStart> {
    return this.call("v2StartDomainRegistration", {
      body: { domain_name: domainName },
      schema: DomainRegistrationStart,
    }).then((start) => {
      rememberSecret(start.registerToken);
      return start;
    });
  }

  finishDomainRegistration(domainName: string, verifier: string): Promise<Domain> {
    return this.call("v2FinishDomainRegistration", {
      body: { domain_name: domainName, verifier },
      schema: Domain,
    });
  }

  async deactivateDomain(domainUuid: string): Promise<void> {
    await this.call("v2DeactivateDomain", { params: { domain_uuid: domainUuid }, schema: StatusOk });
  }

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
        `limit must be an integer from ${rule.min} to ${rule.max} on API ${this.apiVersion}.`,
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
        if (seen.has(cursor))
          throw new ResponseValidationError({ method: "POST", route: "search" }, "cursor repeated");
        seen.add(cursor);
      }
    } while (cursor !== null);
  }

  private log(line: string): void {
    this.options.logger?.(redact(line));
  }

  private async call<S extends z.ZodType>(name: RouteName, call: Call<S>): Promise<z.output<S>> {
    const route = ROUTES[name];
    const info = { method: route.method, route: route.path };
    const { baseUrl, token, acceptLanguage, timeoutMs, retry, random } = this.options;
    const clock = this.options.clock ?? systemClock;
    const url = new URL(baseUrl);
    const basePath = url.pathname.replace(/\/+$/, "");
    const path = basePath + fillPath(route.path, call.params ?? {});
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
        }).finally(release);
        const requestId = headerValue(res.headers["x-request-id"] ?? res.headers["request-id"]);
        this.log(
          `${route.method} ${path} -> ${res.status} in ${clock.now() - attemptStart} ms (attempt ${attempt})`,
        );
        if (res.status >= 200 && res.status < 300) return this.parse(info, res.text, call.schema);
        const retryAfterMs = parseRetryAfter(headerValue(res.headers["retry-after"]), clock.now());
        error = errorFromResponse({
          ...info,
          status: res.status,
          requestId,
          body: parseLoose(res.text),
          retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
          invalidStatus: call.invalidStatus,
        });
        if (res.status === 429) {
          failure = { kind: "rate_limited", retryAfterMs };
          if (retryAfterMs !== undefined) this.limiter?.pauseUntil(clock.now() + retryAfterMs);
        } else if (res.status >= 500) {
          failure = { kind: "server", status: res.status };
          if (!route.retrySafe && res.status !== 503) {
            error = new AmbiguousRequestError(info, `the service answered ${res.status}`);
          }
        } else {
          throw error;
        }
      } catch (caught) {
        if (caught instanceof ServiceError) throw caught;
        const sent = !neverSent(caught);
        const detail = describeTransportFailure(caught);
        this.log(`${route.method} ${path} -> no answer (${detail}) (attempt ${attempt})`);
        failure = { kind: "network", sent };
        if (sent && !route.retrySafe) error = new AmbiguousRequestError(info, detail, caught);
        else if (isTimeout(caught)) error = new TimeoutError(info, detail, caught);
        else error = new ConnectionError(info, `${detail}. Is ${baseUrl} reachable?`, caught);
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

  private parse<S extends z.ZodType>(
    info: { method: string; route: string },
    text: string,
    schema: S,
  ): z.output<S> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ResponseValidationError(info, "not JSON");
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
