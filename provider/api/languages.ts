/**
 * The languages display strings come in (spec 4.1: `Accept-Language: en|ja`). Plain data, no zod, so that
 * the public declarations can use it; connection.ts holds the schema.
 */
export const LANGUAGES = ["en", "ja"] as const;

/** A language the service localizes display strings into. */
export type Language = (typeof LANGUAGES)[number];

/** The language the service answers in when a request sends no `Accept-Language`. */
export const DEFAULT_LANGUAGE: Language = "en";
