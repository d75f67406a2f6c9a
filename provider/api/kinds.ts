/** The two kinds of session the API reads (spec section 1): authentication and fingerprint sessions. */
export const SESSION_KINDS = ["authentication", "fingerprint"] as const;

/** A kind of session: `authentication` or `fingerprint`. */
export type SessionKind = (typeof SESSION_KINDS)[number];
