import { z } from "zod";
import { exactlyInput } from "../contract/common-types";
import { SESSION_KINDS, type SessionKind } from "../contract/kinds";
import { DEFAULT_LANGUAGE } from "../contract/languages";
import { parseWith, type SandboxContext } from "./context";
import { matches } from "./deliveries";
import { timestamp } from "./display";
import { invalid } from "./http-errors";
import { lookup } from "./item-path";
import type { SessionUpsert as SessionUpsertShape } from "./public-types";
import type { SessionRecord } from "./store";

/** The body of `POST /_sandbox/sessions` and the argument of `upsertSession`. */
export const SessionUpsert = exactlyInput<SessionUpsertShape>()(
  z.object({
    organization: z.string().min(1),
    kind: z.enum(SESSION_KINDS),
    /** Omit to create a session; give an existing id to change it. */
    service_id: z.string().min(1).optional(),
    /** Owner username; defaults to the organization's first user. */
    user: z.string().optional(),
    /** Members merged into the item (deeply), for example `{status: {result: {id: "unidentified"}}}`. */
    item: z.record(z.string(), z.unknown()).default({}),
  }),
);

/**
 * A new session's item before the caller's members are merged in. Its shape follows the members that
 * decide it: a compare fingerprint gets a `match` result, a lightbox authentication the sneaker fields.
 */
function defaultItem(
  kind: SessionKind,
  organization: string,
  username: string,
  serviceId: string,
  now: number,
  patch: Record<string, unknown>,
) {
  const common = {
    service_id: serviceId,
    owner: { organization: { name: organization }, user: { username } },
    text_fields: { customer_item_id: `item-${serviceId.slice(0, 8)}` },
    timestamp: timestamp(now, DEFAULT_LANGUAGE),
  };
  const v2Status = {
    flag: null,
    flag_reason_id: null,
    flag_reason_display: null,
    flag_message: null,
    retake: null,
  };
  if (kind === "fingerprint") {
    const mode = lookup(patch, "activity.mode") === "compare" ? "compare" : "register";
    const result = mode === "compare" ? "match" : "registered";
    return {
      ...common,
      activity: { name: "fingerprint", mode, form_factor: "microscopic" },
      status: { ...v2Status, result: { id: result, display: result, final: true } },
    };
  }
  const sneaker = lookup(patch, "activity.form_factor") === "lightbox";
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
      brand: { id: "sandbox-brand", display: "sandbox-brand" },
      material: { id: "leather", display: "leather" },
    },
    status: { ...v2Status, result: { id: "authentic", display: "authentic", final: true } },
    text_fields: {
      ...common.text_fields,
      identifier: "",
      ...(sneaker ? { style_code: "SB-0001", us_size: "9" } : {}),
    },
  };
}

/**
 * `patch` with the display of every `{id}` it changes cleared, so a changed id never keeps the display
 * of the id it replaced; rendering then shows the new id's display.
 */
function clearReplacedDisplays(patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    out[key] =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? clearReplacedDisplays(value as Record<string, unknown>)
        : value;
  }
  if (typeof out.id === "string" && !("display" in out)) out.display = undefined;
  return out;
}

/** Creates or changes a session, then delivers it to every matching active webhook of its organization. */
export function upsertSession(ctx: SandboxContext, input: SessionUpsertShape): SessionRecord {
  const request = parseWith(SessionUpsert, input);
  const users = ctx.store.users.get(request.organization);
  if (!users) {
    throw invalid(
      `organization ${request.organization} is not in the seed; name one of the seed's organizations`,
    );
  }
  const username = request.user ?? [...users][0] ?? `${request.organization}-api`;
  const session = ctx.store.upsertSession(
    request.organization,
    request.kind,
    request.service_id,
    clearReplacedDisplays(request.item),
    (id) => defaultItem(request.kind, request.organization, username, id, ctx.clock.now(), request.item),
  );
  for (const hook of ctx.store.activeWebhooks(request.organization)) {
    if (matches(hook, session)) ctx.deliverer.deliver(hook, session);
  }
  return session;
}
