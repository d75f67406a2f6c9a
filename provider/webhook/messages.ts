/**
 * Every failure and warning a Webhook reports, worded once: the object, the cause and the next step. Advice
 * that would make things worse (running `pulumi up` again when that would create a second webhook) never
 * appears. The quota's messages name the Webhooks, the count and the way out, spelling resource options and
 * properties in the program's language, and none shows a credential: organizations are told apart by the
 * Webhooks that share them.
 */
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import {
  optionSetting,
  type ProgramLanguage,
  programLanguage,
  spellProperty,
} from "../context/program-language";
import type { InvalidRequestError } from "../errors/api";
import { requestWords } from "../errors/base";
import { LifecycleError } from "../errors/lifecycle";
import { SETTINGS, stackKey } from "../settings/table";

/** What a message names a webhook by: what the service tells webhooks apart by. */
interface Named {
  readonly endpoint: string;
  readonly channel: string;
}

/** A webhook the service listed, as a message lists it. */
interface Listed extends Named {
  readonly webhookUuid: string;
}

/** How a webhook is named in messages. */
const describeNew = (identity: Named) => `the webhook for ${identity.endpoint} (channel ${identity.channel})`;
export const describeExisting = (uuid: string, identity: Named) =>
  `webhook ${uuid} (${identity.endpoint}, channel ${identity.channel})`;

const line = (w: Listed) => `  - ${w.webhookUuid}  ${w.endpoint}  channel=${w.channel}`;

export function quotaError(identity: Named, active: readonly Listed[], limit: number): LifecycleError {
  return new LifecycleError(
    "quota_reached",
    [
      `Cannot create ${describeNew(identity)}: the organization already has ${active.length} active webhooks, the service's limit of ${limit}. Nothing was created.`,
      "Active webhooks:",
      ...active.map(line),
      `If this create is part of a replacement, Pulumi creates the new webhook before it deletes the old one (create-before-delete), so the replacement needs a free slot. Give this Webhook ${optionSetting("deleteBeforeReplace", true)} to deactivate the old webhook first (deliveries pause during the swap), or remove a webhook you no longer need, then run \`pulumi up\` again.`,
    ].join("\n"),
  );
}

export function domainNotRegisteredError(
  identity: Named,
  host: string,
  hostnames: readonly string[],
): LifecycleError {
  const registered = hostnames.length > 0 ? hostnames.join(", ") : "none";
  return new LifecycleError(
    "endpoint_domain_not_registered",
    `Cannot create ${describeNew(identity)}: its host ${host} is not a registered domain of this organization (registered: ${registered}). Nothing was created. Declare a Domain for ${host} in the program and give this Webhook ${optionSetting("dependsOn", ["domain"])}, or point the endpoint at a registered domain, then run \`pulumi up\` again.`,
  );
}

/**
 * What the service said when it refused a request, without the client's own next step: the Webhook's
 * message gives its own, and two would state the refusal twice.
 */
export function serviceRefusal(error: InvalidRequestError): string {
  const reason =
    error.fields.length > 0
      ? error.fields.map((f) => `${f.field} ${f.message}`).join("; ")
      : (error.serviceMessage ?? "no reason given");
  const requestId = error.requestId ? ` (request id ${error.requestId})` : "";
  return `${requestWords(error)} answered ${error.status}: ${reason}${requestId}.`;
}

export function inputRefusedError(identity: Named, serviceSaid: string, cause: unknown): LifecycleError {
  return new LifecycleError(
    "input_refused",
    `The service refused ${describeNew(identity)}: ${serviceSaid} Nothing was created. Correct the Webhook's inputs and run \`pulumi up\` again.`,
    { cause },
  );
}

export function adoptNotFoundError(uuid: string): LifecycleError {
  return new LifecycleError(
    "adopt_not_found",
    `Cannot adopt webhook ${uuid}: it is not an active webhook of this organization (deactivated webhooks cannot be reactivated). Check the uuid and the credentials, or drop ${spellProperty("adoptWebhookUuid")} to create a new webhook.`,
  );
}

export function adoptClaimedError(uuid: string): LifecycleError {
  return new LifecycleError(
    "adopt_mismatch",
    `Cannot adopt webhook ${uuid}: another Webhook resource in this stack already stands for it, and one webhook cannot belong to two resources. Give one of them a different ${spellProperty("adoptWebhookUuid")}, or drop it to create a new webhook.`,
  );
}

export function adoptMismatchError(uuid: string, problems: readonly string[]): LifecycleError {
  return new LifecycleError(
    "adopt_mismatch",
    `Refusing to adopt webhook ${uuid}: ${problems.join("; ")}. Make the inputs match the existing webhook exactly, or drop ${spellProperty("adoptWebhookUuid")} to create a new one.`,
  );
}

/** Why a Webhook without `secretKey` fails its check (the inputs that `pulumi import` reads back lack it). */
export const MISSING_SECRET_KEY =
  "is required: give the key that signs the webhook's deliveries, as a secret. The service never returns it, so a webhook adopted with `pulumi import` needs the key it was created with.";

export function importNotFoundError(uuid: string): LifecycleError {
  return new LifecycleError(
    "import_not_found",
    `Cannot import webhook ${uuid}: it is not an active webhook of the organization that the provider's credentials (${stackKey(SETTINGS.token.config)}) belong to; deactivated webhooks cannot be reactivated. Check the uuid (the service's webhook_uuid) and the credentials, then run \`pulumi import\` again.`,
  );
}

export function identicalPendingError(identity: Named): LifecycleError {
  return new LifecycleError(
    "identical_create_pending",
    `Not creating ${describeNew(identity)} in this run: another Webhook in this stack with the same endpoint, channel and filters has a create whose outcome is still unknown, and the service cannot tell two such webhooks apart, so a webhook made now could later be taken for that one. Nothing was created. Run \`pulumi up\` again: the pending webhook is settled first, then this one is created.`,
  );
}

export function pendingMessage(identity: Named, cause: string, waitedSeconds: number): string {
  return (
    `The service did not confirm the create of ${describeNew(identity)} (${cause}), and no matching webhook appeared in ${Math.round(waitedSeconds)} s of re-listing. ` +
    "Pulumi keeps this Webhook in the stack as pending, with the time of the attempt. Run `pulumi up` again: it adopts the webhook if the create was applied meanwhile and creates it only if it was not, so it never makes a second one. " +
    "Do not create a matching webhook by hand in the meantime."
  );
}

export function reconcileConflictMessage(identity: Named, since: string, found: readonly Listed[]): string {
  return [
    `Cannot tell which webhook is ${describeNew(identity)}: ${found.length} active webhooks with its endpoint, channel and filters appeared after its create was sent at ${since}, and none belongs to another resource of this stack:`,
    ...found.map(line),
    `Set ${spellProperty("adoptWebhookUuid")} on this Webhook to the one it should keep and run \`pulumi up\`; deactivate the others if nothing else uses them.`,
  ].join("\n");
}

export function credentialsChangedError(uuid: string, identity: Named, organization: string): LifecycleError {
  return new LifecycleError(
    "credentials_changed",
    `The new credentials cannot see ${describeExisting(uuid, identity)}, which belongs to organization ${organization}. Switching to them would leave it active there, receiving deliveries and holding quota, with nothing managing it; nothing was changed. Keep credentials of ${organization} for this Webhook, or move it: remove it from the program and run \`pulumi up\` with the old credentials (that deactivates it), then add it back with the new ones.`,
  );
}

/** Names as a message lists them: `"a", "b" and "c"`. */
function listed(names: readonly string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length < 2 ? quoted.join("") : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

/** How an organization is named without its token: by what decides it. */
const SAME_CREDENTIALS = `the same base URL and token (from their \`connection\`, or from the stack's ${stackKey(SETTINGS.token.config)} and ${stackKey(SETTINGS.baseUrl.config)})`;

/** What became of the Webhooks of an organization over the quota. */
export type QuotaOutcome =
  /** The program held these back before registering them: all, or those declared after the others. */
  | { readonly held: readonly string[] }
  /** The provider plugin failed the check of this one, which took the organization beyond the quota. */
  | { readonly checkFailed: string };

/** The way out, for `count` Webhooks of one organization. */
const fitAdvice = (count: number, quota: number, language: ProgramLanguage | undefined) =>
  `Remove ${count - quota} of them, or give some a ${spellProperty("connection", language)} with the token of another organization.`;

/**
 * `names` are more Webhooks for one organization than it may have active: why `pulumi up` would stop
 * halfway, what became of them, and how to fit.
 */
export function overQuotaMessage(
  names: readonly string[],
  outcome: QuotaOutcome,
  language: ProgramLanguage | undefined = programLanguage(),
  quota: number = MAX_ACTIVE_WEBHOOKS,
): string {
  const happened =
    "checkFailed" in outcome
      ? `${listed([outcome.checkFailed])} is the one beyond the quota: its check fails.`
      : outcome.held.length === names.length
        ? "None of them was created."
        : `${listed(outcome.held)} ${outcome.held.length === 1 ? "was" : "were"} not created; the others were declared earlier and went ahead.`;
  return (
    `This program declares ${names.length} Webhooks that use ${SAME_CREDENTIALS}, so they belong to one organization, which the service allows at most ${quota} active webhooks: ${listed(names)}. ` +
    `The service would refuse every create beyond the ${ordinal(quota)} (409), and \`pulumi up\` would stop halfway. ${happened} ${fitAdvice(names.length, quota, language)}`
  );
}

/**
 * Why the create of a Webhook is refused when its organization's Webhooks are `count`, beyond the quota
 * (`pulumi up --skip-preview`: a failed check lists them).
 */
export function overQuotaCreateMessage(
  count: number,
  language: ProgramLanguage | undefined = programLanguage(),
  quota: number = MAX_ACTIVE_WEBHOOKS,
): string {
  return `Not created: this program declares ${count} Webhooks for the organization of this one, more than the ${quota} active webhooks the service allows (the failed check of one of them lists them all). ${fitAdvice(count, quota, language)}`;
}

/**
 * `subject` ("This Webhook", or `Webhook "orders"`) is replaced while the program holds `holds` Webhooks for its organization, the most it may
 * have: created before the old one is deleted, the replacement needs a slot beyond the quota. `replaced`
 * are the members whose change replaces it. `certain` says whether the option is known to be unset (the
 * dynamic resource's program knows it; the provider plugin cannot see resource options).
 */
export function replaceAtQuotaMessage(
  subject: string,
  replaced: readonly string[],
  holds: number,
  certain: boolean,
  language: ProgramLanguage | undefined = programLanguage(),
): string {
  const because = replaced.map((member) => spellProperty(member, language)).join(", ");
  const setting = optionSetting("deleteBeforeReplace", true, language);
  const pause = "the old webhook is deactivated first, so its deliveries pause during the swap";
  const free = "or remove another Webhook of this organization from the program to free a slot";
  const slot = `an ${ordinal(holds + 1)} slot, which the service refuses (409)`;
  const situation = `${subject} would be replaced (${because} changed) while this program holds ${holds} Webhooks for its organization, the most the service allows`;
  return certain
    ? `${situation}: Pulumi creates the replacement before it deletes the old webhook, so it needs ${slot}. Give it ${setting} (${pause}), ${free}.`
    : `${situation}. Unless it sets ${setting} (the provider cannot see resource options), Pulumi creates the replacement before it deletes the old webhook, and the replacement needs ${slot}: set that option (${pause}), ${free}.`;
}

/** 10 → "10th", 11 → "11th", 1 → "1st". */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}
