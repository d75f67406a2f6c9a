/**
 * What a webhook delivers, in plain words: which records (activity, form factors, usernames), on which
 * channel, to which endpoint. Review and audit print webhooks this way, never as filter JSON.
 */
import type { FilterView } from "./objects";

/** A webhook as the commands describe it. */
export interface WebhookView {
  /** Its webhook_uuid, when it exists. */
  readonly uuid: string | undefined;
  /** Where deliveries go; undefined while it is known only after the update. */
  readonly endpoint: string | undefined;
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

/** The records a webhook's filters select: "authentication records of form factor lightbox". */
function recordsOf(filters: readonly FilterView[]): string {
  const activity = filters.find((f) => f.key === "activity.name")?.values ?? [];
  const kinds = activity.length === 0 ? "all" : activity.join(" and ");
  const narrowing = filters
    .filter((f) => f.key !== "activity.name")
    .map((f) => {
      const [one, many] = KEYS[f.key] ?? [f.key, f.key];
      return `${f.values.length > 1 ? many : one} ${or(f.values)}`;
    });
  return `${kinds} records${narrowing.length ? ` of ${narrowing.join(" and ")}` : ""}`;
}

/** "authentication records on channel orders". */
export const deliveryOf = (view: WebhookView) => `${recordsOf(view.filters)} on channel ${view.channel}`;

/** The endpoint as a report prints it. */
export const endpointOf = (view: WebhookView) =>
  view.endpoint === undefined || view.endpoint === UNKNOWN_VALUE
    ? "an endpoint known only after the update"
    : view.endpoint;

/** Whether two webhooks deliver the same records on the same channel to the same endpoint. */
export function sameDelivery(a: WebhookView, b: WebhookView): boolean {
  return endpointOf(a) === endpointOf(b) && deliveryOf(a) === deliveryOf(b);
}
