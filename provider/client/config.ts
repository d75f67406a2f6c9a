import type { Dispatcher } from "undici";
import { z } from "zod";
import type { AcceptLanguage } from "../../contract/common-types";
import { inEnglish } from "../../contract/issues";
import type { ApiVersion } from "../../contract/versions";
import { rememberSecret } from "../context/process";
import { type AdviceContext, adviceFor, type SettingAdvice } from "../errors/advice";
import { ConfigurationError } from "../errors/base";
import { resolve, settingOrDefault, settingText } from "../settings/resolve";
import { schemaOf } from "../settings/schema-kit";
import {
  type ClientSettingName,
  type OptionName,
  SETTING_ROWS,
  SETTINGS,
  type Setting,
  type SettingName,
  type SettingTable,
} from "../settings/table";
import type { Settings } from "../settings/value";
import type { RateLimiter } from "./limiter";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry";

/** The SERVICE_* variables of the client's settings among `settings`, by setting name. */
function clientEnv<T extends Readonly<Record<string, Setting>>>(
  settings: T,
): {
  readonly [K in keyof T as T[K] extends { readonly reader: "client"; readonly env: string }
    ? K
    : never]: T[K] extends {
    readonly env: infer E;
  }
    ? E
    : never;
} {
  return Object.fromEntries(
    Object.entries(settings).flatMap(([name, s]) => (s.reader === "client" && s.env ? [[name, s.env]] : [])),
  ) as never;
}

/**
 * Environment variables the client reads when an option is not given, by setting name (`ENV.retryBudget`
 * is SERVICE_RETRY_BUDGET_SECONDS). Derived from the settings table (settings/table.ts), which says what
 * each one means and its default; SERVICE_DEBUG (`ENV.debug`) prints one redacted line per request to
 * stderr, and gives each failure a resource reports to Pulumi its stack trace.
 */
export const ENV = clientEnv(SETTINGS);

/** How a ServiceClient connects. Every member is optional; see `ENV` for the environment fallbacks. */
export interface ClientOptions {
  /** The API token. Falls back to SERVICE_API_TOKEN. */
  readonly token?: string | undefined;
  /** The API base URL. Falls back to SERVICE_BASE_URL, then the local sandbox. */
  readonly baseUrl?: string | undefined;
  /** "2.0" (default) or "1.4". Falls back to SERVICE_API_VERSION. */
  readonly apiVersion?: ApiVersion | undefined;
  /** Language of the service's display strings: "en" (default) or "ja". */
  readonly acceptLanguage?: AcceptLanguage | undefined;
  /** How long one request may wait for its answer; default 30 000 (SERVICE_TIMEOUT_SECONDS). */
  readonly timeoutMs?: number | undefined;
  /** Requests per second of the default shared limiter of the token (see `limiter`); 0 turns it off. */
  readonly rateLimitPerSecond?: number | undefined;
  /** Overrides of the retry policy; `maxElapsedMs` is the retry budget (SERVICE_RETRY_BUDGET_SECONDS). */
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Receives one redacted line per attempt (SERVICE_DEBUG prints them to stderr). */
  readonly logger?: ((line: string) => void) | undefined;
  /** Jitter source in [0, 1). */
  readonly random?: (() => number) | undefined;
  /**
   * This client's clock: the time in epoch milliseconds. Its retry budget, Retry-After pauses and its
   * view of the service's clock (`serverNow`) read it. `Date.now` by default.
   */
  readonly clock?: (() => number) | undefined;
  /** How this client waits (retry backoff); resolves after `ms` milliseconds. A timer by default. */
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  /**
   * This client's transport: an undici Dispatcher (an Agent, a Pool, a MockAgent). By default the client
   * makes its own keep-alive pool on its first request.
   */
  readonly dispatcher?: Dispatcher | undefined;
  /**
   * The rate limiter this client's requests wait on. By default every client of a token shares the
   * token's limiter from `SHARED_LIMITERS` (the limit is the token's, whichever client spends it), at
   * `rateLimitPerSecond`. Pass `sharedLimiter(...)`, a limiter of your own (`new RateLimiter(perSecond,
   * clock)`) to share one differently, or null for none.
   */
  readonly limiter?: RateLimiter | null | undefined;
  /**
   * Where error messages send the reader to change a setting: `"client"` (default) names this client's
   * options and the SERVICE_* variables; `"pulumi"` names stack config and a resource's `connection`,
   * which is what the Webhook and Domain resources set.
   */
  readonly advice?: AdviceContext | undefined;
}

/** A client's settings once defaults and the environment have been applied. */
export interface ResolvedOptions {
  /** The API token (remembered as a secret, so that no message repeats it). */
  readonly token: string;
  /** The API base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** True when no option or environment variable named the base URL, so it is the local sandbox. */
  readonly baseUrlDefaulted: boolean;
  /** The version sent as `Api-Version`, which also picks each operation's route. */
  readonly apiVersion: ApiVersion;
  /** Sent as `Accept-Language`. */
  readonly acceptLanguage: AcceptLanguage;
  /** How long one attempt waits for its answer. */
  readonly timeoutMs: number;
  /** The shared limiter's rate for this token; 0 when it is off. */
  readonly rateLimitPerSecond: number;
  /** Retry attempts, backoff and the per-request budget. */
  readonly retry: RetryPolicy;
  /** Receives one redacted line per request, or undefined for none. */
  readonly logger: ((line: string) => void) | undefined;
  /** The jitter source of the backoff, a number in [0, 1). */
  readonly random: () => number;
  /** How error messages say to change each setting, for the context the client was made in. */
  readonly advice: SettingAdvice;
}

/** The settings a `ClientOptions` member sets, each with its option. */
const OPTION_ROWS = SETTING_ROWS.flatMap(([name, s]) =>
  s.option ? [{ name, setting: s, option: s.option }] : [],
);

/** Every client option's setting, validated at once, under the names refusals give them. */
const OptionSettings = z.object(
  Object.fromEntries(OPTION_ROWS.map((row) => [row.option.label, schemaOf(row.setting)])),
);

/** The member of `options` at a dotted `path`; an empty string counts as unset. */
function memberAt(options: object | undefined, path: string): unknown {
  const value = path
    .split(".")
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], options);
  return value === "" ? undefined : value;
}

/** A value as the environment or stack config writes it, in the unit of its option. */
function fromText(option: OptionName, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  return option.scale === undefined ? text : Number(text) * option.scale;
}

/**
 * `options` with each client option it leaves unset taken from `settings` (`retryBudget` "90" is
 * `retry.maxElapsedMs` 90 000), so that a client of them applies the precedence explicit option, then a
 * resource's `connection`, then stack config, then the environment, then the default.
 */
export function withSettings(options: ClientOptions, settings: Settings): ClientOptions {
  const layered: Record<string, unknown> = { ...options };
  for (const { name, option } of OPTION_ROWS) {
    const text = settingText(settings, name);
    if (memberAt(options, option.path) !== undefined || text === undefined) continue;
    const keys = option.path.split(".");
    // A copy of each object on the way (`retry`), so that the caller's options stay as they were.
    const parent = keys.slice(0, -1).reduce<Record<string, unknown>>((at, key) => {
      at[key] = { ...(at[key] as object | undefined) };
      return at[key] as Record<string, unknown>;
    }, layered);
    parent[keys.at(-1)!] = fromText(option, text);
  }
  return layered as ClientOptions;
}

/** A client option's value from `options`, else from `settings`, in the option's unit. */
function givenValue(name: SettingName, option: OptionName, options: object, settings: Settings): unknown {
  return memberAt(options, option.path) ?? fromText(option, settingText(settings, name));
}

/**
 * The token and base URL a client of `options` would use, before validation: each explicit value (an
 * empty string counts as unset), else the one `settings` give; undefined where none does (the base URL
 * is then the local sandbox's). `resolveOptions` and the Webhook quota's organization key both read
 * credentials through it.
 */
export function credentialsOf(
  options: Pick<ClientOptions, "token" | "baseUrl">,
  settings: Settings,
): { readonly token: string | undefined; readonly baseUrl: string | undefined } {
  const { token, baseUrl } = SETTINGS;
  return {
    token: givenValue("token", token.option, options, settings) as string | undefined,
    baseUrl: givenValue("baseUrl", baseUrl.option, options, settings) as string | undefined,
  };
}

/** Every client option `options` gives, else the one `settings` give, else its default, validated. */
function parseOptionSettings(options: ClientOptions, settings: Settings) {
  return OptionSettings.safeParse(
    Object.fromEntries(
      OPTION_ROWS.map(({ name, option }) => [
        option.label,
        givenValue(name, option, options, settings) ?? fromText(option, settingOrDefault(settings, name)),
      ]),
    ),
    { error: inEnglish },
  );
}

/**
 * The first client setting of `options` (or of `settings`, where `options` leaves it unset) that breaks
 * its rule: its name in the settings table and the rule's words; undefined when all hold. The token's
 * absence is not checked: the first request says so.
 */
export function settingProblem(
  options: ClientOptions,
  settings: Settings,
  // The setting's name is typed loosely, so that the public declarations never reach the settings
  // table's schemas.
): { readonly setting: string; readonly rule: string } | undefined {
  const parsed = parseOptionSettings(options, settings);
  const tokenGiven = credentialsOf(options, settings).token !== undefined;
  const issue = parsed.error?.issues.find((i) => tokenGiven || i.path[0] !== SETTINGS.token.option.label);
  if (!issue) return undefined;
  const row = OPTION_ROWS.find(({ option }) => option.label === issue.path[0])!;
  return { setting: row.name, rule: issue.message };
}

/**
 * Explicit options first, then `settings` (the environment's when left out: a client made on its own
 * reads it once, here), then the defaults.
 */
export function resolveOptions(
  options: ClientOptions = {},
  settings: Settings = resolve({}),
): ResolvedOptions {
  const advice = adviceFor(options.advice);
  const { token, baseUrl } = credentialsOf(options, settings);
  rememberSecret(token);
  if (token === undefined) {
    throw new ConfigurationError(`No API token was given: set one with ${advice.token}.`);
  }
  const parsed = parseOptionSettings(options, settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigurationError(
      `The setting ${issue.path.join(".")} ${issue.message}: correct it in ${advice.settings}.`,
    );
  }
  const resolved = parsed.data as {
    [K in ClientSettingName as SettingTable[K] extends { option: { label: infer L extends string } }
      ? L
      : never]: z.output<ReturnType<SettingTable[K]["schema"]>>;
  };
  const { retryBudgetMs, ...rest } = resolved;
  return {
    ...rest,
    baseUrl: resolved.baseUrl.replace(/\/+$/, ""),
    baseUrlDefaulted: baseUrl === undefined,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry, maxElapsedMs: retryBudgetMs },
    logger:
      options.logger ??
      (settingText(settings, "debug") ? (line) => process.stderr.write(`${line}\n`) : undefined),
    random: options.random ?? Math.random,
    advice,
  };
}
