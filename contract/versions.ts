import type { SessionKind } from "./kinds";

/**
 * Every difference between the two API generations that the client, the provider and the sandbox care
 * about. Nothing else in the code branches on the version string: code asks a trait here, and paths
 * come from the route table.
 */
export const API_VERSIONS = ["2.0", "1.4"] as const;

/** An `Api-Version` the package speaks: `2.0` (the `/v2` routes) or `1.4` (the `/v1` routes). */
export type ApiVersion = (typeof API_VERSIONS)[number];

/** The page size rules of one kind of search. */
export interface PageRule {
  readonly min: number;
  readonly max: number;
  /** The page size when the body sends none (or null). */
  readonly default: number;
  /** What a limit above `max` gets: a 400, or a page of `max` items. Below `min` is always a 400. */
  readonly aboveMax: "reject" | "cap";
}

/** An image flag of spec 2.5, by its search-body name. */
export type ImageFlag = "return_item_photos" | "include_images";

/** The traits of one API generation; see `VERSION_TRAITS`. */
export interface VersionTraits {
  /** Page size rules of webhook and domain search. */
  readonly listPage: PageRule;
  /** Page size rules of authentication and fingerprint search. */
  readonly searchPage: PageRule;
  readonly secretKey: { readonly min: number; readonly max: number | undefined };
  /** Key that carries a webhook's (and a listed domain's) creation time. */
  readonly createTimeKey: "create_timestamp" | "create_time";
  /** Status the service answers for a create parameter that is invalid for the token. */
  readonly invalidCreateStatus: 400 | 403;
  /** v2 refuses endpoints with a query, fragment or `;params`; v1.4 does not say. */
  readonly endpointMustBeBare: boolean;
  /** v1.4 wants exactly one of value/values per filter; v2 takes both and uses value. */
  readonly filterValueAndValuesAllowed: boolean;
  /** A webhook resource carries `format_options` (v2 only, spec 2.6). */
  readonly webhookFormatOptions: boolean;
  /** `status` members that GET and search items of this generation leave out (spec 2.4). */
  readonly itemStatusOmits: readonly string[];
  /** What a webhook delivery item leaves out beyond the search item (spec 6). */
  readonly deliveryOmits: { readonly timestamp: boolean; readonly status: readonly string[] };
  /**
   * Which authentication a lookup by customer item id returns: v1.4 the first one with a final result
   * (else the latest), v2 the latest.
   */
  readonly lookupPrefersFinal: boolean;
  /** v1.4 search takes only the filter keys spec 4.2 lists per search; v2's keys are not shown. */
  readonly restrictsSearchFilterKeys: boolean;
  /** The image flags (spec 2.5) GET and search of each kind of session read. */
  readonly imageFlags: Readonly<Record<SessionKind, readonly ImageFlag[]>>;
}

const V2_STATUS_FLAG_REASON = ["flag_reason_id", "flag_reason_display", "flag_message"] as const;

/** The traits of each generation. */
export const VERSION_TRAITS: Readonly<Record<ApiVersion, VersionTraits>> = {
  "2.0": {
    listPage: { min: 1, max: 20, default: 20, aboveMax: "reject" },
    searchPage: { min: 1, max: 25, default: 25, aboveMax: "cap" },
    secretKey: { min: 16, max: 256 },
    createTimeKey: "create_time",
    invalidCreateStatus: 400,
    endpointMustBeBare: true,
    filterValueAndValuesAllowed: true,
    webhookFormatOptions: true,
    itemStatusOmits: [],
    deliveryOmits: { timestamp: true, status: V2_STATUS_FLAG_REASON },
    lookupPrefersFinal: false,
    restrictsSearchFilterKeys: false,
    imageFlags: {
      authentication: ["return_item_photos", "include_images"],
      fingerprint: ["return_item_photos", "include_images"],
    },
  },
  "1.4": {
    listPage: { min: 1, max: 25, default: 25, aboveMax: "reject" },
    searchPage: { min: 1, max: 25, default: 25, aboveMax: "reject" },
    secretKey: { min: 20, max: undefined },
    createTimeKey: "create_timestamp",
    invalidCreateStatus: 403,
    endpointMustBeBare: false,
    filterValueAndValuesAllowed: false,
    webhookFormatOptions: false,
    itemStatusOmits: [...V2_STATUS_FLAG_REASON, "retake"],
    deliveryOmits: { timestamp: false, status: [] },
    lookupPrefersFinal: true,
    restrictsSearchFilterKeys: true,
    imageFlags: { authentication: ["return_item_photos"], fingerprint: [] },
  },
};

/** Whether `value` is an API version the package speaks. */
export function isApiVersion(value: unknown): value is ApiVersion {
  return (API_VERSIONS as readonly unknown[]).includes(value);
}
