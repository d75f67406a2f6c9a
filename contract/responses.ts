import { z } from "zod";
import type * as Shapes from "./common-types";
import { exactly } from "./common-types";

/**
 * The response schemas every API area shares: the timestamp object, the owner of a webhook or domain, the
 * list envelope and `{status}`.
 * Objects are not strict and enums are plain strings: the spec lets the service add keys and values at
 * any time, and a client must not break when it does.
 */
export const Timestamp = exactly<Shapes.Timestamp>()(z.object({ display: z.string(), epoch: z.number() }));

/** `webhook_owner` and `domain_owner` (spec 2.6, 2.7). */
export const WireOwner = exactly<Shapes.WireOwner>()(
  z.object({
    organization: z.object({ name: z.string() }),
    user: z.object({ username: z.string() }).optional(),
  }),
);

/** A list envelope (spec 4.1): `{item_count, items, next_cursor}`; a missing count is the page's length. */
export function ListEnvelope<T extends z.ZodType>(item: T) {
  return z
    .object({
      item_count: z.number().optional(),
      items: z.array(item),
      next_cursor: z.string().nullish(),
    })
    .transform((page) => ({
      item_count: page.item_count ?? page.items.length,
      items: page.items,
      next_cursor: page.next_cursor ?? null,
    }));
}

export const StatusOk = exactly<Shapes.StatusOk>()(z.object({ status: z.string() }));
