import type { SessionKind } from "../../contract/kinds";
import { itemQuerySchema, searchBodySchema, searchImageRequest } from "../../contract/sessions/requests";
import { VERSION_TRAITS } from "../../contract/versions";
import type { RouteName } from "../../provider/client/index";
import { type ApiCall, type ApiHandler, parseWith, type SandboxContext } from "../context";
import { notFound } from "../http-errors";
import { lookup } from "../item-path";
import { inOrder, pageOf } from "../pagination";
import { NEWEST_FIRST, searchSessions } from "../search";
import { viewItem } from "../session-view";
import type { SessionRecord } from "../store";

/** `{item}`, plus `warnings` when part of the item is unavailable to the caller. */
function itemAnswer(ctx: SandboxContext, call: ApiCall, session: SessionRecord, kind: SessionKind) {
  const images = parseWith(itemQuerySchema(call.version, kind), call.query);
  const { item, warnings } = viewItem(ctx, call, session, images);
  return warnings.length > 0 ? { item, warnings } : { item };
}

const getOne =
  (kind: SessionKind): ApiHandler =>
  (call, ctx) => {
    const session = ctx.store.sessions.get(call.params.service_id!);
    if (!session || session.kind !== kind || session.organization !== call.token.organization) {
      throw notFound(`${kind} ${call.params.service_id}`);
    }
    return itemAnswer(ctx, call, session, kind);
  };

/**
 * Lookup by customer item id: v1.4 answers the first authentication with a final result, else the
 * latest; v2 the latest.
 */
const lookupAuthentication: ApiHandler = (call, ctx) => {
  const wanted = call.params.lookup_value!;
  const newestFirst = inOrder(
    [...ctx.store.sessions.values()].filter(
      (s) =>
        s.kind === "authentication" &&
        s.organization === call.token.organization &&
        lookup(s.item, "text_fields.customer_item_id") === wanted,
    ),
    NEWEST_FIRST,
  );
  const firstFinal = newestFirst.findLast((s) => lookup(s.item, "status.result.final") === true);
  const chosen = (VERSION_TRAITS[call.version].lookupPrefersFinal ? firstFinal : undefined) ?? newestFirst[0];
  if (!chosen) throw notFound(`authentication with customer item id ${wanted}`);
  return itemAnswer(ctx, call, chosen, "authentication");
};

const search =
  (kind: SessionKind): ApiHandler =>
  (call, ctx) => {
    const body = parseWith(searchBodySchema(call.version, kind), call.body);
    const page = pageOf(searchSessions(ctx, call, kind, body), body.limit, body.cursor, NEWEST_FIRST);
    if (body.return === "service_ids") {
      return {
        service_id_count: page.items.length,
        service_ids: page.items.map((s) => s.serviceId),
        next_cursor: page.next_cursor,
      };
    }
    const images = searchImageRequest(call.version, kind, body);
    const views = page.items.map((s) => viewItem(ctx, call, s, images));
    const warnings = views.flatMap((v) => v.warnings);
    return {
      item_count: views.length,
      items: views.map((v) => v.item),
      next_cursor: page.next_cursor,
      ...(warnings.length > 0 ? { warnings } : {}),
    };
  };

/** The handlers of the session read routes. */
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
