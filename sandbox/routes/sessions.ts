import { z } from "zod";
import type { RouteName } from "../../provider/api/routes";
import type { ApiVersion } from "../../provider/api/versions";
import { type ApiCall, type ApiHandler, parseWith, type SandboxContext } from "../context";
import { lookup } from "../deliveries";
import { invalid, notFound } from "../http-errors";
import { pageOf } from "../pagination";
import { renderItem } from "../render";
import type { SessionKind, SessionRecord } from "../store";

/** v1.4 filter keys per search (spec 4.2); v2's are not shown, so v2 takes any key. */
const V1_KEYS: Record<SessionKind, readonly string[]> = {
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

const SearchFilter = z
  .looseObject({
    key: z.string(),
    value: z.string().optional(),
    values: z.array(z.string()).optional(),
    exclude: z.boolean().default(false),
    text_fields: z.enum(["canonical", "verbatim"]).default("canonical"),
  })
  .refine((f) => (f.value === undefined) !== (f.values === undefined), {
    message: "needs exactly one of value or values",
  });
type SearchFilter = z.output<typeof SearchFilter>;

function searchBody(version: ApiVersion) {
  const limit =
    version === "2.0"
      ? z
          .number()
          .int()
          .min(1, "must be at least 1")
          .transform((n) => Math.min(n, 25))
      : z.number().int().min(1, "must be from 1 to 25").max(25, "must be from 1 to 25");
  return z
    .looseObject({
      filters: z.array(SearchFilter).nullish(),
      return: z.enum(["items", "service_ids"]).nullish(),
      limit: limit.nullish(),
      cursor: z.string().nullish(),
      range: z.object({ start: z.number().int().nullish(), end: z.number().int().nullish() }).nullish(),
    })
    .nullish()
    .transform((b) => b ?? {});
}

const canonical = (s: string) => s.replace(/[^a-z0-9]/gi, "").toLowerCase();

function filterMatches(session: SessionRecord, f: SearchFilter): boolean {
  const actual = lookup(session.item, f.key);
  const wanted = f.value !== undefined ? [f.value] : (f.values ?? []);
  const loose = f.key.startsWith("text_fields.") && f.text_fields === "canonical";
  const hit = wanted.some((w) =>
    loose ? canonical(String(actual ?? "")) === canonical(w) : String(actual) === w,
  );
  return f.exclude ? !hit : hit;
}

function ownSessions(ctx: SandboxContext, call: ApiCall, kind: SessionKind): SessionRecord[] {
  return [...ctx.store.sessions.values()]
    .filter((s) => s.kind === kind && s.organization === call.token.organization)
    .sort((a, b) => b.createdAt - a.createdAt);
}

function itemWithParent(ctx: SandboxContext, call: ApiCall, session: SessionRecord) {
  const item = renderItem(session, call.version);
  const parentRef = session.item.fingerprint_parent as { service_id?: string } | undefined;
  if (session.kind !== "fingerprint" || parentRef?.service_id === undefined) return { item };
  const parent = ctx.store.sessions.get(parentRef.service_id);
  if (!parent || parent.organization !== call.token.organization) {
    return {
      item: { ...item, fingerprint_parent: {} },
      warnings: [
        {
          code: "fingerprint_parent_not_authorized",
          message: "the parent fingerprint is no longer registered to you",
        },
      ],
    };
  }
  const prefix = call.version === "2.0" ? "/v2" : "/v1";
  return {
    item: {
      ...item,
      fingerprint_parent: {
        activity: parent.item.activity,
        service_id: parent.serviceId,
        text_fields: { customer_item_id: lookup(parent.item, "text_fields.customer_item_id") },
        url: `${prefix}/fingerprints/${parent.serviceId}`,
      },
    },
  };
}

const getOne =
  (kind: SessionKind): ApiHandler =>
  (call, ctx) => {
    const session = ctx.store.sessions.get(call.params.service_id!);
    if (!session || session.kind !== kind || session.organization !== call.token.organization) {
      throw notFound(`${kind} ${call.params.service_id}`);
    }
    return itemWithParent(ctx, call, session);
  };

const lookupAuthentication: ApiHandler = (call, ctx) => {
  const wanted = call.params.lookup_value!;
  const candidates = ownSessions(ctx, call, "authentication").filter(
    (s) => lookup(s.item, "text_fields.customer_item_id") === wanted,
  );
  // v1.4 prefers the first final result; v2 returns the latest.
  const finals = candidates.filter((s) => lookup(s.item, "status.result.final") === true);
  const chosen = call.version === "1.4" && finals.length > 0 ? finals[finals.length - 1] : candidates[0];
  if (!chosen) throw notFound(`authentication for ${wanted}`);
  return { item: renderItem(chosen, call.version) };
};

const search =
  (kind: SessionKind): ApiHandler =>
  (call, ctx) => {
    const body = parseWith(searchBody(call.version), call.body);
    const filters = body.filters ?? [];
    if (call.version === "1.4") {
      const bad = filters.find((f) => !V1_KEYS[kind].includes(f.key));
      if (bad)
        throw invalid(`filter key ${bad.key} is not searchable`, [
          { field: "filters.key", message: `${bad.key} is not allowed` },
        ]);
      const keys = new Set(filters.map((f) => f.key));
      if (keys.has("text_fields.identifier") && !keys.has("properties.brand.id")) {
        throw invalid("filtering on text_fields.identifier also needs a properties.brand.id filter");
      }
    }
    const start = body.range?.start ?? Number.NEGATIVE_INFINITY;
    const end = body.range?.end ?? Number.POSITIVE_INFINITY;
    const hits = ownSessions(ctx, call, kind).filter(
      (s) =>
        s.createdAt / 1000 >= start && s.createdAt / 1000 <= end && filters.every((f) => filterMatches(s, f)),
    );
    const page = pageOf(hits, body.limit ?? 25, body.cursor ?? null);
    if (body.return === "service_ids") {
      return {
        service_id_count: page.items.length,
        service_ids: page.items.map((s) => s.serviceId),
        next_cursor: page.next_cursor,
      };
    }
    return {
      item_count: page.items.length,
      items: page.items.map((s) => renderItem(s, call.version)),
      next_cursor: page.next_cursor,
    };
  };

export const sessionHandlers = {
  v1GetAuthentication: getOne("authentication"),
  v2GetAuthentication: getOne("authentication"),
  v1LookupAuthentication: lookupAuthentication,
  v2LookupAuthentication: lookupAuthentication,
  v1SearchAuthentications: search("authentication"),
  v2SearchAuthentications: search("authentication"),
  v1GetFingerprint: getOne("fingerprint"),
  v2GetFingerprint: getOne("fingerprint"),
  v1SearchFingerprints: search("fingerprint"),
  v2SearchFingerprints: search("fingerprint"),
} satisfies Partial<Record<RouteName, ApiHandler>>;
