import { z } from "zod";

/** The languages display strings come in (spec 4.1: `Accept-Language: en|ja`). */
export const LANGUAGES = ["en", "ja"] as const;

/** A language the service localizes display strings into. */
export type Language = (typeof LANGUAGES)[number];

/** The language the service answers in when a request sends no `Accept-Language`. */
export const DEFAULT_LANGUAGE: Language = "en";

/** The `Accept-Language` a client sends: `en` or `ja`. */
export const AcceptLanguage = z.enum(LANGUAGES, "must be en or ja");
