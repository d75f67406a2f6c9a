import { z } from "zod";
import { exactly } from "../common-types";
import { controlCharacterProblem, safeString } from "../control-characters";
import { hostnameProblem } from "../domains/requests";
import { SESSION_KINDS } from "../kinds";
import { memoize } from "../memo";
import { type ApiVersion, VERSION_TRAITS } from "../versions";
import type { CanonicalFilter, WebhookCreateBody, WireFilter } from "./types";

/**
 * The rules a webhook request must meet (spec 4.2, 4.3), written once. The sandbox enforces them on the
 * wire, the client before sending, and the Pulumi resources at preview time, so a bad input fails before
 * anything changes.
 */
export const FORM_FACTORS = ["lightbox", "microscopic", "free_camera"] as const;
export const FILTER_KEYS = ["activity.name", "activity.form_factor", "owner.user.username"] as const;

export function endpointProblem(value: string, version: ApiVersion): string | undefined {
  // Checked on the raw value: the URL parser below would strip a TAB, CR or LF and hide it.
  const control = controlCharacterProblem(value);
  if (control) return control;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute https:// URL: give the full address your receiver serves, such as https://hooks.example.com/service/events";
  }
  if (url.protocol !== "https:")
    return "must be an https:// URL on a registered domain: change the scheme to https";
  if (url.username || url.password)
    return "must not carry credentials (user:password@): remove them; the Service-Signature header authenticates each delivery";
  const hostProblem = hostnameProblem(url.hostname);
  if (hostProblem) return `host ${hostProblem}`;
  if (VERSION_TRAITS[version].endpointMustBeBare) {
    if (url.search || value.includes("?"))
      return "must not have a query string on API 2.0: remove it, and tell webhooks that share a URL apart by channel";
    if (url.hash || value.includes("#")) return "must not have a fragment on API 2.0: remove the #… part";
    if (url.pathname.includes(";"))
      return "must not have ;params on API 2.0: remove them, and tell webhooks that share a URL apart by channel";
  }
  return undefined;
}

export function endpointSchema(version: ApiVersion) {
  return z.string().superRefine((value, ctx) => {
    const problem = endpointProblem(value, version);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
}

/** How to make a secret key long enough, in the words of every message that asks for one. */
const LONGER_KEY = "use a longer random key, e.g. the output of `openssl rand -hex 24`";

export function secretKeySchema(version: ApiVersion) {
  const { min, max } = VERSION_TRAITS[version].secretKey;
  const range = max === undefined ? `at least ${min}` : `${min} to ${max}`;
  const rule = `must be ${range} characters on API ${version}`;
  const atLeast = safeString().min(min, `${rule}: ${LONGER_KEY}`);
  return max === undefined ? atLeast : atLeast.max(max, `${rule}: use a shorter random key`);
}

const FilterShape = z.object({
  key: safeString(),
  value: safeString().min(1, "must not be empty").optional(),
  values: z.array(safeString().min(1, "must not be empty")).min(1, "must not be empty").optional(),
});
/** A filter as given: `value`, `values`, or (v2) both. */
export type FilterInput = WireFilter;

function filterValues(filter: FilterInput): string[] {
  return filter.value !== undefined ? [filter.value] : (filter.values ?? []);
}

export function filtersSchema(version: ApiVersion) {
  const bothAllowed = VERSION_TRAITS[version].filterValueAndValuesAllowed;
  return z.array(FilterShape).superRefine((filters, ctx) => {
    const seen = new Set<string>();
    filters.forEach((filter, i) => {
      const at = (...rest: (string | number)[]) => [i, ...rest];
      if (!(FILTER_KEYS as readonly string[]).includes(filter.key)) {
        ctx.addIssue({
          code: "custom",
          path: at("key"),
          message: `must be one of ${FILTER_KEYS.join(", ")}`,
        });
        return;
      }
      if (seen.has(filter.key)) {
        ctx.addIssue({ code: "custom", path: at("key"), message: `${filter.key} must appear only once` });
      }
      seen.add(filter.key);
      const hasValue = filter.value !== undefined;
      const hasValues = filter.values !== undefined;
      if (!hasValue && !hasValues) {
        ctx.addIssue({ code: "custom", path: at(), message: "needs value or values" });
        return;
      }
      if (hasValue && hasValues && !bothAllowed) {
        ctx.addIssue({
          code: "custom",
          path: at(),
          message: `takes exactly one of value or values on API ${version}`,
        });
        return;
      }
      const values = filterValues(filter);
      const field = hasValue ? "value" : "values";
      if (filter.key === "activity.name") {
        if (values.length !== 1 || !(SESSION_KINDS as readonly string[]).includes(values[0]!)) {
          ctx.addIssue({
            code: "custom",
            path: at(field),
            message: `activity.name takes exactly one value, ${SESSION_KINDS.join(" or ")}`,
          });
        }
      }
      if (filter.key === "activity.form_factor") {
        const bad = values.filter((v) => !(FORM_FACTORS as readonly string[]).includes(v));
        if (bad.length > 0) {
          ctx.addIssue({
            code: "custom",
            path: at(field),
            message: `activity.form_factor values must be among ${FORM_FACTORS.join(", ")} (got ${bad.join(", ")})`,
          });
        }
      }
    });
    if (!seen.has("activity.name")) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "must contain an activity.name filter with value authentication or fingerprint",
      });
    }
  });
}

/** Order-free, `value`/`values`-free form of a filter list, for comparing two lists. */
export function canonicalFilters(filters: readonly FilterInput[]): CanonicalFilter[] {
  return filters
    .map((f) => ({ key: f.key, values: [...new Set(filterValues(f))].sort() }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The wire form of a canonical filter: `value` for a single value, else `values`. */
export function toWireFilters(filters: readonly CanonicalFilter[]): FilterInput[] {
  return filters.map((f) =>
    f.values.length === 1 ? { key: f.key, value: f.values[0]! } : { key: f.key, values: [...f.values] },
  );
}

export function sameFilters(a: readonly FilterInput[], b: readonly FilterInput[]): boolean {
  return JSON.stringify(canonicalFilters(a)) === JSON.stringify(canonicalFilters(b));
}

/** The body of a webhook create; built once per version (see memo.ts). */
export const webhookCreateBodySchema = memoize((version: ApiVersion) =>
  exactly<WebhookCreateBody>()(
    z.object({
      endpoint: z.object({ type: z.literal("url", "must be url"), value: endpointSchema(version) }),
      secret_key: secretKeySchema(version),
      channel: safeString().min(1, "must not be empty").nullish(),
      filters: filtersSchema(version),
    }),
  ),
);
