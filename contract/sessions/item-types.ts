/**
 * The TypeScript shapes of authentication and fingerprint items (spec sections 2.2 to 2.5 and 6), as the
 * service sends them: wire names, snake_case, so that a field path here is the same string as a search
 * filter key such as `text_fields.customer_item_id`.
 *
 * This module is deliberately free of zod (it holds the types and two type guards): the receiver's and
 * the client's published declarations re-export these types, and a consumer that compiles declarations
 * (no `skipLibCheck`) cannot always compile zod's own. The zod schemas that read these shapes live in
 * `item-answers.ts`, each checked against its interface here with `satisfies`, so the two cannot drift.
 *
 * Members the spec marks as enums (form factor, result id, mode, ...) are plain strings: the service may
 * add values without a version change (section 9). The parsers also keep keys they do not know, so a
 * snapshot stored whole keeps everything the service sent.
 */

import type { ApiVersion } from "../versions";

/** A moment as the service shows it. */
export interface ItemTimestamp {
  /** Date-time with fractional seconds and a UTC marker, localised by `Accept-Language`. */
  readonly display: string;
  /** Unix seconds, fractional. */
  readonly epoch: number;
}

/** Who owns a session. */
export interface ItemOwner {
  /** The organization the session belongs to: the caller's own (a caller sees no other). */
  readonly organization: {
    /** The organization's name; the search filter key `owner.organization.name`. */
    readonly name: string;
  };
  /** The app user who made the session. */
  readonly user: {
    /**
     * The name authorize-user returned for the user (organization name and unique_user_id); the search
     * and webhook filter key `owner.user.username`.
     */
    readonly username: string;
  };
}

/** An identifier with its localised label, such as a brand or a material. */
export interface IdAndDisplay {
  /** The stable identifier, the one to match and filter on (`properties.brand.id`, say). */
  readonly id: string;
  /** The label, in the request's Accept-Language. */
  readonly display: string;
}

/** The outcome of a session. */
export interface ItemResult {
  /** Values seen: `authentic`, `unidentified` (authentications); `registered`, `match` (fingerprints). */
  readonly id: string;
  /** Localised. */
  readonly display: string;
  /** Whether the result is final. */
  readonly final: boolean;
  /** Present only when the result is invalid. */
  readonly reason?: string;
}

/** `status` of an item in API 1.4. */
export interface ItemStatus {
  /** Allowed values are not documented; null when there is no flag. */
  readonly flag: string | null;
  /** The session's outcome, final or not yet. */
  readonly result: ItemResult;
}

/**
 * `status` of an item read with GET or search in API 2.0: four more members. The spec gives only their
 * names; they are present, whatever their shape (null when unset, in the sandbox).
 */
export interface ItemStatusV2 extends ItemStatus {
  /** Why the session was flagged, as an id. Shape not documented. */
  readonly flag_reason_id: unknown;
  /** Why the session was flagged, localised. Shape not documented. */
  readonly flag_reason_display: unknown;
  /** A message that goes with the flag. Shape not documented. */
  readonly flag_message: unknown;
  /** Retake information. Shape not documented; the one addition webhook deliveries keep. */
  readonly retake: unknown;
}

/** `status` of an item delivered by an API 2.0 webhook: the flag-reason members are left out, `retake` stays. */
export interface DeliveredStatusV2 extends ItemStatus {
  /** Retake information, as in `ItemStatusV2`. Shape not documented. */
  readonly retake: unknown;
}

/** One image of `images` when it is a list (API 2.0 with `include_images`). */
export interface ItemImageLink {
  /** `thumbnail` or `high_resolution`. */
  readonly type: string;
  /** Temporary URL. */
  readonly url: string;
}

/**
 * `images` when it is an object: region-keyed photos (`return_item_photos`), or the legacy `camera` object
 * of tokens configured with `presign_camera_url`. Region keys and the shape of their values are not
 * documented; URLs in them expire after one hour.
 */
export interface ItemPhotos {
  /** Photos by region, when the request set `return_item_photos`. */
  readonly photos?: Readonly<Record<string, unknown>>;
  /** The legacy camera object, sent without image flags to tokens configured with `presign_camera_url`. */
  readonly camera?: Readonly<Record<string, unknown>>;
}

/** `images` in either of its two shapes (spec section 2.5). Absent unless asked for or configured. */
export type ItemImages = readonly ItemImageLink[] | ItemPhotos;

/** What an authentication session is about. */
export interface AuthenticationActivity {
  /** Always `authentication`: what tells the two kinds of item apart (see `isAuthentication`). */
  readonly name: "authentication";
  /** `microscopic`, `lightbox` or `free_camera`. */
  readonly form_factor: string;
  /** Values seen: `luxury`, `deprecated`. */
  readonly product_category: string;
  /** Values seen: `bags`, `rings`. */
  readonly product_group: string;
}

/** What a fingerprint session is about. */
export interface FingerprintActivity {
  /** Always `fingerprint`: what tells the two kinds of item apart (see `isFingerprint`). */
  readonly name: "fingerprint";
  /** `register` or `compare`. */
  readonly mode: string;
  /** `microscopic`, `free_camera` or `lightbox`. */
  readonly form_factor: string;
}

/** Links to an authentication's certificate. */
export interface ItemCertificate {
  /** Shareable certificate view. */
  readonly preview: string;
  /** Certificate page. */
  readonly site: string;
}

/** The brand and material of an authenticated item. */
export interface ItemProperties {
  /** The brand; search filters take its id as `properties.brand.id`. */
  readonly brand: IdAndDisplay;
  /** The material; search filters take its id as `properties.material.id`. */
  readonly material: IdAndDisplay;
}

/** Free-text fields of an authentication. */
export interface AuthenticationTextFields {
  /** The caller's own item id (order id or SKU). */
  readonly customer_item_id: string;
  /** The item's identifier (spec 2.2 says no more); a search filter on it also needs a brand filter. */
  readonly identifier: string;
  /** Present for sneaker authentications. */
  readonly style_code?: string;
  /** Present for sneaker authentications. */
  readonly us_size?: string;
}

/** Free-text fields of a fingerprint. */
export interface FingerprintTextFields {
  /** The caller's own item id (order id or SKU). */
  readonly customer_item_id: string;
}

/** The registered fingerprint a compare session was compared with, when the caller still owns it. */
export interface FingerprintParent {
  /** The parent session's activity. */
  readonly activity: {
    /** `microscopic`, `free_camera` or `lightbox`. */
    readonly form_factor: string;
    /** The parent's mode: `register`. */
    readonly mode: string;
    /** `fingerprint`. */
    readonly name: string;
  };
  /** The parent session's id; the search filter key `fingerprint_parent.service_id`. */
  readonly service_id: string;
  /** The parent's own item id. */
  readonly text_fields: FingerprintTextFields;
  /** The parent's fingerprint GET address. */
  readonly url: string;
}

/**
 * The parent of a compare session the caller no longer owns: the service sends `{}` and a
 * `fingerprint_parent_not_authorized` warning beside the item. Test `service_id` to tell the two apart.
 */
export interface UnavailableFingerprintParent {
  /** Never present: the member that tells an unavailable parent from a `FingerprintParent`. */
  readonly service_id?: undefined;
}

/** A warning beside a permitted item some part of which is unavailable. */
export interface ItemWarning {
  /** Code seen: `fingerprint_parent_not_authorized`. */
  readonly code: string;
  /** What is unavailable and why, for people; match on `code`. */
  readonly message: string;
}

/** Members of an authentication item common to every version and to deliveries. */
export interface AuthenticationItemBase {
  /** Session id. */
  readonly service_id: string;
  /** What the session checked: form factor, product category and group. */
  readonly activity: AuthenticationActivity;
  /** Links to the authentication's certificate. */
  readonly certificate: ItemCertificate;
  /** The organization and user the session belongs to. */
  readonly owner: ItemOwner;
  /** Brand and material. */
  readonly properties: ItemProperties;
  /** The flag and the result. */
  readonly status: ItemStatus;
  /** The caller's item id and the other free-text fields. */
  readonly text_fields: AuthenticationTextFields;
  /** Present only when the request asked for images or the token is configured to send them (spec 2.5). */
  readonly images?: ItemImages;
}

/** An authentication item as GET, lookup and search return it in API 1.4. */
export interface AuthenticationItemV1 extends AuthenticationItemBase {
  /** The session's time (spec 2.2 does not say which event it marks). */
  readonly timestamp: ItemTimestamp;
}

/** An authentication item as GET, lookup and search return it in API 2.0. */
export interface AuthenticationItemV2 extends AuthenticationItemBase {
  /** The flag and the result, with the four API 2.0 additions. */
  readonly status: ItemStatusV2;
  /** The session's time (spec 2.2 does not say which event it marks). */
  readonly timestamp: ItemTimestamp;
}

/** Members of a fingerprint item common to every version and to deliveries. */
export interface FingerprintItemBase {
  /** Session id. */
  readonly service_id: string;
  /** The mode (register or compare) and the form factor. */
  readonly activity: FingerprintActivity;
  /** The organization and user the session belongs to. */
  readonly owner: ItemOwner;
  /** The flag and the result (`registered` or `match`). */
  readonly status: ItemStatus;
  /** The caller's item id. */
  readonly text_fields: FingerprintTextFields;
  /** Present only when the request asked for images or the token is configured to send them (spec 2.5). */
  readonly images?: ItemImages;
}

/** A fingerprint item as GET and search return it in API 1.4. */
export interface FingerprintItemV1 extends FingerprintItemBase {
  /** Present only on compare items. */
  readonly fingerprint_parent?: FingerprintParent | UnavailableFingerprintParent;
  /** The session's time (spec 2.3 does not say which event it marks). */
  readonly timestamp: ItemTimestamp;
}

/** A fingerprint item as GET and search return it in API 2.0. */
export interface FingerprintItemV2 extends FingerprintItemBase {
  /** Present only on compare items. */
  readonly fingerprint_parent?: FingerprintParent | UnavailableFingerprintParent;
  /** The flag and the result, with the four API 2.0 additions. */
  readonly status: ItemStatusV2;
  /** The session's time (spec 2.3 does not say which event it marks). */
  readonly timestamp: ItemTimestamp;
}

/** The counter a delivered item carries, for ordering (spec section 6). */
interface Counted {
  /** Grows with every change of the session; a receiver discards events older than the one it holds. */
  readonly update_counter: number;
}

/** An authentication delivered by an API 1.4 webhook: the search-item shape plus `update_counter`. */
export interface AuthenticationSnapshotV1 extends AuthenticationItemV1, Counted {}

/**
 * An authentication delivered by an API 2.0 webhook: no `timestamp`, and of the 2.0 status additions
 * only `retake`.
 */
export interface AuthenticationSnapshotV2 extends AuthenticationItemBase, Counted {
  /** The flag and the result, with `retake`. */
  readonly status: DeliveredStatusV2;
}

/** A fingerprint delivered by an API 1.4 webhook: never carries `fingerprint_parent`. */
export interface FingerprintSnapshotV1 extends FingerprintItemBase, Counted {
  /** The session's time, as on a search item. */
  readonly timestamp: ItemTimestamp;
}

/** A fingerprint delivered by an API 2.0 webhook: no `fingerprint_parent`, no `timestamp`, only `retake`. */
export interface FingerprintSnapshotV2 extends FingerprintItemBase, Counted {
  /** The flag and the result, with `retake`. */
  readonly status: DeliveredStatusV2;
}

/** The delivered item types of each API version. */
export interface SnapshotsByVersion {
  /** What a webhook created with API 1.4 delivers. */
  readonly "1.4": AuthenticationSnapshotV1 | FingerprintSnapshotV1;
  /** What a webhook created with API 2.0 delivers. */
  readonly "2.0": AuthenticationSnapshotV2 | FingerprintSnapshotV2;
}

/** An item delivered by a webhook of API version `V`; `activity.name` tells the two kinds apart. */
export type Snapshot<V extends ApiVersion = "2.0"> = SnapshotsByVersion[V];

/** Anything with an `activity.name`: the items above, delivered or answered; what the type guards take. */
export interface WithActivity {
  /** The session's activity, of which the guards read only `name`. */
  readonly activity: {
    /** `authentication` or `fingerprint`. */
    readonly name: string;
  };
}

/**
 * Whether `item` is an authentication. TypeScript does not narrow a union on a nested member such as
 * `item.activity.name`, so this guard does it: `if (isAuthentication(item)) item.properties.brand.id`.
 */
export function isAuthentication<T extends WithActivity>(
  item: T,
): item is Extract<
  T,
  {
    /** The activity of an authentication. */
    readonly activity: {
      /** `authentication`. */
      readonly name: "authentication";
    };
  }
> {
  return item.activity.name === "authentication";
}

/** Whether `item` is a fingerprint; the counterpart of `isAuthentication`. */
export function isFingerprint<T extends WithActivity>(
  item: T,
): item is Extract<
  T,
  {
    /** The activity of a fingerprint. */
    readonly activity: {
      /** `fingerprint`. */
      readonly name: "fingerprint";
    };
  }
> {
  return item.activity.name === "fingerprint";
}
