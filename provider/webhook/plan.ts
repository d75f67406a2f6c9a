/**
 * What `pulumi preview` runs for a Webhook: check and diff. Neither calls the API, and this module loads
 * nothing the API needs, so the dynamic-provider host answers its first Check quickly.
 */

import { isApiVersion } from "../api/versions";
import { sameFilters } from "../api/webhooks/requests";
import { rememberSecret } from "../context/process";
import { type CheckFailure, checkFailure, checkInputs } from "../lifecycle-kit/check";
import { commonMembersChanged } from "../lifecycle-kit/common-members";
import { secretMatches } from "../lifecycle-kit/secret-hash";
import { containsUnknown, UNKNOWN } from "../lifecycle-kit/unknowns";
import type { ResourceProps } from "../resource-lifecycle";
import { claim, notePending } from "./claims";
import { MISSING_SECRET_KEY } from "./messages";
import {
  identityOf,
  isPending,
  VERSIONED_MEMBERS,
  WEBHOOK_FIELD_ADVICE,
  type WebhookInputs,
  WebhookState,
  webhookInputsSchema,
} from "./schema";

export async function check(
  _olds: ResourceProps,
  news: ResourceProps,
): Promise<{ inputs: ResourceProps; failures: CheckFailure[] }> {
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
      WEBHOOK_FIELD_ADVICE,
    );
    return { inputs: { ...news, ...result.inputs }, failures: result.failures };
  }
  const schema = webhookInputsSchema(isApiVersion(version) ? version : "2.0");
  if (news.secretKey !== undefined) return checkInputs(schema, news, WEBHOOK_FIELD_ADVICE);
  // Missing, as in the inputs `pulumi import` reads back: say what to give, not just that it is missing.
  const result = checkInputs(schema.omit({ secretKey: true }), news, WEBHOOK_FIELD_ADVICE);
  const missing = checkFailure("secretKey", MISSING_SECRET_KEY, undefined, WEBHOOK_FIELD_ADVICE);
  return { ...result, failures: [...result.failures, missing] };
}

const REPLACING = ["endpoint", "channel", "apiVersion", "filters", "secretKey"] as const;

/**
 * Field by field, without calling the API. Anything that defines the webhook replaces it. A change of
 * credentials is an update in place, which checks that the new credentials still see the webhook. A
 * pending webhook always shows a change, so that `pulumi up` runs the update that reconciles it.
 */
export async function diff(id: string, olds: ResourceProps, news: ResourceProps) {
  const old = WebhookState.parse(olds);
  const replaces: string[] = [];
  for (const key of REPLACING) {
    const value = news[key];
    if (containsUnknown(value)) {
      replaces.push(key);
      continue;
    }
    const changed =
      key === "filters"
        ? !sameFilters(old.filters, value as WebhookInputs["filters"])
        : key === "secretKey"
          ? !sameSecret(String(value), old, olds.secretKey)
          : key === "channel"
            ? old.channel !== (value ?? "default")
            : key === "apiVersion"
              ? old.apiVersion !== (value ?? "2.0")
              : old[key] !== value;
    if (changed) replaces.push(key);
  }
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
