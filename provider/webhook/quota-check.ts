/**
 * What a Webhook's check finds about the organization's quota, beyond its own inputs.
 *
 * - From a TypeScript program: the program counted its Webhooks before registering any (program-quota.ts)
 *   and tells the check, through the input `QUOTA_INPUT`, when the organization is over the quota (the
 *   check fails with the program's refusal), or at it while this Webhook does not set
 *   `deleteBeforeReplace` (a replacement fails: created before the old webhook is deleted, it would need
 *   a slot beyond the quota).
 * - From the provider plugin, which serves programs in every language and so has no part in the program:
 *   one plugin process serves every resource of one engine operation (a preview, or the update phase of
 *   `pulumi up`, each in a process of its own), so it sees a Check of every Webhook the program declares,
 *   with its URN. The Check that takes an organization beyond the quota fails, naming all its Webhooks:
 *   `pulumi preview` stops with no API call, and so does `pulumi up`, which previews first. With
 *   `--skip-preview`, creates of the Webhooks checked before it may already have started; a create whose
 *   organization is over the quota is refused (see apply.ts). A URN is counted once however often it is
 *   checked, and a replaced Webhook is one URN. A replacement in an organization at the quota gets a
 *   warning rather than a failure: the plugin cannot see whether the resource sets `deleteBeforeReplace`.
 *
 * The dynamic-provider host does not pass the URN on, so a dynamic resource is never counted here.
 */
import { ConnectionInput } from "../../contract/connection";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import { contextKey, processContext } from "../context/process";
import type { CheckFailure } from "../lifecycle/check";
import type { ResourceProps } from "../lifecycle/methods";
import { type CredentialSettings, organizationKey } from "../lifecycle/organization";
import { stackSettings } from "../lifecycle/stack-config";
import { containsUnknown } from "../lifecycle/unknowns";
import { overQuotaMessage, replaceAtQuotaMessage } from "./quota-messages";
import { type Holding, overQuota, QuotaTally } from "./quota-tally";
import type { QuotaInput } from "./schema";

/** A message for the engine to show on the resource with the URN. */
export interface QuotaWarning {
  /** The resource the warning is about. */
  readonly urn: string;
  /** What it says. */
  readonly message: string;
}

/** What the check knows beyond the inputs. */
export interface QuotaContext {
  /** What the program counted of the organization's Webhooks, where it has something to say (schema.ts). */
  readonly told: QuotaInput | undefined;
  /** The resource's URN, when the caller passes it (the provider plugin). */
  readonly urn: string | undefined;
}

interface Replacement {
  readonly name: string;
  readonly organization: string;
  readonly members: readonly string[];
}

const CHECKED = contextKey("webhooks the engine checked", () => ({
  tally: new QuotaTally(),
  replacements: new Map<string, Replacement>(),
  warned: new Set<string>(),
}));

/** The resource's name: the last part of its URN (`urn:pulumi:stack::project::type::name`). */
const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * The check's answer with the quota's findings added. `result` is the validated inputs and their
 * failures; `replaced` the members whose change replaces the webhook (none for a create).
 */
export function quotaFindings(
  result: { inputs: ResourceProps; failures: CheckFailure[] },
  replaced: readonly string[],
  context: QuotaContext,
): { inputs: ResourceProps; failures: CheckFailure[]; warnings: QuotaWarning[] } {
  const failures = [...result.failures];
  const { told } = context;
  if (told?.refusal !== undefined) {
    failures.push({ property: "", reason: told.refusal });
  } else if (told !== undefined && replaced.length > 0) {
    const reason = replaceAtQuotaMessage("This Webhook", replaced, told.holds, true, "nodejs");
    failures.push({ property: "", reason });
  }
  const counted = countable(context.urn, result) ? count(context.urn!, result.inputs, replaced) : undefined;
  if (counted?.failure) failures.push({ property: "", reason: counted.failure });
  return { inputs: result.inputs, failures, warnings: counted?.warnings ?? [] };
}

/** Whether the Webhook can be counted: its URN is known, and its credentials are known and valid. */
function countable(urn: string | undefined, result: { inputs: ResourceProps; failures: CheckFailure[] }) {
  return (
    urn !== undefined &&
    !containsUnknown(result.inputs.connection) &&
    // By its rule, not by the failures' wording, which spells the field in the program's language.
    (result.inputs.connection === undefined || ConnectionInput.safeParse(result.inputs.connection).success)
  );
}

/**
 * Counts the Webhook `urn` with the others of its organization. Answers why its check fails, if it takes
 * the organization beyond the quota, and the warnings due now about replacements in an organization that
 * holds the quota (each once).
 */
function count(urn: string, inputs: ResourceProps, replaced: readonly string[]) {
  const organization = organizationKey(inputs.connection as CredentialSettings | undefined, stackSettings());
  const checked = processContext().get(CHECKED);
  const [holding] = checked.tally.record([{ id: urn, name: nameOf(urn), organization }]);
  if (replaced.length > 0)
    checked.replacements.set(urn, { name: nameOf(urn), organization, members: replaced });
  if (overQuota(holding!))
    return { failure: overQuotaMessage(holding!.names, { checkFailed: nameOf(urn) }), warnings: [] };
  return { warnings: holding!.names.length >= MAX_ACTIVE_WEBHOOKS ? replacementWarnings(holding!) : [] };
}

/** Warnings for the replacements in an organization at the quota that were not warned of yet. */
function replacementWarnings(holding: Holding): QuotaWarning[] {
  const { replacements, warned } = processContext().get(CHECKED);
  const due = [...replacements].filter(
    ([urn, r]) => r.organization === holding.organization && !warned.has(urn),
  );
  for (const [urn] of due) warned.add(urn);
  return due.map(([urn, r]) => ({
    urn,
    message: replaceAtQuotaMessage(`Webhook "${r.name}"`, r.members, holding.names.length, false),
  }));
}

/**
 * What the organization of a Webhook with `connection` holds, when the Checks of this process took it
 * beyond the quota; undefined otherwise (always, in a process that counted nothing).
 */
export function checkedOverQuota(connection: CredentialSettings | undefined): Holding | undefined {
  const holding = processContext().get(CHECKED).tally.holding(organizationKey(connection, stackSettings()));
  return overQuota(holding) ? holding : undefined;
}
