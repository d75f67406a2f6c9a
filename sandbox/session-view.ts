import { fillPath } from "../contract/path";
import type { ImageRequest } from "../contract/sessions/requests";
import { ROUTES } from "../provider/client/index";
import type { ApiCall, SandboxContext } from "./context";
import { localize } from "./display";
import { renderImages } from "./images";
import { lookup } from "./item-path";
import { baseItem } from "./render";
import type { SessionRecord } from "./store";

/** A stored id the contract refuses in a path is the sandbox's own fault: its answer is a 500. */
const refuseOwnId = (problem: string) => new Error(problem);

/** A note on a successful answer that part of an item is unavailable (spec 2.3). */
interface Warning {
  readonly code: string;
  readonly message: string;
  /** The item the warning is about; search answers carry warnings for several items. */
  readonly service_id: string;
}

/** What a caller sees of a fingerprint's parent: nothing, the parent, or `{}` with a warning. */
interface ParentView {
  readonly parent?: Record<string, unknown>;
  readonly warning?: Warning;
}

/**
 * The `fingerprint_parent` of a compare fingerprint as this caller may see it (spec 2.3): the parent's
 * activity, id, customer item id and GET address when the caller's organization owns it, else `{}`
 * and the `fingerprint_parent_not_authorized` warning. Register items carry none.
 */
export function parentView(ctx: SandboxContext, call: ApiCall, session: SessionRecord): ParentView {
  if (session.kind !== "fingerprint" || lookup(session.item, "activity.mode") !== "compare") return {};
  const parentId = lookup(session.item, "fingerprint_parent.service_id");
  if (typeof parentId !== "string") return {};
  const parent = ctx.store.sessions.get(parentId);
  if (parent?.kind !== "fingerprint" || parent.organization !== call.token.organization) {
    return {
      parent: {},
      warning: {
        code: "fingerprint_parent_not_authorized",
        message: `the parent of fingerprint ${session.serviceId} is no longer registered to your organization, so fingerprint_parent is empty`,
        service_id: session.serviceId,
      },
    };
  }
  const getParent = call.version === "1.4" ? ROUTES.v1GetFingerprint : ROUTES.v2GetFingerprint;
  return {
    parent: {
      activity: {
        form_factor: lookup(parent.item, "activity.form_factor"),
        mode: lookup(parent.item, "activity.mode"),
        name: lookup(parent.item, "activity.name"),
      },
      service_id: parent.serviceId,
      text_fields: { customer_item_id: lookup(parent.item, "text_fields.customer_item_id") },
      url: `${call.origin}${fillPath(getParent.path, { service_id: parent.serviceId }, refuseOwnId)}`,
    },
  };
}

/** An item as GET and search show it to this caller, with the warnings that go with it. */
export function viewItem(
  ctx: SandboxContext,
  call: ApiCall,
  session: SessionRecord,
  images: ImageRequest,
): { item: Record<string, unknown>; warnings: Warning[] } {
  const item = baseItem(session, call.version);
  const { parent, warning } = parentView(ctx, call, session);
  if (parent) item.fingerprint_parent = parent;
  const rendered = renderImages(
    ctx.images,
    call.origin,
    session.serviceId,
    images,
    call.token.presignCameraUrl,
  );
  if (rendered !== undefined) item.images = rendered;
  return { item: localize(item, call.language), warnings: warning ? [warning] : [] };
}
