import { z } from "zod";
import type { SessionKind } from "../kinds";
import type { ApiVersion } from "../versions";
import {
  AuthenticationItemV1Schema,
  AuthenticationItemV2Schema,
  FingerprintItemV1Schema,
  FingerprintItemV2Schema,
  ItemWarningSchema,
} from "./item-responses";
import type { ItemWarning } from "./item-types";
import type { ItemAnswer, ItemPage, ServiceIdPage, SessionItems } from "./types";

/**
 * The responses of the session routes (spec 4.1 to 4.3) as the client reads them: GET and lookup's
 * `{item, warnings}`, and the two search envelopes. Items keep the service's names; the envelopes are
 * in the wire shapes of types.ts, each schema typed as the interface it yields.
 */

/** `warnings` beside an item or a page: absent means none. */
const Warnings = z
  .array(ItemWarningSchema)
  .nullish()
  .transform((w): ItemWarning[] => w ?? []);

function responseOf<T>(item: z.ZodType<T>): z.ZodType<ItemAnswer<T>> {
  return z.object({ item, warnings: Warnings });
}

function pageOf<T>(item: z.ZodType<T>): z.ZodType<ItemPage<T>> {
  return z
    .object({
      item_count: z.number().int().optional(),
      items: z.array(item),
      next_cursor: z.string().nullish(),
      warnings: Warnings,
    })
    .transform((p) => ({
      items: p.items,
      item_count: p.item_count ?? p.items.length,
      next_cursor: p.next_cursor ?? null,
      warnings: p.warnings,
    }));
}

/** The responses of GET, lookup and search that read one kind of item. */
export interface SessionResponseSchemas<T> {
  /** GET and lookup: `{item, warnings}`. */
  readonly one: z.ZodType<ItemAnswer<T>>;
  /** Search with `return: "items"`: the items envelope of spec 4.1. */
  readonly page: z.ZodType<ItemPage<T>>;
}

function responsesFor<T>(item: z.ZodType<T>): SessionResponseSchemas<T> {
  return { one: responseOf(item), page: pageOf(item) };
}

/** The response schemas of each kind of session in each API version. */
export const SESSION_RESPONSES: {
  readonly [K in SessionKind]: Readonly<Record<ApiVersion, SessionResponseSchemas<SessionItems[K]>>>;
} = {
  authentication: {
    "1.4": responsesFor(AuthenticationItemV1Schema),
    "2.0": responsesFor(AuthenticationItemV2Schema),
  },
  fingerprint: { "1.4": responsesFor(FingerprintItemV1Schema), "2.0": responsesFor(FingerprintItemV2Schema) },
};

/** A search page with `return: "service_ids"`: `{service_id_count, service_ids, next_cursor}`. */
export const ServiceIdPageSchema = z
  .object({
    service_id_count: z.number().int().optional(),
    service_ids: z.array(z.string()),
    next_cursor: z.string().nullish(),
  })
  .transform(
    (p): ServiceIdPage => ({
      service_ids: p.service_ids,
      service_id_count: p.service_id_count ?? p.service_ids.length,
      next_cursor: p.next_cursor ?? null,
    }),
  );
