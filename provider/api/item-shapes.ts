/**
 * The TypeScript shapes of authentication and fingerprint items (spec sections 2.2 to 2.5 and 6), as the
 * service sends them: wire names, snake_case, so that a field path here is the same string as a search
 * filter key such as `text_fields.customer_item_id`.
 *
 * This module is deliberately free of zod (it holds the types and two type guards): the receiver's and
 * the client's published declarations re-export these types, and a consumer that compiles declarations
 * (no `skipLibCheck`) cannot always compile zod's own. The zod schemas that read these shapes live in
 * `items.ts`, each checked against its interface here with `satisfies`, so the two cannot drift.
 *
 * Members the spec marks as enums (form factor, result id, mode, ...) are plain strings: the service may
 * add values without a version change (section 9). The parsers also keep keys they do not know, so a
 * snapshot stored whole keeps everything the service sent.
 */

import type { ApiVersion } from "./versions";

/** A moment as the service shows it. */
export interface ItemTimestamp {
  /** Date-time with fractional seconds and a UTC marker, localised by `Accept-Language`. */
  readonly display: string;
  /** Unix seconds, fractional. */
  readonly epoch: number;
}

/** Who owns a session. */
export interface ItemOwner {
  readonly organization: { readonly name: string };
  readonly user: { readonly username: string };
}

/** An identifier with its localised label, such as a brand or a material. */
export interface IdAndDisplay {
  readonly id: string;
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
  readonly result: ItemResult;
}

/**
 * `status` of an item read with GET or search in API 2.0: four more members. The spec gives only their
 * names; they are present, whatever their shape (null when unset, in the sandbox).
 */
export interface ItemStatusV2 extends ItemStatus {
  readonly flag_reason_id: unknown;
  readonly flag_reason_display: unknown;
  readonly flag_message: unknown;
  readonly retake: unknown;
}

/** `status` of an item delivered by an API 2.0 webhook: the flag-reason members are left out, `retake` stays. */
export interface DeliveredStatusV2 extends ItemStatus {
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
  readonly photos?: Readonly<Record<string, unknown>>;
  readonly camera?: Readonly<Record<string, unknown>>;
}

/** `images` in either of its two shapes (spec section 2.5). Absent unless asked for or configured. */
export type ItemImages = readonly ItemImageLink[] | ItemPhotos;

/** What an authentication session is about. */
export interface AuthenticationActivity {
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
  readonly brand: IdAndDisplay;
  readonly material: IdAndDisplay;
}

/** Free-text fields of an authentication. */
export interface AuthenticationTextFields {
  /** The caller's own item id (order id or SKU). */
  readonly customer_item_id: string;
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
  readonly activity: {
    readonly form_factor: string;
    readonly mode: string;
    readonly name: string;
  };
  readonly service_id: string;
  readonly text_fields: FingerprintTextFields;
  /** The parent's fingerprint GET address. */
  readonly url: string;
}

/**
 * The parent of a compare session the caller no longer owns: the service sends `{}` and a
 * `fingerprint_parent_not_authorized` warning beside the item. Test `service_id` to tell the two apart.
 */
export interface UnavailableFingerprintParent {
  readonly service_id?: undefined;
}

/** A warning beside a permitted item some part of which is unavailable. */
export interface ItemWarning {
  /** Code seen: `fingerprint_parent_not_authorized`. */
  readonly code: string;
  readonly message: string;
}

/** Members of an authentication item common to every version and to deliveries. */
export interface AuthenticationItemBase {
  /** Session id. */
  readonly service_id: string;
  readonly activity: AuthenticationActivity;
  readonly certificate: ItemCertificate;
  readonly owner: ItemOwner;
  readonly properties: ItemProperties;
  readonly status: ItemStatus;
  readonly text_fields: AuthenticationTextFields;
  readonly images?: ItemImages;
}

/** An authentication item as GET, lookup and search return it in API 1.4. */
export interface AuthenticationItemV1 extends AuthenticationItemBase {
  readonly timestamp: ItemTimestamp;
}

/** An authentication item as GET, lookup and search return it in API 2.0. */
export interface AuthenticationItemV2 extends AuthenticationItemBase {
  readonly status: ItemStatusV2;
  readonly timestamp: ItemTimestamp;
}

/** Members of a fingerprint item common to every version and to deliveries. */
export interface FingerprintItemBase {
  readonly service_id: string;
  readonly activity: FingerprintActivity;
  readonly owner: ItemOwner;
  readonly status: ItemStatus;
  readonly text_fields: FingerprintTextFields;
  readonly images?: ItemImages;
}

/** A fingerprint item as GET and search return it in API 1.4. */
export interface FingerprintItemV1 extends FingerprintItemBase {
  /** Present only on compare items. */
  readonly fingerprint_parent?: FingerprintParent | UnavailableFingerprintParent;
  readonly timestamp: ItemTimestamp;
}

/** A fingerprint item as GET and search return it in API 2.0. */
export interface FingerprintItemV2 extends FingerprintItemBase {
  /** Present only on compare items. */
  readonly fingerprint_parent?: FingerprintParent | UnavailableFingerprintParent;
  readonly status: ItemStatusV2;
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
  readonly status: DeliveredStatusV2;
}

/** A fingerprint delivered by an API 1.4 webhook: never carries `fingerprint_parent`. */
export interface FingerprintSnapshotV1 extends FingerprintItemBase, Counted {
  readonly timestamp: ItemTimestamp;
}

/** A fingerprint delivered by an API 2.0 webhook: no `fingerprint_parent`, no `timestamp`, only `retake`. */
export interface FingerprintSnapshotV2 extends FingerprintItemBase, Counted {
  readonly status: DeliveredStatusV2;
}

/** The delivered item types of each API version. */
export interface SnapshotsByVersion {
  readonly "1.4": AuthenticationSnapshotV1 | FingerprintSnapshotV1;
  readonly "2.0": AuthenticationSnapshotV2 | FingerprintSnapshotV2;
}

/** An item delivered by a webhook of API version `V`; `activity.name` tells the two kinds apart. */
export type Snapshot<V extends ApiVersion = "2.0"> = SnapshotsByVersion[V];

/** Anything with an `activity.name`: the items above, delivered or answered. */
interface WithActivity {
  readonly activity: { readonly name: string };
}

/**
 * Whether `item` is an authentication. TypeScript does not narrow a union on a nested member such as
 * `item.activity.name`, so this guard does it: `if (isAuthentication(item)) item.properties.brand.id`.
 */
export function isAuthentication<T extends WithActivity>(
  item: T,
): item is Extract<T, { readonly activity: { readonly name: "authentication" } }> {
  return item.activity.name === "authentication";
}

/** Whether `item` is a fingerprint; the counterpart of `isAuthentication`. */
export function isFingerprint<T extends WithActivity>(
  item: T,
): item is Extract<T, { readonly activity: { readonly name: "fingerprint" } }> {
  return item.activity.name === "fingerprint";
}
