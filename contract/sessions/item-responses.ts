import { z } from "zod";
import type { SessionKind } from "../kinds";
import { Timestamp } from "../responses";
import type { ApiVersion } from "../versions";
import type {
  AuthenticationItemV1,
  AuthenticationItemV2,
  AuthenticationSnapshotV1,
  AuthenticationSnapshotV2,
  DeliveredStatusV2,
  FingerprintItemV1,
  FingerprintItemV2,
  FingerprintParent,
  FingerprintSnapshotV1,
  FingerprintSnapshotV2,
  ItemImages,
  ItemOwner,
  ItemStatus,
  ItemStatusV2,
  ItemWarning,
  UnavailableFingerprintParent,
} from "./item-types";

/**
 * The one home of the shapes of authentication and fingerprint items the service answers with (GET,
 * lookup, search) and delivers to webhooks, in API 1.4 and 2.0 (spec sections 2.2 to 2.5 and 6).
 *
 * Objects are loose: keys the spec does not list are kept, so that a snapshot stored whole keeps what the
 * service added since (section 9). Enums are plain strings, except `activity.name`, which tells the two
 * kinds of item apart. Each schema `satisfies` the zod-free interface of the same name in
 * `item-types.ts`: those are the types published to users.
 */

const ItemOwnerSchema = z.looseObject({
  organization: z.looseObject({ name: z.string() }),
  user: z.looseObject({ username: z.string() }),
}) satisfies z.ZodType<ItemOwner>;

const IdAndDisplaySchema = z.looseObject({ id: z.string(), display: z.string() });

/** `status` in API 1.4, and the part of it every version shares. */
const ItemStatusSchema = z.looseObject({
  flag: z.string().nullable(),
  result: z.looseObject({
    id: z.string(),
    display: z.string(),
    final: z.boolean(),
    reason: z.string().optional(),
  }),
}) satisfies z.ZodType<ItemStatus>;

/** `status` of API 2.0 GET and search items. The four additions have no documented shape. */
const ItemStatusV2Schema = ItemStatusSchema.extend({
  flag_reason_id: z.unknown(),
  flag_reason_display: z.unknown(),
  flag_message: z.unknown(),
  retake: z.unknown(),
}) satisfies z.ZodType<ItemStatusV2>;

/** `status` of API 2.0 delivered items: only `retake` of the four additions. */
const DeliveredStatusV2Schema = ItemStatusSchema.extend({
  retake: z.unknown(),
}) satisfies z.ZodType<DeliveredStatusV2>;

/** `images` in its two shapes: a `{type, url}` list (2.0 `include_images`) or region-keyed `photos` / `camera`. */
const ItemImagesSchema = z.union([
  z.array(z.looseObject({ type: z.string(), url: z.string() })),
  z.looseObject({
    photos: z.record(z.string(), z.unknown()).optional(),
    camera: z.record(z.string(), z.unknown()).optional(),
  }),
]) satisfies z.ZodType<ItemImages>;

/** A warning beside an item (`fingerprint_parent_not_authorized`, say). */
export const ItemWarningSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
}) satisfies z.ZodType<ItemWarning>;

const FingerprintTextFieldsSchema = z.looseObject({ customer_item_id: z.string() });

/**
 * A compare session's parent: whole when the caller owns it, `{}` when it no longer does. A parent that
 * names a `service_id` must be whole; keys other than `service_id` do not make `{}` a parent.
 */
const FingerprintParentSchema = z.union([
  z.looseObject({
    activity: z.looseObject({ form_factor: z.string(), mode: z.string(), name: z.string() }),
    service_id: z.string(),
    text_fields: FingerprintTextFieldsSchema,
    url: z.string(),
  }) satisfies z.ZodType<FingerprintParent>,
  z.object({ service_id: z.never().optional() }) satisfies z.ZodType<UnavailableFingerprintParent>,
]);

const authenticationMembers = {
  service_id: z.string(),
  activity: z.looseObject({
    name: z.literal("authentication"),
    form_factor: z.string(),
    product_category: z.string(),
    product_group: z.string(),
  }),
  certificate: z.looseObject({ preview: z.string(), site: z.string() }),
  owner: ItemOwnerSchema,
  properties: z.looseObject({ brand: IdAndDisplaySchema, material: IdAndDisplaySchema }),
  status: ItemStatusSchema,
  text_fields: z.looseObject({
    customer_item_id: z.string(),
    identifier: z.string(),
    style_code: z.string().optional(),
    us_size: z.string().optional(),
  }),
  images: ItemImagesSchema.optional(),
};

const fingerprintMembers = {
  service_id: z.string(),
  activity: z.looseObject({ name: z.literal("fingerprint"), mode: z.string(), form_factor: z.string() }),
  owner: ItemOwnerSchema,
  status: ItemStatusSchema,
  text_fields: FingerprintTextFieldsSchema,
  images: ItemImagesSchema.optional(),
};

const updateCounter = z.number().int();

/** An authentication as API 1.4 GET, lookup and search return it. */
export const AuthenticationItemV1Schema = z.looseObject({
  ...authenticationMembers,
  timestamp: Timestamp,
}) satisfies z.ZodType<AuthenticationItemV1>;

/** An authentication as API 2.0 GET, lookup and search return it. */
export const AuthenticationItemV2Schema = AuthenticationItemV1Schema.extend({
  status: ItemStatusV2Schema,
}) satisfies z.ZodType<AuthenticationItemV2>;

/** A fingerprint as API 1.4 GET and search return it. */
export const FingerprintItemV1Schema = z.looseObject({
  ...fingerprintMembers,
  fingerprint_parent: FingerprintParentSchema.optional(),
  timestamp: Timestamp,
}) satisfies z.ZodType<FingerprintItemV1>;

/** A fingerprint as API 2.0 GET and search return it. */
export const FingerprintItemV2Schema = FingerprintItemV1Schema.extend({
  status: ItemStatusV2Schema,
}) satisfies z.ZodType<FingerprintItemV2>;

/** An authentication delivered by an API 1.4 webhook: the search item plus `update_counter`. */
const AuthenticationSnapshotV1Schema = AuthenticationItemV1Schema.extend({
  update_counter: updateCounter,
}) satisfies z.ZodType<AuthenticationSnapshotV1>;

/** An authentication delivered by an API 2.0 webhook: no `timestamp`, and only `retake` of the status additions. */
const AuthenticationSnapshotV2Schema = z.looseObject({
  ...authenticationMembers,
  status: DeliveredStatusV2Schema,
  update_counter: updateCounter,
}) satisfies z.ZodType<AuthenticationSnapshotV2>;

/** A fingerprint delivered by an API 1.4 webhook (deliveries never carry `fingerprint_parent`). */
const FingerprintSnapshotV1Schema = z.looseObject({
  ...fingerprintMembers,
  timestamp: Timestamp,
  update_counter: updateCounter,
}) satisfies z.ZodType<FingerprintSnapshotV1>;

/** A fingerprint delivered by an API 2.0 webhook. */
const FingerprintSnapshotV2Schema = z.looseObject({
  ...fingerprintMembers,
  status: DeliveredStatusV2Schema,
  update_counter: updateCounter,
}) satisfies z.ZodType<FingerprintSnapshotV2>;

/** The schema of a delivered item, by the webhook's API version and the item's `activity.name`. */
export const SNAPSHOT_SCHEMAS = {
  "1.4": { authentication: AuthenticationSnapshotV1Schema, fingerprint: FingerprintSnapshotV1Schema },
  "2.0": { authentication: AuthenticationSnapshotV2Schema, fingerprint: FingerprintSnapshotV2Schema },
} as const satisfies Record<ApiVersion, Record<SessionKind, z.ZodType>>;
