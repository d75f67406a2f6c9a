import { z } from "zod";
import { safeString } from "../control-characters";
import type { SessionKind } from "../kinds";
import { memoize } from "../memo";
import { PageCursor, pageLimitSchema } from "../pages";
import { type ApiVersion, type ImageFlag, VERSION_TRAITS } from "../versions";

/**
 * The request rules of the session routes (spec 4.2, 4.3 and 2.5), written once: the sandbox answers
 * 400 when a request breaks them, and a client refuses to send such a request.
 */

/** The filter keys each v1.4 search takes (spec 4.2). v2's are not shown, so v2 takes any key. */
const V1_SEARCH_FILTER_KEYS: Readonly<Record<SessionKind, readonly string[]>> = {
  authentication: [
    "activity.form_factor",
    "owner.organization.name",
    "owner.user.username",
    "properties.brand.id",
    "properties.material.id",
    "status.flag",
    "status.result.id",
    "text_fields.customer_item_id",
    "text_fields.identifier",
    "text_fields.style_code",
    "text_fields.us_size",
  ],
  fingerprint: [
    "activity.mode",
    "fingerprint_parent.service_id",
    "fingerprint_parent.customer_item_id",
    "owner.organization.name",
    "owner.user.username",
    "status.flag",
    "status.result.id",
    "text_fields.customer_item_id",
  ],
};

/** A filter on this key also needs a filter on `IDENTIFIER_NEEDS` (spec 4.2). */
const IDENTIFIER_KEY = "text_fields.identifier";
/** The filter that must accompany a filter on `IDENTIFIER_KEY`. */
const IDENTIFIER_NEEDS = "properties.brand.id";

/** How a filter compares text fields: `canonical` (same letters and digits, any case) or `verbatim`. */
const TEXT_MATCHES = ["canonical", "verbatim"] as const;
/** What a search answers: whole `items` (the default) or only `service_ids`. */
const SEARCH_RETURNS = ["items", "service_ids"] as const;

/** Whether a filter key names a text field, the only fields `text_fields: canonical` loosens. */
export function isTextFieldKey(key: string): boolean {
  return key.startsWith("text_fields.") || key === "fingerprint_parent.customer_item_id";
}

/** The canonical form of a text field: its letters and digits, lower-cased. */
export function canonicalText(value: string): string {
  return value.replace(/[^\p{L}\p{N}]/gu, "").toLowerCase();
}

/** One search filter, with `exclude` and `text_fields` defaulted. */
function searchFilterSchema(version: ApiVersion) {
  const bothAllowed = VERSION_TRAITS[version].filterValueAndValuesAllowed;
  return z
    .looseObject({
      key: safeString().min(1, "must not be empty"),
      value: safeString().optional(),
      values: z.array(safeString()).min(1, "must list at least one value").optional(),
      exclude: z
        .boolean("must be true or false")
        .nullish()
        .transform((b) => b ?? false),
      text_fields: z
        .enum(TEXT_MATCHES, `must be ${TEXT_MATCHES.join(" or ")}`)
        .nullish()
        .transform((t) => t ?? "canonical"),
    })
    .superRefine((filter, ctx) => {
      const hasValue = filter.value !== undefined;
      const hasValues = filter.values !== undefined;
      if (!hasValue && !hasValues) {
        ctx.addIssue({ code: "custom", message: "needs value or values" });
      } else if (hasValue && hasValues && !bothAllowed) {
        ctx.addIssue({ code: "custom", message: `takes exactly one of value or values on API ${version}` });
      }
    });
}

/** A search filter as the schema yields it. */
export type SearchFilter = z.output<ReturnType<typeof searchFilterSchema>>;

/** The values a filter selects: `value` when sent (v2 uses it when both are), else `values`. */
export function filterValues(filter: Pick<SearchFilter, "value" | "values">): readonly string[] {
  return filter.value !== undefined ? [filter.value] : (filter.values ?? []);
}

const RangeBound = z.number("must be Unix epoch seconds or null").int("must be whole seconds").nullish();

/** `range`: earliest and latest creation time, Unix epoch seconds, each end optional and inclusive. */
const SearchRange = z
  .object({ start: RangeBound, end: RangeBound })
  .refine((r) => r.start == null || r.end == null || r.start <= r.end, {
    message: "start must not be after end",
  })
  .nullish()
  .transform((r) => (r ? { start: r.start ?? null, end: r.end ?? null } : null));

const Flag = z.boolean("must be true or false").nullish();

/**
 * The body of authentication or fingerprint search in one generation, every member optional and extra
 * members kept. The output has the defaults applied: `filters` ([] when null), `return`, `limit`
 * (capped on v2), `cursor` and `range` (null when absent), and the image flags the route reads.
 */
export const searchBodySchema = memoize((version: ApiVersion, kind: SessionKind) => {
  const traits = VERSION_TRAITS[version];
  const flags = traits.imageFlags[kind];
  const keys = V1_SEARCH_FILTER_KEYS[kind];
  const imageMembers = {
    ...(flags.includes("return_item_photos")
      ? { format_options: z.looseObject({ return_item_photos: Flag }).nullish() }
      : {}),
    ...(flags.includes("include_images") ? { include_images: Flag } : {}),
  };
  const body = z
    .looseObject({
      filters: z
        .array(searchFilterSchema(version))
        .nullish()
        .transform((f) => f ?? []),
      return: z
        .enum(SEARCH_RETURNS, `must be ${SEARCH_RETURNS.join(" or ")}`)
        .nullish()
        .transform((r) => r ?? "items"),
      limit: pageLimitSchema(traits.searchPage),
      cursor: PageCursor,
      range: SearchRange,
      ...imageMembers,
    })
    .superRefine((b, ctx) => {
      b.filters.forEach((filter, i) => {
        if (traits.restrictsSearchFilterKeys && !keys.includes(filter.key)) {
          ctx.addIssue({
            code: "custom",
            path: ["filters", i, "key"],
            message: `${filter.key} is not a ${kind} search filter on API ${version}; use one of ${keys.join(", ")}`,
          });
        }
      });
      const sent = new Set(b.filters.map((f) => f.key));
      if (sent.has(IDENTIFIER_KEY) && !sent.has(IDENTIFIER_NEEDS)) {
        ctx.addIssue({
          code: "custom",
          path: ["filters"],
          message: `a filter on ${IDENTIFIER_KEY} also needs a filter on ${IDENTIFIER_NEEDS}`,
        });
      }
    });
  return z.preprocess((value) => value ?? {}, body);
});

/** What `searchBodySchema` yields. */
export type SearchBody = z.output<ReturnType<typeof searchBodySchema>>;

/** The image flags in effect for one request, whatever route or member carried them. */
export type ImageRequest = Readonly<Record<ImageFlag, boolean>>;

/** The GET query parameter that carries each image flag (spec 2.5). */
export const IMAGE_QUERY_PARAMS: Readonly<Record<ImageFlag, string>> = {
  return_item_photos: "format_options__return_item_photos",
  include_images: "include_images",
};

/** A boolean query value: `true` or `false` (also `1` and `0`), in any case. */
const QueryBoolean = z
  .string()
  .transform((v) => v.toLowerCase())
  .pipe(z.enum(["true", "false", "1", "0"], "must be true or false"))
  .transform((v) => v === "true" || v === "1");

/**
 * The query of GET and lookup of one kind of session: the image flags its generation reads, each
 * defaulting to false. Other query parameters are ignored.
 */
export const itemQuerySchema = memoize((version: ApiVersion, kind: SessionKind) => {
  const flags = VERSION_TRAITS[version].imageFlags[kind];
  const shape = Object.fromEntries(flags.map((f) => [IMAGE_QUERY_PARAMS[f], QueryBoolean.optional()]));
  return z.looseObject(shape).transform(
    (query): ImageRequest => ({
      return_item_photos: flags.includes("return_item_photos")
        ? query[IMAGE_QUERY_PARAMS.return_item_photos] === true
        : false,
      include_images: flags.includes("include_images")
        ? query[IMAGE_QUERY_PARAMS.include_images] === true
        : false,
    }),
  );
});

/**
 * The image flags a parsed search body asks for, among those its route reads: a member the route does
 * not read (format_options on v1.4 fingerprint search) is an extra member, and asks for nothing.
 */
export function searchImageRequest(version: ApiVersion, kind: SessionKind, body: SearchBody): ImageRequest {
  const reads = VERSION_TRAITS[version].imageFlags[kind];
  const sent = body as {
    format_options?: { return_item_photos?: boolean | null } | null;
    include_images?: boolean | null;
  };
  return {
    return_item_photos:
      reads.includes("return_item_photos") && sent.format_options?.return_item_photos === true,
    include_images: reads.includes("include_images") && sent.include_images === true,
  };
}

/**
 * The form of `item.images` (spec 2.5): `typed` (an array of `{type, url}`), `photos` (region-keyed
 * `images.photos`) or `none` (omitted, unless the token presigns a camera URL). `include_images` wins.
 */
export function imageForm(request: ImageRequest): "typed" | "photos" | "none" {
  if (request.include_images) return "typed";
  if (request.return_item_photos) return "photos";
  return "none";
}

/** Image URLs are temporary: they expire this long after the answer that carried them (spec 2.5, 8). */
export const IMAGE_URL_LIFETIME_SECONDS = 3600;
