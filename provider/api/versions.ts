/**
 * Every difference between the two API generations that the client, the provider and the sandbox care
 * about. Nothing else in the code branches on the version string.
 */
export const API_VERSIONS = ["2.0", "1.4"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export interface VersionTraits {
  /** Path prefix of the generation's routes. */
  readonly prefix: "/v1" | "/v2";
  /** Page size rules of webhook and domain search. */
  readonly listPage: { readonly min: number; readonly max: number; readonly default: number };
  readonly secretKey: { readonly min: number; readonly max: number | undefined };
  /** Key that carries a webhook's (and a listed domain's) creation time. */
  readonly createTimeKey: "create_timestamp" | "create_time";
  /** Status the service answers for a create parameter that is invalid for the token. */
  readonly invalidCreateStatus: 400 | 403;
  /** v2 refuses endpoints with a query, fragment or `;params`; v1.4 does not say. */
  readonly endpointMustBeBare: boolean;
  /** v1.4 wants exactly one of value/values per filter; v2 takes both and uses value. */
  readonly filterValueAndValuesAllowed: boolean;
}

export const VERSION_TRAITS: Readonly<Record<ApiVersion, VersionTraits>> = {
  "2.0": {
    prefix: "/v2",
    listPage: { min: 1, max: 20, default: 20 },
    secretKey: { min: 16, max: 256 },
    createTimeKey: "create_time",
    invalidCreateStatus: 400,
    endpointMustBeBare: true,
    filterValueAndValuesAllowed: true,
  },
  "1.4": {
    prefix: "/v1",
    listPage: { min: 1, max: 25, default: 25 },
    secretKey: { min: 20, max: undefined },
    createTimeKey: "create_timestamp",
    invalidCreateStatus: 403,
    endpointMustBeBare: false,
    filterValueAndValuesAllowed: false,
  },
};

export function isApiVersion(value: unknown): value is ApiVersion {
  return (API_VERSIONS as readonly unknown[]).includes(value);
}
