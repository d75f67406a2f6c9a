import { z } from "zod";
import type * as Shapes from "./shapes";
import { exactly } from "./shapes";

/**
 * Shapes of what the service answers. Objects are not strict and enums are plain strings: the spec
 * lets the service add keys and values at any time, and a client must not break when it does.
 */
export const Timestamp = exactly<Shapes.Timestamp>()(z.object({ display: z.string(), epoch: z.number() }));

export const WireOwner = exactly<Shapes.WireOwner>()(
  z.object({
    organization: z.object({ name: z.string() }),
    user: z.object({ username: z.string() }).optional(),
  }),
);

export const WireFilter = exactly<Shapes.WireFilter>()(
  z.object({
    key: z.string(),
    value: z.string().optional(),
    values: z.array(z.string()).optional(),
  }),
);

/** A webhook of either generation, in its own wire names: `create_timestamp` (1.4) or `create_time` (2.0). */
export const Webhook = exactly<Shapes.Webhook>()(
  z.object({
    webhook_uuid: z.string(),
    // The spec's default, filled in when the service sends none or null.
    channel: z
      .string()
      .nullish()
      .transform((c) => c ?? "default"),
    endpoint: z.object({ type: z.string(), value: z.string() }),
    filters: z.array(WireFilter).default([]),
    webhook_owner: WireOwner.optional(),
    create_timestamp: Timestamp.optional(),
    create_time: Timestamp.optional(),
    format_options: z.record(z.string(), z.unknown()).optional(),
  }),
);

export const Domain = exactly<Shapes.Domain>()(
  z.object({
    domain_uuid: z.string(),
    domain_name: z.string(),
    domain_owner: WireOwner.optional(),
    create_timestamp: Timestamp.optional(),
    create_time: Timestamp.optional(),
    verifier: z.string().optional(),
  }),
);

export const DomainRegistrationStart = exactly<Shapes.DomainRegistrationStart>()(
  z.object({
    domain_name: z.string(),
    url: z.string(),
    verifier: z.string(),
    register_token: z.string(),
    expires_at: z.string(),
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
