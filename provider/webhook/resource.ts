import { z } from "zod";
import { ApiVersionSchema } from "../../contract/connection";
import { safeString } from "../../contract/control-characters";
import { memoize } from "../../contract/memo";
import { type ApiVersion, isApiVersion } from "../../contract/versions";
import {
  canonicalFilters,
  endpointSchema,
  filtersSchema,
  secretKeySchema,
  toWireFilters,
} from "../../contract/webhooks/requests";
import { WireFilter } from "../../contract/webhooks/responses";
import type { CanonicalFilter } from "../../contract/webhooks/types";
import { contextKey, processContext, rememberSecret } from "../context/process";
import { type CheckFailure, checkFailure, checkInputs } from "../lifecycle/check";
import { credentialsSource } from "../lifecycle/credentials-source";
import { detailedDiffOf } from "../lifecycle/detailed-diff";
import { changedInputs, defaultsTo, exact, fallbacksOf, filterList } from "../lifecycle/input-comparison";
import type { CheckContext, ResourceProps } from "../lifecycle/methods";
import { containsUnknown, UNKNOWN } from "../lifecycle/unknowns";
import {
  commonFields,
  field,
  fieldAdvice,
  fieldsWhere,
  hashedInputs,
  inputKinds,
  secretsOf,
} from "../resource-kit/fields";
import type { Settings } from "../settings/value";
import { MISSING_SECRET_KEY } from "./messages";
import { QUOTA_INPUT, type QuotaInput, type QuotaWarning, quotaFindings } from "./quota";

/**
 * A Webhook's inputs after `check`: validated, defaults applied, filters in canonical order and form.
 * Built once per version: zod compiles a schema on its first parse, which costs far more than a parse,
 * and every check and create parses with it. Every input but the common members replaces the webhook.
 */
export const webhookInputsSchema = memoize((version: ApiVersion) =>
  z.object({
    endpoint: field(endpointSchema(version), {
      replaces: true,
      quoted: true,
      versioned: true,
      compare: exact,
      advice:
        "give the https:// URL your receiver serves, on a hostname that a Domain resource registers for the organization",
    }),
    secretKey: field(secretKeySchema(version), {
      secret: true,
      replaces: true,
      versioned: true,
      hashedAs: "secretKeyHash",
      advice:
        "give a random key of 16 to 256 characters (at least 20 on API 1.4) as a secret, e.g. the output of `openssl rand -hex 24`",
    }),
    filters: field(
      filtersSchema(version).transform((filters) => toWireFilters(canonicalFilters(filters))),
      {
        replaces: true,
        quoted: true,
        versioned: true,
        compare: filterList,
        advice:
          "give one activity.name filter (authentication or fingerprint) and, if you want, activity.form_factor (lightbox, microscopic, free_camera) and owner.user.username filters, each with value or values",
      },
    ),
    channel: field(safeString().min(1, "must not be empty").default("default"), {
      replaces: true,
      quoted: true,
      compare: defaultsTo("default"),
      advice: "give a short name such as orders, or leave channel out for default",
    }),
    apiVersion: field(ApiVersionSchema.default("2.0"), {
      replaces: true,
      quoted: true,
      compare: defaultsTo("2.0"),
      advice: "give 2.0, or leave apiVersion out for 2.0",
    }),
    ...commonFields("input"),
    adoptWebhookUuid: field(z.guid("must be a webhook UUID").optional(), {
      quoted: true,
      advice: "give the webhook_uuid the service returned for the active webhook to adopt",
    }),
  }),
);
export type WebhookInputs = z.output<ReturnType<typeof webhookInputsSchema>>;

/**
 * What a Webhook keeps in state; a check parses its previous inputs with it too, which hold no hashes.
 * A webhook whose create has an unknown outcome is "pending": it has `pendingSince` and no `webhookUuid`
 * until a later update or refresh finds out what the service did.
 */
export const WebhookState = z.object({
  webhookUuid: field(z.string().optional(), { output: true }),
  endpoint: field(z.string(), { output: true }),
  channel: field(z.string(), { output: true }),
  filters: field(z.array(WireFilter), { output: true }),
  owner: field(z.object({ organization: z.string(), username: z.string() }).optional(), { output: true }),
  createTime: field(z.string().optional(), { output: true }),
  // Previous inputs, which a check also parses with this, may leave it out.
  apiVersion: field(ApiVersionSchema.default("2.0"), { output: true }),
  /**
   * A salted hash: enough to notice a rotated secret, useless for recovering it. Absent for a webhook
   * adopted by `pulumi import`, whose secret the service never returns: the secret the program gives is
   * then taken as the webhook's own (as `adoptWebhookUuid` does), and the next update records its hash.
   */
  secretKeyHash: field(z.string().optional(), { secret: true }),
  ...commonFields("state"),
  adoptWebhookUuid: z.string().optional(),
  /** A salted hash of the base URL and token the webhook was created or last verified with. */
  credentialsHash: field(z.string().optional(), { secret: true }),
  /** While pending: when (on the service's clock) the create whose outcome is unknown was sent. */
  pendingSince: z.string().optional(),
  /** While pending: webhooks with the same configuration known to belong to other resources. */
  claimedElsewhere: z.array(z.string()).optional(),
});
export type WebhookState = z.output<typeof WebhookState>;

/** A webhook that exists: its uuid and owner are known. */
export type WebhookOutputs = WebhookState & {
  webhookUuid: string;
  owner: { organization: string; username: string };
};

export function isPending(state: WebhookState): boolean {
  return state.webhookUuid === undefined && state.pendingSince !== undefined;
}

/** What the declaration says of the inputs, the same on every API version. */
const INPUTS = webhookInputsSchema("2.0");
/** The secret inputs and members of state: the dynamic provider and the plugin both mark them secret, and so does the schema. */
export const WEBHOOK_SECRETS = secretsOf(INPUTS, WebhookState);
/** How diff compares each input, in the order declared. */
export const INPUT_KINDS = inputKinds(INPUTS);
/** The inputs whose change replaces the webhook. */
export const REPLACING: readonly string[] = fieldsWhere(INPUTS, (facts) => facts.replaces);
/** The inputs state keeps only as a salted hash, under the member named. */
export const HASHED = hashedInputs(INPUTS);
/** How a Webhook's check failures describe its inputs: secretKey and connection are never quoted. */
export const WEBHOOK_FIELD_ADVICE = fieldAdvice(INPUTS);
/** Members whose rules depend on the API version; left unchecked while the version is unknown. */
export const VERSIONED_MEMBERS: readonly string[] = fieldsWhere(INPUTS, (facts) => facts.versioned);
/**
 * The inputs state keeps as they are given: every input that state declares, but for the secret it keeps
 * only hashed. A refresh answers them as the inputs that its state implies.
 */
export const RECORDED_INPUTS: readonly string[] = Object.keys(INPUTS.shape).filter(
  (key) => key in WebhookState.shape && !(key in HASHED),
);

/** The members of state a Webhook publishes as outputs, given or not. */
export const OUTPUTS: readonly string[] = fieldsWhere(WebhookState, (facts) => facts.output);

/** What makes two webhooks indistinguishable to the service: endpoint, channel and filters. */
export interface WebhookIdentity {
  readonly endpoint: string;
  readonly channel: string;
  readonly filters: readonly CanonicalFilter[];
}

export function identityOf(config: {
  endpoint: string;
  channel?: string | null | undefined;
  filters: readonly z.input<typeof WireFilter>[];
}): WebhookIdentity {
  return {
    endpoint: config.endpoint,
    channel: config.channel ?? "default",
    filters: canonicalFilters(config.filters),
  };
}

export const sameIdentity = (a: WebhookIdentity, b: WebhookIdentity) =>
  a.endpoint === b.endpoint &&
  a.channel === b.channel &&
  JSON.stringify(a.filters) === JSON.stringify(b.filters);

/**
 * Who owns a webhook or domain, as the Pulumi resources output it (`owner.organization`,
 * `owner.username`): their translation of the wire's `webhook_owner` and `domain_owner`.
 */
export interface Owner {
  /** The organization's name. */
  organization: string;
  /** The user who created it, or "" when the service did not say. */
  username: string;
}

/**
 * How a Webhook's resource id starts while its create's outcome is unknown. A later update that settles
 * the create records the webhook's uuid in `webhookUuid`, but cannot change the id: it stays a
 * placeholder until a refresh, so readers of a state take the uuid from `webhookUuid` first.
 */
export const PENDING_ID_PREFIX = "pending-";

/**
 * Which webhooks resources in this process already stand for, and which configurations have a create
 * whose outcome is unknown. Reconciling a lost create picks a matching webhook that appeared after the
 * attempt; it must never pick one that another resource owns. Diff records them too, without the client.
 */
const CLAIMS = contextKey("webhook claims", () => ({
  uuids: new Set<string>(),
  pending: new Set<string>(),
}));

const claims = () => processContext().get(CLAIMS);
const keyOf = (identity: WebhookIdentity) => JSON.stringify(identity);

/** Records that a resource stands for this webhook. */
export function claim(uuid: string | undefined): void {
  if (uuid) claims().uuids.add(uuid);
}

export function isClaimed(uuid: string): boolean {
  return claims().uuids.has(uuid);
}

/** Every webhook a resource in this process stands for. */
export function claimedUuids(): string[] {
  return [...claims().uuids];
}

/** Notes that a resource with this configuration has a create whose outcome is unknown. */
export function notePending(identity: WebhookIdentity): void {
  claims().pending.add(keyOf(identity));
}

export function clearPending(identity: WebhookIdentity): void {
  claims().pending.delete(keyOf(identity));
}

export function hasPending(identity: WebhookIdentity): boolean {
  return claims().pending.has(keyOf(identity));
}

/*
 * What `pulumi preview` runs for a Webhook: check and diff. Neither calls the API, and neither loads what
 * the API needs, so the dynamic-provider host answers its first Check quickly.
 */

/**
 * Validates the inputs, then weighs them against the organization's quota (quota.ts): the check
 * fails where the program says that the organization is over the quota, or at it for a replacement; and
 * where the caller passes the URN (the provider plugin), the Webhook is counted with the others of its
 * organization. `settings` are the provider's.
 */
export async function check(
  settings: Settings,
  olds: ResourceProps,
  news: ResourceProps,
  context: CheckContext = {},
): Promise<{ inputs: ResourceProps; failures: CheckFailure[]; warnings: readonly QuotaWarning[] }> {
  // Never kept: the inputs returned leave it out, so state never holds it.
  const { [QUOTA_INPUT]: told, ...given } = news;
  // Loaded here, not at the top: the settings' reader is not needed before the first check.
  const { withSettingsFailure } = await import("../lifecycle/client-settings.js");
  const result = described(withSettingsFailure(validate(given), settings), settings);
  if (told === undefined && context.urn === undefined) return { ...result, warnings: [] };
  const replaced = result.failures.length === 0 ? predictedReplacement(olds, result.inputs, settings) : [];
  return quotaFindings(result, replaced, {
    told: told as QuotaInput | undefined,
    urn: context.urn,
    settings,
  });
}

/**
 * Valid inputs with `credentials`, the words a diff shows when the credentials move (credentials-source.ts).
 * Not while `connection` is unknown: the words would be wrong, and a diff then shows `connection` itself.
 */
function described(result: { inputs: ResourceProps; failures: CheckFailure[] }, settings: Settings) {
  const { connection } = result.inputs;
  if (result.failures.length > 0 || containsUnknown(connection)) return result;
  const words = credentialsSource(connection as WebhookState["connection"], settings);
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

/**
 * The input check adds: where the credentials come from, in words (credentials-source.ts). Diff never
 * compares it; it is what the engine shows when the credentials move.
 */
const CREDENTIALS = "credentials";

/**
 * The members whose change from the previous inputs `olds` replaces the webhook, as diff will find them;
 * none for a Webhook that has no previous inputs (a create).
 */
function predictedReplacement(olds: ResourceProps, news: ResourceProps, settings: Settings): string[] {
  const previous = WebhookState.safeParse(olds);
  if (!previous.success) return [];
  return changedInputs(INPUT_KINDS, { ...olds, ...previous.data }, news, fallbacksOf(settings)).filter(
    (key) => REPLACING.includes(key),
  );
}

/**
 * Input by input, by meaning, without calling the API. Anything that defines the webhook replaces it. A
 * change of credentials is an update in place, which checks that the new credentials still see the
 * webhook. A pending webhook always shows a change, so that `pulumi up` runs the update that reconciles it.
 */
export async function diff(settings: Settings, id: string, olds: ResourceProps, news: ResourceProps) {
  const old = WebhookState.parse(olds);
  // The stored outputs, over the stored inputs where the provider plugin passes those too (the secret
  // of a webhook adopted by `pulumi import`, whose outputs hold no hash of it).
  const changed = changedInputs(INPUT_KINDS, { ...olds, ...old }, news, fallbacksOf(settings));
  const replaces = changed.filter((key) => REPLACING.includes(key));
  const adopt = news.adoptWebhookUuid;
  if (adopt !== undefined && adopt !== (old.webhookUuid ?? id)) replaces.push("adoptWebhookUuid");
  const pending = isPending(old);
  if (pending) notePending(identityOf(old));
  else claim(old.webhookUuid ?? id);
  const shown = [...changed, ...replaces.filter((key) => !changed.includes(key))];
  const moved = shown.length === 0 && (await credentialsMoved(old, news, settings));
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
async function credentialsMoved(
  old: WebhookState,
  news: ResourceProps,
  settings: Settings,
): Promise<boolean> {
  // Loaded here, not at the top: check, the first call a preview makes, needs neither. Settings, not a
  // client: an unchanged preview never loads the HTTP client.
  const { resolvedSettings } = await import("../lifecycle/client-settings.js");
  const { sameCredentials } = await import("../lifecycle/credentials-hash.js");
  try {
    const resolved = resolvedSettings(
      { connection: news.connection as WebhookState["connection"] },
      settings,
    );
    return sameCredentials(resolved, old.credentialsHash) === false;
  } catch {
    // No usable credentials at all: the update or create that follows says so.
    return false;
  }
}
