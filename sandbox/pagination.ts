import { listPageBodySchema } from "../contract/pages";
import { type ApiCall, parseWith } from "./context";
import { invalid } from "./http-errors";

/**
 * Keyset pagination: a cursor holds the sort key of the last item it showed, and the next page starts
 * after that key. Pages stay stateless, and an item created or removed between two pages moves no
 * other item across a page boundary, as an offset would.
 */

/** A sort key: compared element by element, smallest first. */
type SortKey = readonly number[];

/** How a listing is ordered: the sort key of each item, always `length` numbers long. */
export interface Ordering<T> {
  readonly length: number;
  keyOf(item: T): SortKey;
}

function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

function encodeCursor(key: SortKey): string {
  return Buffer.from(JSON.stringify({ after: key })).toString("base64url");
}

function decodeCursor(cursor: string, length: number): SortKey {
  try {
    const { after } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { after: unknown };
    if (
      Array.isArray(after) &&
      after.length === length &&
      after.every((n) => typeof n === "number" && Number.isFinite(n))
    ) {
      return after;
    }
  } catch {
    // fall through to the error below
  }
  throw invalid("cursor is not one this service issued; send the next_cursor of the previous page, or null", [
    { field: "cursor", message: "is not a valid cursor" },
  ]);
}

/** One page of results and the cursor of the next one (null on the last page). */
interface PageOf<T> {
  readonly items: T[];
  readonly next_cursor: string | null;
}

function keyedInOrder<T>(all: readonly T[], ordering: Ordering<T>): { item: T; key: SortKey }[] {
  return all.map((item) => ({ item, key: ordering.keyOf(item) })).sort((a, b) => compareKeys(a.key, b.key));
}

/** `all`, sorted by `ordering`. */
export function inOrder<T>(all: readonly T[], ordering: Ordering<T>): T[] {
  return keyedInOrder(all, ordering).map((k) => k.item);
}

/** The page of `all`, in `ordering`, that follows `cursor`. */
export function pageOf<T>(
  all: readonly T[],
  limit: number,
  cursor: string | null,
  ordering: Ordering<T>,
): PageOf<T> {
  const keyed = keyedInOrder(all, ordering);
  const after = cursor === null ? undefined : decodeCursor(cursor, ordering.length);
  const start = after === undefined ? 0 : keyed.findIndex((k) => compareKeys(k.key, after) > 0);
  const from = start < 0 ? keyed.length : start;
  const page = keyed.slice(from, from + limit);
  const more = from + limit < keyed.length;
  return { items: page.map((k) => k.item), next_cursor: more ? encodeCursor(page.at(-1)!.key) : null };
}

const CREATION_ORDER: Ordering<{ readonly seq: number }> = { length: 1, keyOf: (item) => [item.seq] };

/** A webhook or domain search answer: the list envelope of one page, oldest first. */
export function listEnvelope<T extends { readonly seq: number }>(
  call: ApiCall,
  all: readonly T[],
  render: (item: T) => unknown,
) {
  const { limit, cursor } = parseWith(listPageBodySchema(call.version), call.body);
  const page = pageOf<T>(all, limit, cursor, CREATION_ORDER);
  return { item_count: page.items.length, items: page.items.map(render), next_cursor: page.next_cursor };
}
