import { FILTER_KEYS } from "../../contract/webhooks/requests";
import {
  channelMessage,
  duplicateMessage,
  filterKeyMessage,
  formFactorMessage,
  missingDependencyMessage,
  overQuotaMessage,
  replaceAtQuotaMessage,
  secretInPlainTextMessage,
  unregisteredHostMessage,
} from "./messages";
import { type Credentials, DEFAULT_CHANNEL, type StackView, type WebhookView, webhookFilters } from "./views";

/**
 * The rules, as pure functions of what views.ts read. A value that is not known yet never produces a
 * violation: a Webhook or Domain whose deciding member is unknown is left out of the rule that needs it.
 * Nothing here repeats what the Webhook's own `check` rejects: such members are absent from the view.
 */

/** One finding: a message, and the resource it is about when there is exactly one. */
export interface Violation {
  /** What is wrong, with which resources, and what to do. */
  readonly message: string;
  /** The resource the finding is about; unset when it is about several, which the message lists. */
  readonly urn?: string | undefined;
}

/** Filter keys a webhook may leave out; `activity.name` is required by the service, so it is always allowed. */
export const OPTIONAL_FILTER_KEYS = FILTER_KEYS.filter((k) => k !== "activity.name");

function byCredentials(webhooks: readonly WebhookView[]): [Credentials, WebhookView[]][] {
  const groups = new Map<string, [Credentials, WebhookView[]]>();
  for (const w of webhooks) {
    if (!w.credentials) continue;
    const group = groups.get(w.credentials.key) ?? [w.credentials, []];
    group[1].push(w);
    groups.set(w.credentials.key, group);
  }
  return [...groups.values()];
}

/** Webhooks that share credentials count against one organization's quota. */
export function quotaViolations(stack: StackView, quota: number): Violation[] {
  return byCredentials(stack.webhooks)
    .filter(([, group]) => group.length > quota)
    .map(([credentials, group]) => ({ message: overQuotaMessage(group, credentials, quota) }));
}

/** At the quota, a Webhook replaced create-before-delete has no slot for its replacement. */
export function replaceAtQuotaViolations(stack: StackView, quota: number): Violation[] {
  return byCredentials(stack.webhooks).flatMap(([credentials, group]) => {
    const lacking = group.filter((w) => !w.deleteBeforeReplace);
    return group.length >= quota && lacking.length > 0
      ? [{ message: replaceAtQuotaMessage(group, lacking, credentials, quota) }]
      : [];
  });
}

/** Each endpoint host is a Domain of the stack or a host registered elsewhere (`externalHosts`). */
export function unregisteredHostViolations(stack: StackView, externalHosts: readonly string[]): Violation[] {
  // A Domain whose name is not known yet could be any host, so nothing can be called missing.
  if (stack.domains.some((d) => d.hostname === undefined)) return [];
  const registered = new Set([...stack.domains.map((d) => d.hostname), ...externalHosts]);
  return stack.webhooks.flatMap((w) =>
    w.host === undefined || registered.has(w.host)
      ? []
      : [{ urn: w.urn, message: unregisteredHostMessage(w, w.host) }],
  );
}

/** Each Webhook depends on the Domain of its host, so that create and destroy run in the right order. */
export function missingDependencyViolations(stack: StackView): Violation[] {
  return stack.webhooks.flatMap((w) => {
    const own = stack.domains.filter((d) => d.hostname !== undefined && d.hostname === w.host);
    const depends = own.some((d) => [...d.members].some((urn) => w.dependsOn.has(urn)));
    return own.length === 0 || depends ? [] : [{ urn: w.urn, message: missingDependencyMessage(w, own) }];
  });
}

/** No two Webhooks with the same credentials, endpoint, channel and filters. */
export function duplicateViolations(stack: StackView): Violation[] {
  const groups = new Map<string, WebhookView[]>();
  for (const w of stack.webhooks) {
    if (w.identity !== undefined) groups.set(w.identity, [...(groups.get(w.identity) ?? []), w]);
  }
  return [...groups.values()]
    .filter((group) => group.length > 1)
    .map((group) => {
      const { endpoint, channel } = group[0]!.inputs;
      return { message: duplicateMessage(group, endpoint!, channel!, webhookFilters(group[0]!.inputs)!) };
    });
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The secret key's value copied into an input that is kept and shown in plain text. */
export function secretInPlainTextViolations(webhook: WebhookView): Violation[] {
  const { secretKey, endpoint, channel } = webhook.inputs;
  if (secretKey === undefined) return [];
  const places: [string, string[]][] = [
    ["endpoint", endpoint === undefined ? [] : [endpoint, decoded(endpoint)]],
    ["channel", channel === undefined ? [] : [channel]],
    ["filters", (webhookFilters(webhook.inputs) ?? []).flatMap((f) => f.values)],
  ];
  const members = places.filter(([, texts]) => texts.some((t) => t.includes(secretKey))).map(([m]) => m);
  return members.length === 0
    ? []
    : [{ urn: webhook.urn, message: secretInPlainTextMessage(webhook, members) }];
}

/** The channel matches the configured pattern, as a whole. */
export function channelViolations(webhook: WebhookView, pattern: string | undefined): Violation[] {
  const { channel } = webhook.inputs;
  if (pattern === undefined || channel === undefined) return [];
  if (new RegExp(`^(?:${pattern})$`, "u").test(channel)) return [];
  return [
    { urn: webhook.urn, message: channelMessage(webhook, channel, pattern, channel === DEFAULT_CHANNEL) },
  ];
}

/** Optional filter keys and form factors outside the configured sets. */
export function filterViolations(
  webhook: WebhookView,
  allowedKeys: readonly string[],
  allowedFormFactors: readonly string[],
): Violation[] {
  return (webhookFilters(webhook.inputs) ?? []).flatMap((filter) => {
    if (
      (OPTIONAL_FILTER_KEYS as readonly string[]).includes(filter.key) &&
      !allowedKeys.includes(filter.key)
    ) {
      return [{ urn: webhook.urn, message: filterKeyMessage(webhook, filter.key, allowedKeys) }];
    }
    const outside =
      filter.key === "activity.form_factor"
        ? filter.values.filter((v) => !allowedFormFactors.includes(v))
        : [];
    return outside.length === 0
      ? []
      : [{ urn: webhook.urn, message: formFactorMessage(webhook, outside, allowedFormFactors) }];
  });
}
