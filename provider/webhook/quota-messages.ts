/**
 * What a program is told when its Webhooks do not fit the organization's quota: too many for one
 * organization, or a replacement that would need a slot beyond the last. Each names the Webhooks, the
 * count and the way out, spelling resource options and properties in the program's language, and none
 * shows a credential: organizations are told apart by the Webhooks that share them.
 */
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import {
  optionSetting,
  type ProgramLanguage,
  programLanguage,
  spellProperty,
} from "../context/program-language";
import { SETTINGS, stackKey } from "../settings/table";

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
