import { z } from "zod";
import { exactly } from "../common-types";
import { Timestamp, WireOwner } from "../responses";
import type * as Shapes from "./types";

/**
 * What the service responds about webhooks (spec 2.6), read into the wire shapes of ./types.ts. Objects
 * are not strict and enums are plain strings: the service may add keys and values at any time.
 */
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
