/**
 * What `pulumi preview` runs for a Webhook: check and diff. Neither calls the API, and this module loads
 * nothing the API needs, so the dynamic-provider host answers its first Check quickly.
 */

import { isApiVersion } from "../api/versions";
import { sameFilters } from "../api/webhooks/requests";
import { rememberSecret } from "../context/process";
import { type CheckFailure, checkInputs } from "../lifecycle-kit/check";
import { commonMembersChanged } from "../lifecycle-kit/common-members";
import { secretMatches } from "../lifecycle-kit/secret-hash";
import { containsUnknown, UNKNOWN } from "../lifecycle-kit/unknowns";
import type { CheckContext, ResourceProps } from "../resource-lifecycle";
import { claim, notePending } from "./claims";
import { MISSING_SECRET_KEY } from "./messages";
import type { QuotaWarning } from "./quota-check";
import {
  identityOf,
  isPending,
  QUOTA_INPUT,
  type QuotaInput,
  VERSIONED_MEMBERS,
  type WebhookInputs,
  WebhookState,
  webhookInputsSchema,
} from "./schema";

/**
 * Validates the inputs, then weighs them against the organization's quota (quota-check.ts): the check
 * fails where the program says that the organization is over the quota, or at it for a replacement; and
 * where the caller passes the URN (the provider plugin), the Webhook is counted with the others of its
 * organization.
 */
export async function check(
  olds: ResourceProps,
  news: ResourceProps,
  context: CheckContext = {},
): Promise<{ inputs: ResourceProps; failures: CheckFailure[]; warnings: readonly QuotaWarning[] }> {
  // Never kept: the inputs returned leave it out, so state never holds it.
  const { [QUOTA_INPUT]: told, ...given } = news;
  const result = validate(given);
  if (told === undefined && context.urn === undefined) return { ...result, warnings: [] };
  const replaced = result.failures.length === 0 ? predictedReplacement(olds, result.inputs) : [];
  // Loaded here, not at the top: a dynamic resource's check needs it only at the quota.
  const { quotaFindings } = await import("./quota-check.js");
  return quotaFindings(result, replaced, { told: told as QuotaInput | undefined, urn: context.urn });
}

function validate(news: ResourceProps): { inputs: ResourceProps; failures: CheckFailure[] } {
  rememberSecret(news.secretKey);
  rememberSecret((news.connection as { token?: unknown } | undefined)?.token);
  const version = news.apiVersion === undefined ? "2.0" : news.apiVersion;
  if (version === UNKNOWN) {
    const rest = Object.fromEntries(
      Object.entries(news).filter(([k]) => !(VERSIONED_MEMBERS as readonly string[]).includes(k)),
    );
    const result = checkInputs(
      webhookInputsSchema("2.0").omit({ endpoint: true, secretKey: true, filters: true }),
      rest,
    );
    return { inputs: { ...news, ...result.inputs }, failures: result.failures };
  }
  const result = checkInputs(webhookInputsSchema(isApiVersion(version) ? version : "2.0"), news);
  if (news.secretKey !== undefined) return result;
  // Missing, as in the inputs `pulumi import` reads back: say what to give, not just that it is missing.
  const failures = result.failures.filter((f) => f.property !== "secretKey");
  return { ...result, failures: [...failures, { property: "secretKey", reason: MISSING_SECRET_KEY }] };
}

/**
 * The members whose change from the previous inputs `olds` replaces the webhook, as diff will find them;
 * none for a Webhook that has no previous inputs (a create).
 */
function predictedReplacement(olds: ResourceProps, news: ResourceProps): string[] {
  const previous = WebhookState.safeParse(olds);
  return previous.success ? replacingChanges(previous.data, olds.secretKey, news) : [];
}

const REPLACING = ["endpoint", "channel", "apiVersion", "filters", "secretKey"] as const;

/**
 * Field by field, without calling the API. Anything that defines the webhook replaces it. A change of
 * credentials is an update in place, which checks that the new credentials still see the webhook. A
 * pending webhook always shows a change, so that `pulumi up` runs the update that reconciles it.
 */
export async function diff(id: string, olds: ResourceProps, news: ResourceProps) {
  const old = WebhookState.parse(olds);
  const replaces = replacingChanges(old, olds.secretKey, news);
  const adopt = news.adoptWebhookUuid;
  if (adopt !== undefined && adopt !== (old.webhookUuid ?? id)) replaces.push("adoptWebhookUuid");
  const pending = isPending(old);
  if (pending) notePending(identityOf(old));
  else claim(old.webhookUuid ?? id);
  return {
    changes:
      pending ||
      replaces.length > 0 ||
      commonMembersChanged(old, news) ||
      (await credentialsMoved(old, news)),
    replaces,
    deleteBeforeReplace: false,
  };
}

/**
 * The members of `news` whose change from `old` (the stored state, or the previous inputs) replaces the
 * webhook; one that is not known yet counts as changed. `previousSecret` is the secret of the previous
 * inputs, which decides where `old` has no hash of it.
 */
function replacingChanges(old: WebhookState, previousSecret: unknown, news: ResourceProps): string[] {
  return REPLACING.filter((key) => {
    const value = news[key];
    if (containsUnknown(value)) return true;
    switch (key) {
      case "filters":
        return !sameFilters(old.filters, value as WebhookInputs["filters"]);
      case "secretKey":
        return !sameSecret(String(value), old, previousSecret);
      case "channel":
        return old.channel !== (value ?? "default");
      case "apiVersion":
        return old.apiVersion !== (value ?? "2.0");
      default:
        return old[key] !== value;
    }
  });
}

/**
 * Whether `secret` is the webhook's secret as far as state can tell: its salted hash when state has one.
 * A webhook adopted by `pulumi import` has none (the service never returns a secret): the secret given
 * with its previous inputs, when the provider plugin hands those over, or else (right after the import)
 * the one the program gives, taken on trust as `adoptWebhookUuid` does.
 */
function sameSecret(secret: string, old: WebhookState, previous: unknown): boolean {
  if (old.secretKeyHash !== undefined) return secretMatches(secret, old.secretKeyHash);
  return typeof previous !== "string" || previous === secret;
}

/** Whether the credentials that would be used now differ from those recorded (stack config included). */
async function credentialsMoved(old: WebhookState, news: ResourceProps): Promise<boolean> {
  if (old.credentialsHash === undefined || containsUnknown(news.connection)) return false;
  // Loaded here, not at the top: the client is not needed for check, the first call a preview makes.
  const { clientFor } = await import("../lifecycle-kit/clients.js");
  const { sameCredentials } = await import("../lifecycle-kit/ownership.js");
  try {
    const client = clientFor({ connection: news.connection as WebhookState["connection"] });
    return sameCredentials(client, old.credentialsHash) === false;
  } catch {
    // No usable credentials at all: the update or create that follows says so.
    return false;
  }
}
