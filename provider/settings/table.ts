/**
 * Every setting of the package, each declared once: its names (in the environment, in stack config and
 * the provider plugin's configuration, in `ClientOptions`), its type, its default, whether it is secret
 * and what it means. Every other list of settings is derived from this table: what `resolve` reads
 * (resolve.ts), the client's `ENV` and its validation (client/config.ts), `STACK_KEYS`
 * (lifecycle/stack-config.ts), the schema's config section (tools/codegen/schema.ts), the advice's
 * spellings (errors/advice.ts) and the table in docs/configuration.md (tools/codegen/settings-doc.ts). A
 * new setting is one row here and its reader; the generated files follow with `npm run schema` and
 * `npm run docs:settings`.
 */
import type { ZodNumber, ZodType } from "zod";
import { DEFAULT_BASE_URL } from "../../contract/default-base-url";
import type { Language } from "../../contract/languages";
import { DEFAULT_LANGUAGE } from "../../contract/languages";
import { REQUESTS_PER_SECOND } from "../../contract/limits";
import { PLUGIN_PACKAGE } from "../../contract/pulumi-package";
import type { ApiVersion } from "../../contract/versions";
import type { SchemaKit } from "./schema-kit";

/** The namespace of the stack config keys (`service:token`): the provider plugin's package name. */
export const CONFIG_NAMESPACE = PLUGIN_PACKAGE;

/**
 * What the provider's configuration is, as the schema describes the provider resource: the settings with
 * a stack config key below.
 */
export const CONFIG_DESCRIPTION =
  "The stack configuration the provider reads (the dynamic resources' and the provider plugin's alike), namespaced keys as `configure` receives them. Each setting left out falls back on its own to the environment; a resource's `connection` input goes ahead of both.";

/** A `ClientOptions` member that sets a setting. */
export interface OptionName {
  /** Its path in `ClientOptions`, dotted when nested (`retry.maxElapsedMs`). */
  readonly path: string;
  /** How a refusal names the setting ("The setting timeoutMs must be positive"). */
  readonly label: string;
  /**
   * For a number, what one unit of the environment's and stack config's value is in the option's unit
   * (1000: seconds there, milliseconds here). Absent for a string, taken as written.
   */
  readonly scale?: number;
}

/** One setting. Each name is absent where that source (environment, stack config, client option) cannot set it. */
export interface Setting {
  /** The SERVICE_* environment variable. */
  readonly env?: string;
  /** The key in stack config (`service:<key>`), which is also the provider plugin's configuration key. */
  readonly config?: string;
  /** The `ClientOptions` member. */
  readonly option?: OptionName;
  /**
   * How stack config, the provider plugin's configuration and the schema type the value: a `number`, an
   * `object` of strings, or (absent) a string, an enum when its schema is one. The schema checks this
   * against the zod schema; `resolve`, which loads no zod, takes the engine's text of a number or object
   * by it (resolve.ts).
   */
  readonly type?: "number" | "object";
  /** Who reads it: every ServiceClient, or only the provider around the resources' clients. */
  readonly reader: "client" | "provider";
  /**
   * A valid value, in the option's unit for a client option, else as the environment gives it: a zod
   * schema, made from the kit (schema-kit.ts) when a reader validates, so that reading names loads no zod.
   */
  readonly schema: (kit: SchemaKit) => ZodType;
  /** The value when nothing sets it, as the environment and stack config would spell it; absent for none. */
  readonly default?: string | number;
  /** What the default (or, without one, being unset) means, in a few words ("the local sandbox", "off"). */
  readonly defaultNote?: string;
  /** True for a credential: stored encrypted by every SDK and hidden from every message. */
  readonly secret: boolean;
  /** What the value looks like, as a command's placeholder (`pulumi config set service:baseUrl <url>`). */
  readonly placeholder?: string;
  /** What it means, in one sentence. */
  readonly description: string;
}

/** A positive number of milliseconds. */
const positiveMs = (kit: SchemaKit): ZodNumber =>
  kit.z.number("must be a number").positive("must be positive");

/** The settings, in the order the docs list them. */
export const SETTINGS = {
  /** The API token. */
  token: {
    env: "SERVICE_API_TOKEN",
    config: "token",
    option: { path: "token", label: "token" },
    reader: "client",
    schema: (kit): ZodType<string> => kit.safeString().min(1, "must not be empty"),
    secret: true,
    placeholder: "<token>",
    description: "The API token, with webhooks enabled for webhooks and domains (a secret).",
  },
  /** The API base URL. */
  baseUrl: {
    env: "SERVICE_BASE_URL",
    config: "baseUrl",
    option: { path: "baseUrl", label: "baseUrl" },
    reader: "client",
    schema: (kit): ZodType<string> => kit.BaseUrl,
    default: DEFAULT_BASE_URL,
    defaultNote: "the local sandbox",
    secret: false,
    placeholder: "<url>",
    description: "The API base URL.",
  },
  /** The language of the service's display strings. */
  acceptLanguage: {
    config: "acceptLanguage",
    option: { path: "acceptLanguage", label: "acceptLanguage" },
    reader: "client",
    schema: (kit): ZodType<Language> => kit.AcceptLanguage,
    default: DEFAULT_LANGUAGE,
    secret: false,
    description: "Display language of the service's answers, `en` (default) or `ja`.",
  },
  /** Where the domain poller fetches local hostnames from. */
  hostOverrides: {
    env: "SERVICE_HOST_OVERRIDES",
    config: "hostOverrides",
    type: "object",
    reader: "provider",
    schema: (kit): ZodType<Record<string, string>> =>
      kit.z.record(kit.z.string(), kit.z.url({ protocol: /^https?$/ })),
    secret: false,
    description:
      "An object of hostname to origin URL, where to fetch `https://<hostname>/...` from instead, for hostnames that exist only locally (the sandbox's).",
  },
  /** The time one request may spend on retries. */
  retryBudget: {
    env: "SERVICE_RETRY_BUDGET_SECONDS",
    config: "retryBudgetSeconds",
    type: "number",
    option: { path: "retry.maxElapsedMs", label: "retryBudgetMs", scale: 1000 },
    reader: "client",
    schema: (kit): ZodType<number> => positiveMs(kit),
    default: 60,
    secret: false,
    placeholder: "<seconds>",
    description: "Seconds one request may spend on retries, 429s included.",
  },
  /** The API version. */
  apiVersion: {
    env: "SERVICE_API_VERSION",
    option: { path: "apiVersion", label: "apiVersion" },
    reader: "client",
    schema: (kit): ZodType<ApiVersion> => kit.ApiVersionSchema,
    default: "2.0",
    secret: false,
    description: "The API version a `ServiceClient` speaks by default, `2.0` or `1.4`.",
  },
  /** The time one request waits for its answer. */
  timeout: {
    env: "SERVICE_TIMEOUT_SECONDS",
    option: { path: "timeoutMs", label: "timeoutMs", scale: 1000 },
    reader: "client",
    schema: (kit): ZodType<number> => positiveMs(kit).int("must be whole milliseconds"),
    default: 30,
    secret: false,
    description: "Seconds one request waits for its answer.",
  },
  /** The time a create whose answer was lost re-lists. */
  reconcile: {
    env: "SERVICE_RECONCILE_SECONDS",
    reader: "provider",
    schema: (kit): ZodType<number> => kit.z.coerce.number().min(0),
    default: 30,
    secret: false,
    description:
      "Seconds a create whose answer was lost re-lists before the resource is kept as pending (5 s after a 5xx).",
  },
  /** The client-side rate limit. */
  rateLimit: {
    env: "SERVICE_RATE_LIMIT",
    option: { path: "rateLimitPerSecond", label: "rateLimitPerSecond", scale: 1 },
    reader: "client",
    schema: (kit): ZodType<number> => kit.z.number("must be a number").min(0, "must be 0 (off) or more"),
    default: REQUESTS_PER_SECOND,
    secret: false,
    description: "Client-side requests per second per token (0: off).",
  },
  /** Debugging output. */
  debug: {
    env: "SERVICE_DEBUG",
    reader: "client",
    schema: (kit): ZodType<string> => kit.z.string(),
    defaultNote: "off",
    secret: false,
    description:
      "Any value: print one redacted line per request to stderr, and add its stack trace to each failure a resource reports.",
  },
} as const satisfies Record<string, Setting>;

/** The table's type, for the derived views' own types. */
export type SettingTable = typeof SETTINGS;

/** A setting's name: its key in `SETTINGS` (and in `ENV`). */
export type SettingName = keyof SettingTable;

/** Each setting with its name, in the table's order. */
export const SETTING_ROWS: readonly (readonly [SettingName, Setting])[] = Object.entries(SETTINGS) as [
  SettingName,
  Setting,
][];

/** A setting's namespaced stack config key (`service:retryBudgetSeconds`). */
export const stackKey = (config: string) => `${CONFIG_NAMESPACE}:${config}`;

/** The names of the settings a ServiceClient reads from its options or the environment. */
export type ClientSettingName = {
  [K in SettingName]: SettingTable[K]["reader"] extends "client" ? K : never;
}[SettingName];

/** The names of the settings stack config can set. */
export type ConfigSettingName = {
  [K in SettingName]: SettingTable[K] extends { readonly config: string } ? K : never;
}[SettingName];

/** A text value as the environment or stack config gives it; empty counts as unset. */
export function textOf(value: string | undefined): string | undefined {
  return value === "" ? undefined : value;
}
