/**
 * The service's published limits (spec section 8) that are the same in both API generations. Limits that
 * differ by generation (page sizes, secret length) live in versions.ts.
 */

/** Active webhooks one organization may have at a time; a create beyond it answers 409. */
export const MAX_ACTIVE_WEBHOOKS = 10;

/** "About 10 requests per second" per token; excess answers 429 with Retry-After. */
export const REQUESTS_PER_SECOND = 10;
