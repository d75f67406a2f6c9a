import { z } from "zod";
import { VERSION_TRAITS } from "../provider/api/versions";
import { type ApiCall, parseWith } from "./context";
import { invalid } from "./http-errors";

/** Opaque cursors: the offset of the next page, so listings stay stateless. */
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString("base64url");
}

function decodeCursor(cursor: string): number {
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { offset: unknown };
    if (typeof offset === "number" && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // fall through to the error below
  }
  throw invalid("cursor is not one this service issued", [
    { field: "cursor", message: "is not a valid cursor" },
  ]);
}

export function pageBodySchema(rule: { min: number; max: number; default: number }, capAtMax = false) {
  const limit = capAtMax
    ? z
        .number()
        .int()
        .min(rule.min, `must be at least ${rule.min}`)
        .transform((n) => Math.min(n, rule.max))
    : z
        .number()
        .int()
        .min(rule.min, `must be from ${rule.min} to ${rule.max}`)
        .max(rule.max, `must be from ${rule.min} to ${rule.max}`);
  return z
    .looseObject({
      limit: limit.nullish().transform((n) => n ?? rule.default),
      cursor: z
        .string()
        .nullish()
        .transform((c) => c ?? null),
    })
    .nullish()
    .transform((b) => b ?? { limit: rule.default, cursor: null });
}

export interface PageOf<T> {
  readonly items: T[];
  readonly next_cursor: string | null;
}

export function pageOf<T>(all: readonly T[], limit: number, cursor: string | null): PageOf<T> {
  const offset = cursor === null ? 0 : decodeCursor(cursor);
  const items = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? encodeCursor(offset + limit) : null;
  return { items, next_cursor: next };
}

/** A webhook or domain search answer: the list envelope of one page. */
export function listEnvelope<T>(call: ApiCall, all: readonly T[], render: (item: T) => unknown) {
  const { limit, cursor } = parseWith(pageBodySchema(VERSION_TRAITS[call.version].listPage), call.body);
  const page = pageOf(all, limit, cursor);
  return { item_count: page.items.length, items: page.items.map(render), next_cursor: page.next_cursor };
}
