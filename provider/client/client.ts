import type { Dispatcher } from "undici";
import type { StatusOk } from "../../contract/common-types";
import { StatusOk as StatusOkSchema } from "../../contract/responses";
import type { ApiVersion } from "../../contract/versions";
import type { Clock } from "../context/clock";
import { isUnsupportedNode, nodeTooOld } from "../context/node-version";
import { ConfigurationError } from "../errors/base";
import { Domains } from "./areas/domains";
import { Integrations } from "./areas/integrations";
import { Authentications, Fingerprints } from "./areas/sessions";
import { Webhooks } from "./areas/webhooks";
import { type ClientOptions, type ResolvedOptions, resolveOptions } from "./config";
import { type RateLimiter, sharedLimiter } from "./limiter";
import { RequestPipeline } from "./pipeline";
import { HEALTH_ROUTE } from "./routes";
import { keepAlivePool } from "./transport";

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
 * The Service API client: one object per API area (`client.webhooks`, `client.domains`,
 * `client.authentications`, `client.fingerprints`, `client.integrations`), each of which sends through
 * this client's own request pipeline (credentials and version headers, its rate limiter, retries of what
 * is safe to repeat, typed errors and redaction). Every name in and out is the spec's wire name. The
 * clock, transport and limiter are the instance's own, given in its options.
 */
export class ServiceClient {
  /** The settings in force, defaults and environment applied. */
  readonly options: ResolvedOptions;
  /** The organization's webhooks: create, retrieve, deactivate, list and iterate. */
  readonly webhooks: Webhooks;
  /** The organization's webhook domains: startRegistration, finishRegistration, deactivate, list and iterate. */
  readonly domains: Domains;
  /** The organization's authentications: retrieve, lookup, list and iterate. */
  readonly authentications: Authentications;
  /** The organization's fingerprints: retrieve, list and iterate. */
  readonly fingerprints: Fingerprints;
  /** The SDK integrations (API 2.0): authorizeUser, createLoginVoucher, authenticationConfig, supportedBrands. */
  readonly integrations: Integrations;
  /** What every area sends through. */
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
    this.webhooks = new Webhooks(this.api);
    this.domains = new Domains(this.api);
    this.authentications = new Authentications(this.api);
    this.fingerprints = new Fingerprints(this.api);
    this.integrations = new Integrations(this.api);
  }

  /** The API generation this client speaks. */
  get apiVersion(): ApiVersion {
    return this.options.apiVersion;
  }

  /** The service's clock now, as far as its responses have shown it (this client's clock before any response). */
  serverNow(): number {
    return this.api.serverNow();
  }

  /** GET /v1/health: tests the credentials and the service. */
  health(): Promise<StatusOk> {
    return this.api.send(HEALTH_ROUTE, { schema: StatusOkSchema });
  }
}
