import type { ApiVersion } from "./versions";

/**
 * What a route of the Service API is. Each API area declares its own routes beside its methods
 * (provider/client/areas/), and the sandbox mounts its handlers from the same declarations, so a corrected
 * route is a one-line change in its area.
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

/** The route of one operation in each API generation. */
export type Versioned = Readonly<Record<ApiVersion, Route>>;

/** A route of API 1.4; a GET is safe to send again, a POST is not unless `extra` says so. */
export const v1 = (method: Route["method"], path: string, extra: Partial<Route> = {}): Route => ({
  method,
  path,
  version: "1.4",
  accepts: ["1.4"],
  retrySafe: method === "GET",
  webhooksFeature: false,
  ...extra,
});

/** A route of API 2.0; a GET is safe to send again, a POST is not unless `extra` says so. */
export const v2 = (method: Route["method"], path: string, extra: Partial<Route> = {}): Route => ({
  method,
  path,
  version: "2.0",
  accepts: ["2.0"],
  retrySafe: method === "GET",
  webhooksFeature: false,
  ...extra,
});

// The source of an inferred route is for readers of the route declarations: code and docs read only
// whether there is one.
/** An inferred route whose source is the service's public integration notes. */
// Stryker disable next-line StringLiteral: no behaviour reads the note's text
export const NOTE = "not-shown.md: public third-party integration notes";
/** An inferred v2 route that mirrors its v1 route. */
// Stryker disable next-line StringLiteral: no behaviour reads the note's text
export const MIRROR = "not-shown.md: mirrors the v1 route";
/** A search: a POST that only reads, so sending it again is harmless. */
export const readOnly = { retrySafe: true } as const;
/** The operation needs a token with webhooks enabled. */
export const hooks = { webhooksFeature: true } as const;
