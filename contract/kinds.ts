/**
 * The two kinds of session the API reads (spec section 1), which are also the values of an item's
 * `activity.name`: what a search reads, what a webhook's `activity.name` filter selects and what a
 * delivery carries. One tuple for all three, so that a third kind is one edit.
 */
export const SESSION_KINDS = ["authentication", "fingerprint"] as const;

/** A kind of session, and an item's `activity.name`: `authentication` or `fingerprint`. */
export type SessionKind = (typeof SESSION_KINDS)[number];
