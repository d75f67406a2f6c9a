/**
 * What a webhook delivers, in plain words: which records (activity, form factors, usernames), on which
 * channel, to which endpoint. Review and audit print webhooks this way, never as filter JSON. Each value
 * from the input (an endpoint, a channel, a filter's key and values) is a code span in these sentences.
 */
import type { FilterView } from "./objects";
import { codeSpan } from "./untrusted";

/** A webhook as the commands describe it. */
export interface WebhookView {
  /** Its webhook_uuid, when it exists. */
  readonly uuid: string | undefined;
  /** Where deliveries go; undefined while it is known only after the update, or when it is secret. */
  readonly endpoint: string | undefined;
  /**
   * The members a state keeps secret (`endpoint`, `channel`, `filters`): they are there, but never read, so
   * never shown, and never taken for their defaults.
   */
  readonly hidden?: readonly string[];
  readonly channel: string;
  readonly filters: readonly FilterView[];
}

/** The engine's placeholder for a value known only after the update. */
const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const KEYS: Readonly<Record<string, readonly [string, string]>> = {
  "activity.form_factor": ["form factor", "form factors"],
  "owner.user.username": ["user", "users"],
};

const or = (values: readonly string[]) =>
  values.length <= 1 ? (values[0] ?? "") : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;

/** The records a webhook's filters select: "`authentication` records of form factor `lightbox`". */
function recordsOf(filters: readonly FilterView[]): string {
  const activity = filters.find((f) => f.key === "activity.name")?.values ?? [];
  const kinds = activity.length === 0 ? "all" : activity.map((v) => codeSpan(v)).join(" and ");
  const narrowing = filters
    .filter((f) => f.key !== "activity.name")
    .map((f) => {
      // Own members only: a key such as "constructor" is the input's, not the table's.
      const [one, many] = Object.hasOwn(KEYS, f.key) ? KEYS[f.key]! : [codeSpan(f.key), codeSpan(f.key)];
      return `${f.values.length > 1 ? many : one} ${or(f.values.map((v) => codeSpan(v)))}`;
    });
  return `${kinds} records${narrowing.length ? ` of ${narrowing.join(" and ")}` : ""}`;
}

const isHidden = (view: WebhookView, member: string) => view.hidden?.includes(member) === true;

/** "`authentication` records on channel `orders`"; "the records its secret filters select on a secret channel". */
export const deliveryOf = (view: WebhookView) =>
  `${isHidden(view, "filters") ? "the records its secret filters select" : recordsOf(view.filters)} on ${isHidden(view, "channel") ? "a secret channel" : `channel ${codeSpan(view.channel)}`}`;

/** The endpoint, undefined while it is known only after the update. */
const knownEndpoint = (view: WebhookView) => (view.endpoint === UNKNOWN_VALUE ? undefined : view.endpoint);

/** The endpoint as a report's sentence names it: a code span, or words when it is secret or not known yet. */
export const endpointOf = (view: WebhookView) => {
  if (isHidden(view, "endpoint")) return "a secret endpoint";
  const endpoint = knownEndpoint(view);
  return endpoint === undefined ? "an endpoint known only after the update" : codeSpan(endpoint);
};

/** The members that say where and what a webhook delivers. */
const DELIVERY_MEMBERS = ["endpoint", "channel", "filters"];

/**
 * Whether two webhooks deliver the same records on the same channel to the same endpoint; a secret member
 * cannot be compared, so it is never the same.
 */
export function sameDelivery(a: WebhookView, b: WebhookView): boolean {
  // Compared whole: two values that differ past the length a report shows are still different.
  return (
    !DELIVERY_MEMBERS.some((member) => isHidden(a, member) || isHidden(b, member)) &&
    knownEndpoint(a) === knownEndpoint(b) &&
    a.channel === b.channel &&
    JSON.stringify(a.filters) === JSON.stringify(b.filters)
  );
}
