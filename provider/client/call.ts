import type { Route } from "../../contract/routes";
import type { ApiVersion } from "../../contract/versions";
import type { RequestInfo } from "../errors/base";

/** One request, as the client's methods describe it to the client's single request pipeline. */
export interface Call<S = unknown> {
  readonly params?: Record<string, string>;
  /** Query parameters, appended in this order. */
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** Reads a 2xx response; it must tolerate keys it does not know. */
  readonly schema: S;
  /** The status this route uses for "invalid parameter" besides 400 (a v1.4 create responds 403). */
  readonly invalidStatus?: number;
}

/**
 * What each API area (areas/) gets from a ServiceClient: its API version, and its private pipeline
 * (credentials, rate limit, retries, typed errors) to send through. It names no zod type, so that the
 * client's public declarations, which show each area's constructor, never make a consumer load zod's;
 * `request` gives each call its schema's type.
 */
export interface Requester {
  readonly version: ApiVersion;
  /** Sends `call`, and resolves with its response read by `call.schema` (a zod schema). */
  send(route: Route, call: Call): Promise<unknown>;
}

/** The method and route template of a route, as errors name it. */
export function routeInfo({ method, path }: Route): RequestInfo {
  return { method, route: path };
}
