import { z } from "zod";
import type * as Shapes from "./shapes";
import { exactly } from "./shapes";

/**
 * Shapes of what the service answers. Objects are not strict and enums are plain strings: the spec
 * lets the service add keys and values at any time, and a client must not break when it does.
 */
export const Timestamp = exactly<Shapes.Timestamp>()(z.object({ display: z.string(), epoch: z.number() }));

const WireOwnerField = z.object({
  organization: z.object({ name: z.string() }),
  user: z.object({ username: z.string() }).optional(),
});

export const Owner = exactly<Shapes.Owner>()(
  WireOwnerField.transform((o) => ({
    organization: o.organization.name,
    username: o.user?.username ?? "",
  })),
);

export const WireFilter = exactly<Shapes.WireFilter>()(
  z.object({
    key: z.string(),
    value: z.string().optional(),
    values: z.array(z.string()).optional(),
  }),
);

/** Both generations' webhook shapes, folded into one model (`create_timestamp` and `create_time` alike). */
export const Webhook = exactly<Shapes.Webhook>()(
  z
    .object({
      webhook_uuid: z.string(),
      channel: z.string().nullish(),
      endpoint: z.object({ type: z.string(), value: z.string() }),
      filters: z.array(WireFilter).default([]),
      webhook_owner: Owner.optional(),
      create_timestamp: Timestamp.optional(),
      create_time: Timestamp.optional(),
    })
    .transform((w) => ({
      webhookUuid: w.webhook_uuid,
      channel: w.channel ?? "default",
      endpoint: w.endpoint.value,
      filters: w.filters,
      owner: w.webhook_owner ?? { organization: "", username: "" },
      createTime: w.create_time ?? w.create_timestamp,
    })),
);

export const Domain = exactly<Shapes.Domain>()(
  z
    .object({
      domain_uuid: z.string(),
      domain_name: z.string(),
      domain_owner: Owner.optional(),
      create_timestamp: Timestamp.optional(),
      create_time: Timestamp.optional(),
      verifier: z.string().optional(),
    })
    .transform((d) => ({
      domainUuid: d.domain_uuid,
      domainName: d.domain_name,
      owner: d.domain_owner ?? { organization: "", username: "" },
      createTime: d.create_time ?? d.create_timestamp,
      verifier: d.verifier,
    })),
);

export const DomainRegistrationStart = exactly<Shapes.DomainRegistrationStart>()(
  z
    .object({
      domain_name: z.string(),
      url: z.string(),
      verifier: z.string(),
      register_token: z.string(),
      expires_at: z.string(),
    })
    .transform((s) => ({
      domainName: s.domain_name,
      url: s.url,
      verifier: s.verifier,
      registerToken: s.register_token,
      expiresAt: s.expires_at,
    })),
);

export function ListEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    item_count: z.number().optional(),
    items: z.array(item),
    next_cursor: z.string().nullish(),
  });
}

export const StatusOk = exactly<Shapes.StatusOk>()(z.object({ status: z.string() }));
