import { z } from "zod";
import type { SandboxContext } from "./context";
import { matches } from "./deliveries";
import { invalid } from "./http-errors";
import { timestamp } from "./render";
import type { SessionKind, SessionRecord } from "./store";

export const SessionUpsert = z.object({
  organization: z.string().min(1),
  kind: z.enum(["authentication", "fingerprint"]),
  /** Omit to create a session; give an existing id to change it. */
  service_id: z.string().min(1).optional(),
  /** Owner username; defaults to the organization's first user. */
  user: z.string().optional(),
  /** Members merged into the item (deeply), for example `{status: {result: {id: "unidentified"}}}`. */
  item: z.record(z.string(), z.unknown()).default({}),
});
export type SessionUpsert = z.input<typeof SessionUpsert>;

function defaultItem(
  kind: SessionKind,
  organization: string,
  username: string,
  serviceId: string,
  now: number,
) {
  const common = {
    service_id: serviceId,
    owner: { organization: { name: organization }, user: { username } },
    text_fields: { customer_item_id: `item-${serviceId.slice(0, 8)}` },
    timestamp: timestamp(now),
  };
  const v2Status = {
    flag: null,
    flag_reason_id: null,
    flag_reason_display: null,
    flag_message: null,
    retake: null,
  };
  if (kind === "fingerprint") {
    return {
      ...common,
      activity: { name: "fingerprint", mode: "register", form_factor: "microscopic" },
      status: { ...v2Status, result: { id: "registered", display: "Registered", final: true } },
    };
  }
  return {
    ...common,
    activity: {
      name: "authentication",
      form_factor: "microscopic",
      product_category: "luxury",
      product_group: "bags",
    },
    certificate: {
      preview: `https://certificates.sandbox.invalid/${serviceId}/preview`,
      site: `https://certificates.sandbox.invalid/${serviceId}`,
    },
    properties: {
      brand: { id: "sandbox-brand", display: "Sandbox Brand" },
      material: { id: "leather", display: "Leather" },
    },
    status: { ...v2Status, result: { id: "authentic", display: "Authentic", final: true } },
    text_fields: { ...common.text_fields, identifier: "" },
  };
}

/** Creates or changes a session, then delivers it to every matching active webhook of its organization. */
export function upsertSession(ctx: SandboxContext, input: SessionUpsert): SessionRecord {
  const request = SessionUpsert.parse(input);
  const users = ctx.store.users.get(request.organization);
  if (!users) throw invalid(`organization ${request.organization} is not in the seed`);
  const username = request.user ?? [...users][0] ?? `${request.organization}-api`;
  const session = ctx.store.upsertSession(
    request.organization,
    request.kind,
    request.service_id,
    request.item,
    (id) => defaultItem(request.kind, request.organization, username, id, ctx.clock.now()),
  );
  for (const hook of ctx.store.activeWebhooks(request.organization)) {
    if (matches(hook, session)) ctx.deliverer.deliver(hook, session);
  }
  return session;
}
