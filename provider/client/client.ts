import type { Dispatcher } from "undici";
import type { StatusOk } from "../../contract/common-types";
import type {
  Domain,
  DomainRegistrationStart,
  FinishDomainRegistrationBody,
  StartDomainRegistrationBody,
} from "../../contract/domains/types";
import type * as Integration from "../../contract/integrations/types";
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
} from "../../contract/sessions/types";
import type { ApiVersion } from "../../contract/versions";
import type { Webhook, WebhookCreateBody } from "../../contract/webhooks/types";
import type { Clock } from "../context/clock";
import { isUnsupportedNode, nodeTooOld } from "../context/node-version";
import { ConfigurationError } from "../errors/base";
import * as Domains from "./areas/domains";
import * as Health from "./areas/health";
import * as Webhooks from "./areas/webhooks";
import { type ClientOptions, type ResolvedOptions, resolveOptions } from "./config";
import { type RateLimiter, sharedLimiter } from "./limiter";
import type { Page, PageRequest } from "./pages";
import { RequestPipeline } from "./pipeline";
import { keepAlivePool } from "./transport";

/**
 * The session and integration areas load when first called. The provider's lifecycles, which load this
 * client in every dynamic-provider host and plugin process, call only the webhook and domain areas, and
 * the sessions' and integrations' schemas are most of what building the client's module graph costs.
 */
const sessions = () => import("./areas/sessions.js");
const integrations = () => import("./areas/integrations.js");

/** How a client waits when its options give no `sleep`. */
const sleepWithTimer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The limiter a client waits on: the one its options give (null: none), else its token's shared one at
 * `rateLimitPerSecond` (none at 0).
 */
function limiterFor(
  given: RateLimiter | null | undefined,
  settings: ResolvedOptions,
): RateLimiter | undefined {
  if (given !== undefined) return given ?? undefined;
  const { baseUrl, token, rateLimitPerSecond } = settings;
  return rateLimitPerSecond > 0
    ? sharedLimiter({ baseUrl, token, perSecond: rateLimitPerSecond })
    : undefined;
}

/**
 * The Service API client: a thin front over one module per API area (resources/), each of which sends
 * through this client's own request pipeline (credentials and version headers, its rate limiter, retries
 * of what is safe to repeat, typed errors and redaction). Every name in and out is the spec's wire name.
 * The clock, transport and limiter are the instance's own, given in its options.
 */
export class ServiceClient {
  /** The settings in force, defaults and environment applied. */
  readonly options: ResolvedOptions;
  /** What the per-area modules send through. */
  private readonly api: RequestPipeline;

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
    const clock: Clock = { now: options.clock ?? Date.now, sleep: options.sleep ?? sleepWithTimer };
    const limiter = limiterFor(options.limiter, this.options);
    let dispatcher: Dispatcher | undefined = options.dispatcher;
    this.api = new RequestPipeline({
      options: this.options,
      clock,
      limiter,
      dispatcher: () => {
        dispatcher ??= keepAlivePool();
        return dispatcher;
      },
    });
  }

  /** The API generation this client speaks. */
  get apiVersion(): ApiVersion {
    return this.options.apiVersion;
  }

  /** The service's clock now, as far as its answers have shown it (this client's clock before any answer). */
  serverNow(): number {
    return this.api.serverNow();
  }

  /** GET /v1/health: tests the credentials and the service. */
  health(): Promise<StatusOk> {
    return Health.health(this.api);
  }

  /**
   * One authentication of the organization by its session id, with the warnings the service sent
   * beside it. NotFoundError (403) when it is unknown or another organization's.
   *
   * @example const { item } = await client.getAuthentication("3f2a…", { include_images: true });
   */
  async getAuthentication(
    serviceId: string,
    options?: ImageOptions,
  ): Promise<ItemAnswer<AuthenticationItem>> {
    return (await sessions()).getSession(this.api, "authentication", serviceId, options);
  }

  /**
   * The authentication of a customer item id (your order id or SKU): on API 1.4 the first one with a
   * final result, else the latest; on API 2.0 the latest. NotFoundError (403) when there is none.
   *
   * @example const { item } = await client.lookupAuthentication("SKU-1042");
   */
  async lookupAuthentication(
    customerItemId: string,
    options?: ImageOptions,
  ): Promise<ItemAnswer<AuthenticationItem>> {
    return (await sessions()).lookupAuthentication(this.api, customerItemId, options);
  }

  /**
   * One page of authentications (at most 25), newest first. Pass the page's `next_cursor` as `cursor` for
   * the next one, or use `authentications()` to read them all.
   *
   * @example const page = await client.searchAuthentications({ filters: [{ key: "status.result.id", value: "authentic" }] });
   */
  searchAuthentications(search?: ItemSearch): Promise<ItemPage<AuthenticationItem>>;
  /** One page of the ids of the authentications a search selects. */
  searchAuthentications(search: ServiceIdSearch): Promise<ServiceIdPage>;
  /** One page of a search whose `return` is only known at run time. */
  searchAuthentications(search: SessionSearch): Promise<ItemPage<AuthenticationItem> | ServiceIdPage>;
  async searchAuthentications(
    search: SessionSearch = {},
  ): Promise<ItemPage<AuthenticationItem> | ServiceIdPage> {
    return (await sessions()).searchSessions(this.api, "authentication", search);
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
  async *authentications(search: SessionSearch = {}): AsyncIterable<AuthenticationItem | string> {
    yield* (await sessions()).iterateSessions(this.api, "authentication", search);
  }

  /**
   * One fingerprint of the organization by its session id. A compare fingerprint whose parent the
   * organization no longer owns has `fingerprint_parent: {}` and a `fingerprint_parent_not_authorized`
   * warning. NotFoundError (403) when it is unknown or another organization's.
   *
   * @example const { item, warnings } = await client.getFingerprint("9c1e…");
   */
  async getFingerprint(serviceId: string, options?: ImageOptions): Promise<ItemAnswer<FingerprintItem>> {
    return (await sessions()).getSession(this.api, "fingerprint", serviceId, options);
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
  async searchFingerprints(search: SessionSearch = {}): Promise<ItemPage<FingerprintItem> | ServiceIdPage> {
    return (await sessions()).searchSessions(this.api, "fingerprint", search);
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
  async *fingerprints(search: SessionSearch = {}): AsyncIterable<FingerprintItem | string> {
    yield* (await sessions()).iterateSessions(this.api, "fingerprint", search);
  }

  /**
   * Signs a mobile SDK's authorization request for one of your users (API 2.0, whatever the client's
   * version). Never re-sent: a lost answer raises AmbiguousRequestError; calling again for the same
   * `unique_user_id` is harmless, but the first call's names stay.
   *
   * @example const { signed_authorization_request, username } = await client.authorizeUser({ unique_user_id: "user-1042", email: "ann@example.com", sdk_authorization_request });
   */
  async authorizeUser(input: Integration.AuthorizeUserInput): Promise<Integration.AuthorizedUser> {
    return (await integrations()).authorizeUser(this.api, input);
  }

  /**
   * A login voucher for one of your users: the legacy sign-in flow (API 2.0; inferred route). Never
   * re-sent: a lost answer raises AmbiguousRequestError.
   *
   * @example const { login_voucher } = await client.createLoginVoucher({ unique_user_id: "user-1042", email: "ann@example.com" });
   */
  async createLoginVoucher(input: Integration.AppUserInput): Promise<Integration.LoginVoucher> {
    return (await integrations()).createLoginVoucher(this.api, input);
  }

  /**
   * The brand and material options available to the token, valid from `iat` to `exp` (API 2.0;
   * inferred route).
   *
   * @example const { config, exp } = await client.authenticationConfig();
   */
  async authenticationConfig(): Promise<Integration.AuthenticationConfig> {
    return (await integrations()).authenticationConfig(this.api);
  }

  /**
   * The supported brands and categories of the capture form (API 2.0; inferred route). A 503 ("temporarily
   * unavailable") is retried within the retry budget, then raises UnavailableError.
   *
   * @example const { categories } = await client.supportedBrands();
   */
  async supportedBrands(): Promise<Integration.SupportedBrands> {
    return (await integrations()).supportedBrands(this.api);
  }

  /**
   * Creates a webhook. The body is checked against the spec before it is sent (the secret_key's length
   * on this API version among the rules). Never re-sent: a lost answer raises AmbiguousRequestError.
   *
   * @example const { webhook_uuid } = await client.createWebhook({ endpoint: { type: "url", value: "https://hooks.example.com/service" }, secret_key, filters: [{ key: "activity.name", value: "authentication" }] });
   */
  createWebhook(body: WebhookCreateBody): Promise<Webhook> {
    return Webhooks.createWebhook(this.api, body);
  }

  /** One active webhook of the organization; NotFoundError (403) when unknown, inactive or foreign. */
  getWebhook(webhookUuid: string): Promise<Webhook> {
    return Webhooks.getWebhook(this.api, webhookUuid);
  }

  /** Deactivates a webhook; there is no way back. */
  deactivateWebhook(webhookUuid: string): Promise<void> {
    return Webhooks.deactivateWebhook(this.api, webhookUuid);
  }

  /** One page of the organization's active webhooks: `{items, item_count, next_cursor}`. */
  searchWebhooks(page: PageRequest = {}): Promise<Page<Webhook>> {
    return Webhooks.webhooks.search(this.api, page);
  }

  /** Every active webhook of the organization, page after page. */
  webhooks(page: Omit<PageRequest, "cursor"> = {}): AsyncIterable<Webhook> {
    return Webhooks.webhooks.iterate(this.api, page);
  }

  /**
   * start_registration: a verifier and a register token (secret) to publish before `expires_at`.
   *
   * @example const { url, register_token } = await client.startDomainRegistration({ domain_name: "hooks.example.com" });
   */
  startDomainRegistration(body: StartDomainRegistrationBody): Promise<DomainRegistrationStart> {
    return Domains.startDomainRegistration(this.api, body);
  }

  /** finish_registration: the service fetches the verification URL and registers the domain. */
  finishDomainRegistration(body: FinishDomainRegistrationBody): Promise<Domain> {
    return Domains.finishDomainRegistration(this.api, body);
  }

  /** Deactivates a domain; refused (409) while an active webhook targets it. */
  deactivateDomain(domainUuid: string): Promise<void> {
    return Domains.deactivateDomain(this.api, domainUuid);
  }

  /** One page of the organization's registered domains: `{items, item_count, next_cursor}`. */
  searchDomains(page: PageRequest = {}): Promise<Page<Domain>> {
    return Domains.domains.search(this.api, page);
  }

  /** Every registered domain of the organization, page after page. */
  domains(page: Omit<PageRequest, "cursor"> = {}): AsyncIterable<Domain> {
    return Domains.domains.iterate(this.api, page);
  }
}
