/**
 * What `pulumi preview` runs for a Webhook: check and diff. Neither calls the API, and this module loads
 * nothing the API needs, so the dynamic-provider host answers its first Check quickly.
 */

import { isApiVersion } from "../../contract/versions";
import { rememberSecret } from "../context/process";

import { type CheckFailure, checkFailure, checkInputs } from "../lifecycle/check";
import { COMMON_INPUTS } from "../lifecycle/common-members";
import { credentialsSource } from "../lifecycle/credentials-source";
import { detailedDiffOf } from "../lifecycle/detailed-diff";
import {
  changedInputs,
  defaultsTo,
  exact,
  filterList,
  hashedSecret,
  type InputKinds,
} from "../lifecycle/input-comparison";
import type { CheckContext, ResourceProps } from "../lifecycle/methods";
import { containsUnknown, UNKNOWN } from "../lifecycle/unknowns";
import { claim, notePending } from "./claims";
import { MISSING_SECRET_KEY } from "./messages";
import type { QuotaWarning } from "./quota-check";
import {
  identityOf,
  isPending,
  QUOTA_INPUT,
  type QuotaInput,
  VERSIONED_MEMBERS,
  WEBHOOK_FIELD_ADVICE,
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
  // Loaded here, not at the top: the settings' reader is not needed before the first check.
  const { withSettingsFailure } = await import("../lifecycle/client-settings.js");
  const result = described(withSettingsFailure(validate(given)));
  if (told === undefined && context.urn === undefined) return { ...result, warnings: [] };
  const replaced = result.failures.length === 0 ? predictedReplacement(olds, result.inputs) : [];
  // Loaded here, not at the top: a dynamic resource's check needs it only at the quota.
  const { quotaFindings } = await import("./quota-check.js");
  return quotaFindings(result, replaced, { told: told as QuotaInput | undefined, urn: context.urn });
}

/**
 * Valid inputs with `credentials`, the words a diff shows when the credentials move (credentials-source.ts).
 * Not while `connection` is unknown: the words would be wrong, and a diff then shows `connection` itself.
 */
function described(result: { inputs: ResourceProps; failures: CheckFailure[] }) {
  const { connection } = result.inputs;
  if (result.failures.length > 0 || containsUnknown(connection)) return result;
  const words = credentialsSource(connection as WebhookState["connection"]);
  return { ...result, inputs: { ...result.inputs, [CREDENTIALS]: words } };
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

/** The Webhook's inputs by kind; every one of them but the common members replaces the webhook. */
const INPUTS: InputKinds = {
  endpoint: exact,
  channel: defaultsTo("default"),
  apiVersion: defaultsTo("2.0"),
  filters: filterList,
  secretKey: hashedSecret("secretKeyHash"),
  ...COMMON_INPUTS,
};
const REPLACING: readonly string[] = ["endpoint", "channel", "apiVersion", "filters", "secretKey"];
/**
 * The input check adds: where the credentials come from, in words (credentials-source.ts). Diff never
 * compares it; it is what the engine shows when the credentials move.
 */
const CREDENTIALS = "credentials";
/** The inputs state keeps only as a salted hash, under the member named. */
const HASHED = { secretKey: "secretKeyHash" };

/**
 * The members whose change from the previous inputs `olds` replaces the webhook, as diff will find them;
 * none for a Webhook that has no previous inputs (a create).
 */
function predictedReplacement(olds: ResourceProps, news: ResourceProps): string[] {
  const previous = WebhookState.safeParse(olds);
  if (!previous.success) return [];
  return changedInputs(INPUTS, { ...olds, ...previous.data }, news).filter((key) => REPLACING.includes(key));
}

/**
 * Input by input, by meaning, without calling the API. Anything that defines the webhook replaces it. A
 * change of credentials is an update in place, which checks that the new credentials still see the
 * webhook. A pending webhook always shows a change, so that `pulumi up` runs the update that reconciles it.
 */
export async function diff(id: string, olds: ResourceProps, news: ResourceProps) {
  const old = WebhookState.parse(olds);
  // The stored outputs, over the stored inputs where the provider plugin passes those too (the secret
  // of a webhook adopted by `pulumi import`, whose outputs hold no hash of it).
  const changed = changedInputs(INPUTS, { ...olds, ...old }, news);
  const replaces = changed.filter((key) => REPLACING.includes(key));
  const adopt = news.adoptWebhookUuid;
  if (adopt !== undefined && adopt !== (old.webhookUuid ?? id)) replaces.push("adoptWebhookUuid");
  const pending = isPending(old);
  if (pending) notePending(identityOf(old));
  else claim(old.webhookUuid ?? id);
  const shown = [...changed, ...replaces.filter((key) => !changed.includes(key))];
  const moved = shown.length === 0 && (await credentialsMoved(old, news));
  // The words for the credentials, where they moved or the `connection` that holds them changed.
  const credentials = moved || changed.includes("connection") ? [CREDENTIALS] : [];
  return {
    changes: pending || shown.length > 0 || moved,
    replaces,
    deleteBeforeReplace: false,
    detailedDiff: detailedDiffOf([...shown, ...credentials], replaces, { ...olds, ...old }, news, {
      hashed: HASHED,
      updated: [CREDENTIALS],
    }),
  };
}

/**
 * Whether the credentials that would be used now differ from those recorded (stack config included).
 * Asked only once no input changed, so `connection` is known here.
 */
async function credentialsMoved(old: WebhookState, news: ResourceProps): Promise<boolean> {
  // Loaded here, not at the top: check, the first call a preview makes, needs neither. Settings, not a
  // client: an unchanged preview never loads the HTTP client.
  const { resolvedSettings } = await import("../lifecycle/client-settings.js");
  const { sameCredentials } = await import("../lifecycle/credentials-hash.js");
  try {
    const settings = resolvedSettings({ connection: news.connection as WebhookState["connection"] });
    return sameCredentials(settings, old.credentialsHash) === false;
  } catch {
    // No usable credentials at all: the update or create that follows says so.
    return false;
  }
}
