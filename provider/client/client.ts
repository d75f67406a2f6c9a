import type { z } from "zod";
import type {
  AppUserInput,
  AuthenticationConfig,
  AuthorizedUser,
  AuthorizeUserInput,
  LoginVoucher,
  SupportedBrands,
} from "../api/integration-shapes";
import { listPageBodySchema } from "../api/pages";
import { fillPath } from "../api/path";
import { ROUTES, type RouteName, VERSIONED } from "../api/routes";
import * as Schemas from "../api/schemas";
import type {
  AuthenticationItem,
  FingerprintItem,
  ImageOptions,
  ItemAnswer,
  ItemPage,
  ItemSearch,
  ServiceIdPage,
  ServiceIdSearch,
  SessionSearch,
} from "../api/session-shapes";
import type { Domain, DomainRegistrationStart, StatusOk, Webhook, WebhookCreateBody } from "../api/shapes";
import { type ApiVersion, VERSION_TRAITS } from "../api/versions";
import { contextKey, processContext, rememberSecret } from "../context/process";
import { START_SANDBOX } from "../errors/advice";
import { errorFromResponse } from "../errors/api";
import { ConfigurationError, type RequestInfo, type ServiceError } from "../errors/base";
import { AmbiguousRequestError, ConnectionError, TimeoutError } from "../errors/transport";
import { isUnsupportedNode, nodeTooOld } from "../node-version";
import { headerValue, parseAnswer, parseLoose } from "./answer";
import { type Call, type Requester, routeInfo } from "./call";
import { checkRequest } from "./check";
import { type ClientOptions, type ResolvedOptions, resolveOptions } from "./config";
import * as Integrations from "./integrations";
import { type RateLimiter, sharedLimiter } from "./limiter";
import { type Page, type PageRequest, paginate } from "./pagination";
import { type AttemptFailure, parseRetryAfter, retryDelay } from "./retry";
import * as Sessions from "./sessions";
import { type RawResponse, SendFailure, sendOnce } from "./transport";

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
  /** What the per-area modules (sessions.ts, integrations.ts) send through: this client's `call`. */
  private readonly api: Requester;

  /**
   * @throws ConfigurationError on a Node.js older than 22.19, whose HTTP stack cannot load, or when a
   * setting is missing or malformed.
   */
  constructor(options: ClientOptions = {}) {
    // At once, rather than as a connection failure at the first request.
    if (isUnsupportedNode()) {
      throw new ConfigurationError(
        `${nodeTooOld("ServiceClient")} Install Node.js 24 LTS (https://nodejs.org/en/download, or \`nvm install 24\`) and run this program with it.`,
      );
    }
    this.options = resolveOptions(options);
    const { baseUrl, token, rateLimitPerSecond } = this.options;
    this.limiter =
      rateLimitPerSecond > 0 ? sharedLimiter(`${baseUrl}\u0000${token}`, rateLimitPerSecond) : undefined;
    this.api = { version: this.options.apiVersion, send: (name, call) => this.call(name, call) };
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

  /**
   * One authentication of the organization by its session id, with the warnings the service sent
   * beside it. NotFoundError (403) when it is unknown or another organization's.
   *
   * @example const { item } = await client.getAuthentication("3f2a…", { includeImages: true });
   */
  getAuthentication(serviceId: string, options?: ImageOptions): Promise<ItemAnswer<AuthenticationItem>> {
    return Sessions.getSession(this.api, "authentication", serviceId, options);
  }

  /**
   * The authentication of a customer item id (your order id or SKU): on API 1.4 the first one with a
   * final result, else the latest; on API 2.0 the latest. NotFoundError (403) when there is none.
   *
   * @example const { item } = await client.lookupAuthentication("SKU-1042");
   */
  lookupAuthentication(
    customerItemId: string,
    options?: ImageOptions,
  ): Promise<ItemAnswer<AuthenticationItem>> {
    return Sessions.lookupAuthentication(this.api, customerItemId, options);
  }

  /**
   * One page of authentications (at most 25), newest first. Pass the page's `nextCursor` as `cursor` for
   * the next one, or use `authentications()` to read them all.
   *
   * @example const page = await client.searchAuthentications({ filters: [{ key: "status.result.id", value: "authentic" }] });
   */
  searchAuthentications(search?: ItemSearch): Promise<ItemPage<AuthenticationItem>>;
  /** One page of the ids of the authentications a search selects. */
  searchAuthentications(search: ServiceIdSearch): Promise<ServiceIdPage>;
  /** One page of a search whose `return` is only known at run time. */
  searchAuthentications(search: SessionSearch): Promise<ItemPage<AuthenticationItem> | ServiceIdPage>;
  searchAuthentications(search: SessionSearch = {}): Promise<ItemPage<AuthenticationItem> | ServiceIdPage> {
    return Sessions.searchSessions(this.api, "authentication", search);
  }

  /**
   * Every authentication a search selects, item by item, fetching one page at a time (from `cursor`
   * when given, to resume). Warnings beside the items are on the pages of `searchAuthentications`.
   *
   * @example for await (const item of client.authentications()) console.log(item.service_id);
   */
  authentications(search?: ItemSearch): AsyncIterable<AuthenticationItem>;
  /** Every id of the authentications a search selects (`return: "service_ids"`), page after page. */
  authentications(search: ServiceIdSearch): AsyncIterable<string>;
  /** Every item, or every id, of a search whose `return` is only known at run time. */
  authentications(search: SessionSearch): AsyncIterable<AuthenticationItem | string>;
  authentications(search: SessionSearch = {}): AsyncIterable<AuthenticationItem | string> {
    return Sessions.iterateSessions(this.api, "authentication", search);
  }

  /**
   * One fingerprint of the organization by its session id. A compare fingerprint whose parent the
   * organization no longer owns has `fingerprint_parent: {}` and a `fingerprint_parent_not_authorized`
   * warning. NotFoundError (403) when it is unknown or another organization's.
   *
   * @example const { item, warnings } = await client.getFingerprint("9c1e…");
   */
  getFingerprint(serviceId: string, options?: ImageOptions): Promise<ItemAnswer<FingerprintItem>> {
    return Sessions.getSession(this.api, "fingerprint", serviceId, options);
  }

  /**
   * One page of fingerprints (at most 25), newest first, with the page's warnings.
   *
   * @example const page = await client.searchFingerprints({ filters: [{ key: "activity.mode", value: "compare" }] });
   */
  searchFingerprints(search?: ItemSearch): Promise<ItemPage<FingerprintItem>>;
  /** One page of the ids of the fingerprints a search selects. */
  searchFingerprints(search: ServiceIdSearch): Promise<ServiceIdPage>;
  /** One page of a search whose `return` is only known at run time. */
  searchFingerprints(search: SessionSearch): Promise<ItemPage<FingerprintItem> | ServiceIdPage>;
  searchFingerprints(search: SessionSearch = {}): Promise<ItemPage<FingerprintItem> | ServiceIdPage> {
    return Sessions.searchSessions(this.api, "fingerprint", search);
  }

  /**
   * Every fingerprint a search selects, item by item, one page at a time (from `cursor` when given).
   *
   * @example for await (const item of client.fingerprints()) console.log(item.activity.mode);
   */
  fingerprints(search?: ItemSearch): AsyncIterable<FingerprintItem>;
  /** Every id of the fingerprints a search selects (`return: "service_ids"`), page after page. */
  fingerprints(search: ServiceIdSearch): AsyncIterable<string>;
  /** Every item, or every id, of a search whose `return` is only known at run time. */
  fingerprints(search: SessionSearch): AsyncIterable<FingerprintItem | string>;
  fingerprints(search: SessionSearch = {}): AsyncIterable<FingerprintItem | string> {
    return Sessions.iterateSessions(this.api, "fingerprint", search);
  }

  /**
   * Signs a mobile SDK's authorization request for one of your users (API 2.0, whatever the client's
   * version). Never re-sent: a lost answer raises AmbiguousRequestError; calling again for the same
   * `uniqueUserId` is harmless, but the first call's names stay.
   *
   * @example const { signedAuthorizationRequest, username } = await client.authorizeUser({ uniqueUserId: "user-1042", email: "ann@example.com", sdkAuthorizationRequest });
   */
  authorizeUser(input: AuthorizeUserInput): Promise<AuthorizedUser> {
    return Integrations.authorizeUser(this.api, input);
  }

  /**
   * A login voucher for one of your users: the legacy sign-in flow (API 2.0; inferred route). Never
   * re-sent: a lost answer raises AmbiguousRequestError.
   *
   * @example const { loginVoucher } = await client.createLoginVoucher({ uniqueUserId: "user-1042", email: "ann@example.com" });
   */
  createLoginVoucher(input: AppUserInput): Promise<LoginVoucher> {
    return Integrations.createLoginVoucher(this.api, input);
  }

  /**
   * The brand and material options available to the token, valid from `iat` to `exp` (API 2.0;
   * inferred route).
   *
   * @example const { config, exp } = await client.authenticationConfig();
   */
  authenticationConfig(): Promise<AuthenticationConfig> {
    return Integrations.authenticationConfig(this.api);
  }

  /**
   * The supported brands and categories of the capture form (API 2.0; inferred route). A 503 ("temporarily
   * unavailable") is retried within the retry budget, then raises UnavailableError.
   *
   * @example const { categories } = await client.supportedBrands();
   */
  supportedBrands(): Promise<SupportedBrands> {
    return Integrations.supportedBrands(this.api);
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
    const name = VERSIONED.searchWebhooks[this.apiVersion];
    const out = await this.call(name, { body: this.pageBody(name, page), schema: WebhookPage });
    return { items: out.items, nextCursor: out.next_cursor ?? null };
  }

  /** Every active webhook of the organization, page after page. */
  webhooks(page: Omit<PageRequest, "cursor"> = {}): AsyncIterable<Webhook> {
    const info = routeInfo(VERSIONED.searchWebhooks[this.apiVersion]);
    return paginate(info, null, (cursor) => this.searchWebhooks({ ...page, cursor }));
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
    const name = VERSIONED.searchDomains[this.apiVersion];
    const out = await this.call(name, { body: this.pageBody(name, page), schema: DomainPage });
    return { items: out.items, nextCursor: out.next_cursor ?? null };
  }

  /** Every registered domain of the organization, page after page. */
  domains(page: Omit<PageRequest, "cursor"> = {}): AsyncIterable<Domain> {
    const info = routeInfo(VERSIONED.searchDomains[this.apiVersion]);
    return paginate(info, null, (cursor) => this.searchDomains({ ...page, cursor }));
  }

  /** A webhook or domain search body, checked with the shared page rule of the route's generation. */
  private pageBody(name: RouteName, page: PageRequest) {
    return checkRequest(listPageBodySchema(this.apiVersion), page, routeInfo(name));
  }

  private log(line: string): void {
    this.options.logger?.(processContext().secrets.redact(line));
  }

  private async call<S extends z.ZodType>(name: RouteName, call: Call<S>): Promise<z.output<S>> {
    const route = ROUTES[name];
    const info = routeInfo(name);
    const { baseUrl, token, acceptLanguage, timeoutMs, retry, random } = this.options;
    const { clock } = processContext();
    const url = new URL(baseUrl);
    const query = new URLSearchParams(call.query).toString();
    const path = `${url.pathname.replace(/\/+$/, "")}${fillPath(route.path, call.params ?? {})}${query ? `?${query}` : ""}`;
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
        if (res.status >= 200 && res.status < 300) return parseAnswer(info, res.text, call.schema);
        const requestId = headerValue(res.headers["x-request-id"] ?? res.headers["request-id"]);
        const answer = {
          ...info,
          status: res.status,
          requestId,
          body: parseLoose(res.text),
          advice: this.options.advice,
        };
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
    const { baseUrl, baseUrlDefaulted, advice, timeoutMs } = this.options;
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
    const offset = date + 500 - processContext().clock.now();
    processContext().get(SERVER_CLOCK_OFFSETS).set(this.options.baseUrl, offset);
  }
}
