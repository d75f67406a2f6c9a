/**
 * What the client's session methods take and answer (spec 2.2 to 2.5, 4.2 and 4.3), as plain TypeScript:
 * this module imports no zod, so that the client's published declarations never make a consumer's
 * compiler read zod's. The rules these requests must meet live once, as zod schemas, in requests.ts; the
 * answers are read by the schemas of answers.ts, each checked against its interface here.
 *
 * Every name, in and out, is the spec's wire name, so that a field path of an item is the same string as
 * the search filter key that selects it, and an option is the member or query parameter it is sent as.
 */
import type {
  AuthenticationItemV1,
  AuthenticationItemV2,
  FingerprintItemV1,
  FingerprintItemV2,
  ItemWarning,
} from "./item-types";

/** An authentication as GET, lookup and search return it, in the client's API version. */
export type AuthenticationItem = AuthenticationItemV1 | AuthenticationItemV2;

/** A fingerprint as GET and search return it, in the client's API version. */
export type FingerprintItem = FingerprintItemV1 | FingerprintItemV2;

/**
 * The image flags of spec 2.5. Both default to false, and `item.images` is then left out (unless the
 * token is configured with `presign_camera_url`). Image URLs expire one hour after the answer.
 *
 * - `format_options__return_item_photos`: region-keyed photos under `item.images.photos`. API 1.4 reads
 *   it for authentications only; API 2.0 for authentications and fingerprints.
 * - `include_images` (API 2.0 only): `item.images` becomes a list of `{type, url}`, `type` being
 *   `thumbnail` or `high_resolution`. It wins when both flags are set.
 *
 * These are GET and lookup's query parameters, by their spec names; a search takes the same flags as
 * body members (`SearchImageOptions`). A flag the client's API version does not read for that kind of
 * session is refused before sending, rather than silently ignored.
 */
export interface ImageOptions {
  /** Region-keyed photos under `item.images.photos`. */
  readonly format_options__return_item_photos?: boolean | undefined;
  /** API 2.0: `item.images` as a `{type, url}` list; wins over `format_options__return_item_photos`. */
  readonly include_images?: boolean | undefined;
}

/** The image flags of a search body (spec 2.5): the members `ImageOptions` describes as query parameters. */
export interface SearchImageOptions {
  /** `return_item_photos`: region-keyed photos under `item.images.photos`. */
  readonly format_options?:
    | {
        /** Region-keyed photos under `item.images.photos`. */
        readonly return_item_photos?: boolean | null | undefined;
      }
    | null
    | undefined;
  /** API 2.0: `item.images` as a `{type, url}` list; wins over `format_options.return_item_photos`. */
  readonly include_images?: boolean | null | undefined;
}

/**
 * One search filter: the sessions whose `key` field equals `value`, or any of `values`. API 1.4 takes
 * exactly one of the two; API 2.0 takes both and uses `value`.
 */
export interface SessionSearchFilter {
  /**
   * The field path, such as `text_fields.customer_item_id`. API 1.4 takes only the keys spec 4.2 lists
   * for each search; a filter on `text_fields.identifier` also needs one on `properties.brand.id`.
   */
  readonly key: string;
  /** The one value to match. */
  readonly value?: string | undefined;
  /** Values of which any one matches. */
  readonly values?: readonly string[] | undefined;
  /** When true, the matching sessions are left out instead. Default false. */
  readonly exclude?: boolean | null | undefined;
  /**
   * How text fields compare: `canonical` (the same letters and digits, in any case; the default) or
   * `verbatim` (exactly).
   */
  readonly text_fields?: "canonical" | "verbatim" | null | undefined;
}

/** Creation time bounds, Unix epoch seconds, each inclusive and optional. */
export interface SearchRange {
  /** The earliest creation time, Unix seconds; null or absent for no lower bound. */
  readonly start?: number | null | undefined;
  /** The latest creation time, Unix seconds; null or absent for no upper bound. */
  readonly end?: number | null | undefined;
}

/** What every session search takes besides the form of its answer. Every member is optional. */
export interface SearchCriteria {
  /** Every filter must match. */
  readonly filters?: readonly SessionSearchFilter[] | null | undefined;
  /** Only sessions created within this range. */
  readonly range?: SearchRange | null | undefined;
  /** Page size: default 25 and at most 25; API 2.0 caps a larger value at 25, API 1.4 refuses it. */
  readonly limit?: number | null | undefined;
  /** The `next_cursor` of the previous page; absent or null for the first page. */
  readonly cursor?: string | null | undefined;
}

/** A search that answers whole items (`return: "items"`, the default). */
export interface ItemSearch extends SearchCriteria, SearchImageOptions {
  /** `items`, the default: pages of whole items. */
  readonly return?: "items" | undefined;
}

/** A search that answers only the ids of the sessions it selects (`return: "service_ids"`). */
export interface ServiceIdSearch extends SearchCriteria {
  /** `service_ids`: pages of session ids, which iterate as strings. */
  readonly return: "service_ids";
}

/** The body of authentication or fingerprint search. */
export type SessionSearch = ItemSearch | ServiceIdSearch;

/** What GET and lookup answer: the item, and the warnings about parts of it that are unavailable. */
export interface ItemAnswer<T> {
  /** The item, with every key the service sent. */
  readonly item: T;
  /** Such as `fingerprint_parent_not_authorized`: the parent is `{}` because the caller no longer owns it. */
  readonly warnings: ItemWarning[];
}

/** One page of a search that answers items. */
export interface ItemPage<T> {
  /** The items of this page, newest first. */
  readonly items: T[];
  /** The number of items on this page, as the service counted them. */
  readonly item_count: number;
  /** Pass it as `cursor` for the next page; null on the last page. */
  readonly next_cursor: string | null;
  /** Warnings about items of this page (a fingerprint parent the caller no longer owns, say). */
  readonly warnings: ItemWarning[];
}

/** One page of a search with `return: "service_ids"`. */
export interface ServiceIdPage {
  /** The session ids of this page, newest first. */
  readonly service_ids: string[];
  /** The number of ids on this page, as the service counted them. */
  readonly service_id_count: number;
  /** Pass it as `cursor` for the next page; null on the last page. */
  readonly next_cursor: string | null;
}

/** The item type of each kind of session. */
export interface SessionItems {
  /** An authentication's item. */
  readonly authentication: AuthenticationItem;
  /** A fingerprint's item. */
  readonly fingerprint: FingerprintItem;
}
