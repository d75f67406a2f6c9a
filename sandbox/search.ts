import type { SessionKind } from "../contract/kinds";
import {
  canonicalText,
  filterValues,
  isTextFieldKey,
  type SearchBody,
  type SearchFilter,
} from "../contract/sessions/requests";
import type { ApiCall, SandboxContext } from "./context";
import { lookup } from "./item-path";
import type { Ordering } from "./pagination";
import { parentView } from "./session-view";
import type { SessionRecord } from "./store";

/** Filter keys that name an item member under another path. */
const MEMBER_OF_KEY: Readonly<Record<string, string>> = {
  "fingerprint_parent.customer_item_id": "fingerprint_parent.text_fields.customer_item_id",
};

/** A session's time in Unix seconds: its item's timestamp, which a range and the order go by. */
function epochOf(session: SessionRecord): number {
  const epoch = lookup(session.item, "timestamp.epoch");
  return typeof epoch === "number" ? epoch : session.createdAt / 1000;
}

/** Newest first; sessions of the same time, the later created first. */
export const NEWEST_FIRST: Ordering<SessionRecord> = {
  length: 2,
  keyOf: (s) => [-epochOf(s), -s.seq],
};

function filterMatches(filter: SearchFilter, actual: unknown): boolean {
  const comparable = typeof actual === "string" || typeof actual === "number" || typeof actual === "boolean";
  const loose = isTextFieldKey(filter.key) && filter.text_fields === "canonical";
  const norm = (s: string) => (loose ? canonicalText(s) : s);
  const hit = comparable && filterValues(filter).some((wanted) => norm(String(actual)) === norm(wanted));
  return filter.exclude ? !hit : hit;
}

/**
 * The caller's sessions of one kind that a search body selects, unordered. Filters read the item as the
 * caller sees it, so a parent the caller no longer owns matches no `fingerprint_parent.*` filter.
 */
export function searchSessions(
  ctx: SandboxContext,
  call: ApiCall,
  kind: SessionKind,
  body: SearchBody,
): SessionRecord[] {
  const start = body.range?.start ?? Number.NEGATIVE_INFINITY;
  const end = body.range?.end ?? Number.POSITIVE_INFINITY;
  const readsParent = body.filters.some((f) => f.key.startsWith("fingerprint_parent."));
  const hits: SessionRecord[] = [];
  for (const session of ctx.store.sessions.values()) {
    if (session.kind !== kind || session.organization !== call.token.organization) continue;
    const epoch = epochOf(session);
    if (epoch < start || epoch > end) continue;
    const view = readsParent
      ? { ...session.item, fingerprint_parent: parentView(ctx, call, session).parent }
      : session.item;
    if (body.filters.every((f) => filterMatches(f, lookup(view, MEMBER_OF_KEY[f.key] ?? f.key)))) {
      hits.push(session);
    }
  }
  return hits;
}
