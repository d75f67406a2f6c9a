// Plain data, no zod, so that the public declarations can use it; connection.ts holds the schema.

/** The languages the service localizes display strings into, as `Accept-Language` takes them (spec 4.1). */
export const LANGUAGES = ["en", "ja"] as const;

/** A language the service localizes display strings into. */
export type Language = (typeof LANGUAGES)[number];

/** The language the service answers in when a request sends no `Accept-Language`. */
export const DEFAULT_LANGUAGE: Language = "en";
