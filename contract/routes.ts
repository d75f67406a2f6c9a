import type { ApiVersion } from "./versions";

/**
 * The one route table. The client builds every request from it and the sandbox mounts every handler
 * from it, so a corrected route is a one-line change here.
 *
 * `inferred` marks routes that service-api.md leaves "not shown"; their source is
 * shared/spec/not-shown.md. `retrySafe` says whether a request may be sent again after a failure whose
 * outcome is unknown: a create or a state transition may already have been applied, so it never is.
 */
export interface Route {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly version: ApiVersion;
  /** Api-Version header values the route accepts. The client sends the first one. */
  readonly accepts: readonly string[];
  readonly retrySafe: boolean;
  /** The operation needs a token with webhooks enabled. */
  readonly webhooksFeature: boolean;
  readonly inferred?: string;
}

const v1 = (method: Route["method"], path: string, extra: Partial<Route> = {}): Route => ({
  method,
  path,
  version: "1.4",
  accepts: ["1.4"],
  retrySafe: method === "GET",
  webhooksFeature: false,
  ...extra,
});
const v2 = (method: Route["method"], path: string, extra: Partial<Route> = {}): Route => ({
  method,
  path,
  version: "2.0",
  accepts: ["2.0"],
  retrySafe: method === "GET",
  webhooksFeature: false,
  ...extra,
});
// The source of an inferred route is for readers of this table: code and docs read only whether there is one.
// Stryker disable next-line StringLiteral: no behaviour reads the note's text
const NOTE = "not-shown.md: public third-party integration notes";
// Stryker disable next-line StringLiteral: no behaviour reads the note's text
const MIRROR = "not-shown.md: mirrors the v1 route";
const search = { retrySafe: true } as const;
/** A POST that only reads, so sending it again is harmless. */
const readOnly = { retrySafe: true } as const;
const hooks = { webhooksFeature: true } as const;

export const ROUTES = {
  health: v1("GET", "/v1/health"),

  v1GetAuthentication: v1("GET", "/v1/authentications/{service_id}"),
  v1LookupAuthentication: v1("GET", "/v1/lookup/authentications/{lookup_value}"),
  v1SearchAuthentications: v1("POST", "/v1/search/authentications", search),
  v1GetFingerprint: v1("GET", "/v1/fingerprints/{service_id}"),
  v1SearchFingerprints: v1("POST", "/v1/search/fingerprints", search),
  v1CreateWebhook: v1("POST", "/v1/webhooks", { ...hooks, accepts: ["1.4", "1.3"] }),
  v1GetWebhook: v1("GET", "/v1/webhooks/{webhook_uuid}", hooks),
  v1DeactivateWebhook: v1("POST", "/v1/webhooks/{webhook_uuid}/deactivate", hooks),
  v1SearchWebhooks: v1("POST", "/v1/search/webhooks", { ...hooks, ...search }),
  v1SearchDomains: v1("POST", "/v1/search/domains", { ...hooks, ...search }),

  v2GetAuthentication: v2("GET", "/v2/authentications/{service_id}"),
  v2LookupAuthentication: v2("GET", "/v2/lookup/authentications/{lookup_value}"),
  v2SearchAuthentications: v2("POST", "/v2/search/authentications", search),
  v2GetFingerprint: v2("GET", "/v2/fingerprints/{service_id}", { inferred: NOTE }),
  v2SearchFingerprints: v2("POST", "/v2/search/fingerprints", { ...search, inferred: NOTE }),
  v2CreateWebhook: v2("POST", "/v2/webhooks", { ...hooks, inferred: NOTE }),
  v2GetWebhook: v2("GET", "/v2/webhooks/{webhook_uuid}", { ...hooks, inferred: MIRROR }),
  v2DeactivateWebhook: v2("POST", "/v2/webhooks/{webhook_uuid}/deactivate", hooks),
  v2SearchWebhooks: v2("POST", "/v2/search/webhooks", { ...hooks, ...search, inferred: MIRROR }),
  v2SearchDomains: v2("POST", "/v2/search/domains", { ...hooks, ...search }),
  v2StartDomainRegistration: v2("POST", "/v2/domains/start_registration", hooks),
  v2FinishDomainRegistration: v2("POST", "/v2/domains/finish_registration", hooks),
  v2DeactivateDomain: v2("POST", "/v2/domains/{domain_uuid}/deactivate", hooks),

  v2AuthorizeUser: v2("POST", "/v2/integrations/authorize-user"),
  v2CreateLoginVoucher: v2("POST", "/v2/integrations/app-login-voucher", { inferred: NOTE }),
  v2AuthenticationConfig: v2("POST", "/v2/config/authentications", { ...readOnly, inferred: NOTE }),
  v2SupportedBrands: v2("POST", "/v2/catalog/brands", { ...readOnly, inferred: NOTE }),
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof ROUTES;

/** The per-generation routes of the operations that exist in both generations. */
export const VERSIONED = {
  createWebhook: { "1.4": "v1CreateWebhook", "2.0": "v2CreateWebhook" },
  getWebhook: { "1.4": "v1GetWebhook", "2.0": "v2GetWebhook" },
  deactivateWebhook: { "1.4": "v1DeactivateWebhook", "2.0": "v2DeactivateWebhook" },
  searchWebhooks: { "1.4": "v1SearchWebhooks", "2.0": "v2SearchWebhooks" },
  searchDomains: { "1.4": "v1SearchDomains", "2.0": "v2SearchDomains" },
  getAuthentication: { "1.4": "v1GetAuthentication", "2.0": "v2GetAuthentication" },
  lookupAuthentication: { "1.4": "v1LookupAuthentication", "2.0": "v2LookupAuthentication" },
  searchAuthentications: { "1.4": "v1SearchAuthentications", "2.0": "v2SearchAuthentications" },
  getFingerprint: { "1.4": "v1GetFingerprint", "2.0": "v2GetFingerprint" },
  searchFingerprints: { "1.4": "v1SearchFingerprints", "2.0": "v2SearchFingerprints" },
} as const satisfies Record<string, Record<ApiVersion, RouteName>>;
