/**
 * The members spec 2.2 to 2.4 requires of every authentication and fingerprint item, read or delivered,
 * in either version, as dot paths. Readers of items must refuse one without any of them; what a version or
 * a route adds (timestamp, the v2 status members, update_counter) is for each test to add.
 */
const SHARED = [
  "service_id",
  "activity.name",
  "activity.form_factor",
  "owner.organization.name",
  "owner.user.username",
  "status.flag",
  "status.result.id",
  "status.result.display",
  "status.result.final",
  "text_fields.customer_item_id",
];

export const REQUIRED_MEMBERS = {
  authentication: [
    ...SHARED,
    "activity.product_category",
    "activity.product_group",
    "certificate.preview",
    "certificate.site",
    "properties.brand.id",
    "properties.brand.display",
    "properties.material.id",
    "properties.material.display",
    "text_fields.identifier",
  ],
  fingerprint: [...SHARED, "activity.mode"],
} as const;

/** The `status` members API 2.0 adds to items read with GET and search (spec 2.4). */
export const V2_STATUS_MEMBERS = [
  "status.flag_reason_id",
  "status.flag_reason_display",
  "status.flag_message",
  "status.retake",
];

/** A deep copy of `value` without the member at the dot path `path`. */
export function withoutMember<T>(value: T, path: string): T {
  const copy = structuredClone(value);
  const keys = path.split(".");
  let holder = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
  delete holder[keys.at(-1)!];
  return copy;
}
