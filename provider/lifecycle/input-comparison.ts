/**
 * Whether an input changed, by what it means, never by its JSON text. The engine hands stored state back
 * with its keys in another order than the program gave them; a default may be spelled out in one run and
 * left out in the next; filters mean the same in any order; and state keeps only a salted hash of a
 * secret. Each kind of input has one comparison, here, and every resource's `diff` lists its inputs by
 * kind and asks `changedInputs` which of them changed.
 */
import type { FilterInput } from "../../contract/webhooks/requests";
import { canonicalFilters } from "../../contract/webhooks/requests";
import { settingOrDefault } from "../settings/resolve";
import type { Settings } from "../settings/value";
import { secretMatches } from "./secret-hash";
import { containsUnknown } from "./unknowns";

/** What an input left out stands for: the stack's settings, then the environment, then the defaults. */
export interface Fallbacks {
  /** The base URL a `connection` without one uses. */
  readonly baseUrl: string;
  /** The display language a resource without `acceptLanguage` uses. */
  readonly acceptLanguage: string;
}

/** The fallbacks of the provider's `settings`, as `clientFor` resolves them (stack config, environment, defaults). */
export function fallbacksOf(settings: Settings): Fallbacks {
  return {
    baseUrl: settingOrDefault(settings, "baseUrl")!,
    acceptLanguage: settingOrDefault(settings, "acceptLanguage")!,
  };
}

/**
 * Whether the new value `given` of the input `key` means what the stored state `stored` records for it.
 * `given` is never the preview's unknown value: `changedInputs` counts that as a change first.
 */
export type Comparison = (
  given: unknown,
  stored: Readonly<Record<string, unknown>>,
  key: string,
  fallbacks: Fallbacks,
) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Deep equality of JSON-like values, as the engine's own comparison has it: object members in any order,
 * a member that is null or undefined the same as one left out; arrays in order.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return (a ?? undefined) === (b ?? undefined);
}

/** An input the service keeps as it was sent (an endpoint, a hostname, a path): the same value. */
export const exact: Comparison = (given, stored, key) => sameValue(given, stored[key]);

/** An input with a default: left out, it means `fallback` (a channel's "default", API version "2.0"). */
export function defaultsTo(fallback: string | number | boolean): Comparison {
  return (given, stored, key) => (given ?? fallback) === (stored[key] ?? fallback);
}

/** An input that, left out, keeps the value recorded in state. */
export const recordedUnlessGiven: Comparison = (given, stored, key) =>
  given === undefined || sameValue(given, stored[key]);

/** A filter list: in any order, one value the same as a one-element `values`, duplicate values once. */
export const filterList: Comparison = (given, stored, key) =>
  Array.isArray(given) &&
  Array.isArray(stored[key]) &&
  sameValue(canonicalFilters(given as FilterInput[]), canonicalFilters(stored[key] as FilterInput[]));

/** A base URL as the client uses it: scheme and host in lower case, no default port, no trailing slash. */
export function canonicalBaseUrl(url: string): string {
  let href = url;
  try {
    href = new URL(url).href;
  } catch {
    // Not a URL: check refuses it before any diff; compared as written.
  }
  return href.replace(/\/+$/, "");
}

/** The credentials a `connection` input stands for, its base URL resolved and in canonical form. */
function credentialsOf(connection: unknown, fallbacks: Fallbacks): unknown {
  if (!isObject(connection)) return connection;
  const baseUrl = typeof connection.baseUrl === "string" ? connection.baseUrl : fallbacks.baseUrl;
  return { token: connection.token, baseUrl: canonicalBaseUrl(baseUrl) };
}

/**
 * A `connection`: the same token and the same service, whatever the order of its members, and whether
 * its base URL is left out or spelled out as the one it falls back to. Left out altogether, it is not
 * the same as a connection given: one falls back on the stack's token, the other does not.
 */
export const connection: Comparison = (given, stored, key, fallbacks) =>
  sameValue(credentialsOf(given, fallbacks), credentialsOf(stored[key], fallbacks));

/** `acceptLanguage`: left out, the stack's `service:acceptLanguage`, else "en". */
export const language: Comparison = (given, stored, key, fallbacks) =>
  (given ?? fallbacks.acceptLanguage) === (stored[key] ?? fallbacks.acceptLanguage);

/**
 * A secret that state keeps as a salted hash under `hashKey`: the same when it matches the hash. Without
 * a hash (a webhook adopted by `pulumi import`: the service never returns its secret), the secret state
 * kept with the previous inputs, when it has one; else the one given is taken on trust.
 */
export function hashedSecret(hashKey: string): Comparison {
  return (given, stored, key) => {
    const hash = stored[hashKey];
    if (typeof hash === "string") return typeof given === "string" && secretMatches(given, hash);
    const previous = stored[key];
    return typeof previous !== "string" || previous === given;
  };
}

/** A resource's inputs by kind: the comparison of each input that its `diff` looks at. */
export type InputKinds = Readonly<Record<string, Comparison>>;

/**
 * The inputs among `kinds` whose new value in `news` does not mean what `stored` records, in the order
 * `kinds` lists them, by the provider's `fallbacks` (`fallbacksOf` its settings). A value still unknown at
 * preview counts as changed.
 */
export function changedInputs(
  kinds: InputKinds,
  stored: Readonly<Record<string, unknown>>,
  news: Readonly<Record<string, unknown>>,
  fallbacks: Fallbacks,
): string[] {
  return Object.entries(kinds)
    .filter(([key, same]) => containsUnknown(news[key]) || !same(news[key], stored, key, fallbacks))
    .map(([key]) => key);
}
