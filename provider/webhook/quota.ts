/**
 * The organization's quota of active webhooks, counted before any create: in the program itself (the
 * Webhook class enrols each Webhook), and in the provider plugin's checks. The service allows an
 * organization `MAX_ACTIVE_WEBHOOKS` active webhooks and refuses each create beyond (409), so a program
 * that declares more would stop halfway through `pulumi up`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ConnectionInput as Connection } from "../../contract/common-types";
import { ConnectionInput } from "../../contract/connection";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import { contextKey, processContext } from "../context/process";
import type { CheckFailure } from "../lifecycle/check";
import type { ResourceProps } from "../lifecycle/methods";
import { type CredentialSettings, organizationKey } from "../lifecycle/organization";
import { STACK_KEYS } from "../lifecycle/stack-config";
import { containsUnknown } from "../lifecycle/unknowns";
import { resolve } from "../settings/resolve";
import type { Settings } from "../settings/value";
import { overQuotaMessage, replaceAtQuotaMessage } from "./messages";

/**
 * The input through which a TypeScript program tells a Webhook's check what it counted of the
 * organization's Webhooks, when that matters: over the quota, or at it for a Webhook without
 * `deleteBeforeReplace`. Check leaves it out of the inputs it returns, so state never holds its value.
 */
export const QUOTA_INPUT = "__organizationQuota";

/** What a program tells a Webhook's check through `QUOTA_INPUT`. */
export interface QuotaInput {
  /** How many Webhooks the program holds for the Webhook's organization. */
  readonly holds: number;
  /** Set when they are more than the service allows: why the Webhook must not be created. */
  readonly refusal?: string;
}

/**
 * How many Webhooks a program declares per organization, counted before any is created: the service
 * allows an organization `MAX_ACTIVE_WEBHOOKS` active webhooks and refuses each create beyond (409), so a
 * program that declares more would stop halfway through `pulumi up`. Pure bookkeeping: who is counted
 * and where, with no Pulumi and no API. The program's side and the provider plugin's side each keep one
 * tally per run.
 */

/** One declared Webhook, as the tally counts it. */
export interface Declared {
  /** What makes it one Webhook: its URN, or its place in the program. Counted once, however often recorded. */
  readonly id: string;
  /** Its name in the program, which messages list. */
  readonly name: string;
  /** The key of the organization its credentials reach (see organizationKey). */
  readonly organization: string;
}

/** What one organization holds: the names of the Webhooks declared for it, in the order first recorded. */
export interface Holding {
  /** The organization's key. */
  readonly organization: string;
  /** The names of its Webhooks, each once. */
  readonly names: readonly string[];
}

/** Whether `holding` has more Webhooks than the organization may have active at once. */
export function overQuota(holding: Holding, quota: number = MAX_ACTIVE_WEBHOOKS): boolean {
  return holding.names.length > quota;
}

/**
 * Webhooks per organization. Recording a Webhook again (the same id) changes nothing, so a resource that
 * is checked twice, or replaced, still takes one place.
 */
export class QuotaTally {
  /** Per organization, the names of its Webhooks by id. */
  private readonly organizations = new Map<string, Map<string, string>>();

  /** Records each of `declared`; answers what each organization among them now holds. */
  record(declared: readonly Declared[]): Holding[] {
    for (const { id, name, organization } of declared) {
      const names = this.organizations.get(organization) ?? new Map<string, string>();
      names.set(id, name);
      this.organizations.set(organization, names);
    }
    return [...new Set(declared.map((d) => d.organization))].map((o) => this.holding(o));
  }

  /** What `organization` holds now (nothing, if nothing was recorded for it). */
  holding(organization: string): Holding {
    return { organization, names: [...(this.organizations.get(organization)?.values() ?? [])] };
  }
}

/**
 * The quota, counted in the program itself, before any Webhook reaches the engine. Each Webhook has an
 * input, `QUOTA_INPUT`, whose value the SDK waits for before it registers the Webhook: the
 * values of all Webhooks declared in one turn of the program (everything its synchronous construction
 * declares, and whatever it declares before the event loop next turns) settle together once that turn is
 * over, with what the count found for each one's organization:
 *
 * - more Webhooks than the service allows: every one of that organization's Webhooks in the turn carries
 *   the refusal, a message that names the count, the Webhooks and the fix, and its check fails with it.
 *   So `pulumi preview` stops with no API call, and `pulumi up`, with or without `--skip-preview`, creates
 *   none of them: no check of theirs passes.
 * - exactly as many as it allows: each Webhook without `deleteBeforeReplace` is told so, and its check
 *   fails a replacement, which would need one slot more (see quotaFindings).
 *
 * Failing the checks rather than the registrations keeps the program itself from failing: a registration
 * that fails rejects the resource's outputs, and Node then warns of every rejection the program's stack
 * outputs take up later.
 *
 * What it cannot see: a Webhook whose `connection` is not known by the end of its turn (computed from
 * another resource's outputs) is not counted; and a Webhook declared in a later turn (inside an `apply`,
 * after an `await`) is counted with the earlier ones, but only it can still be held back: with
 * `--skip-preview`, the earlier ones may already be created.
 */

interface Member {
  readonly id: string;
  readonly name: string;
  readonly deleteBeforeReplace: boolean;
  /** The key of its organization, once its credentials are known. */
  organization?: string;
  /** Settles its input, with what the Webhook's check is to be told (nothing, mostly). */
  readonly open: (told: QuotaInput | undefined) => void;
}

/** The Webhooks one run of a program declares. */
class ProgramLedger {
  readonly tally = new QuotaTally();
  // The program's own process has no `configure`: its settings are the environment's, read at its start.
  private readonly settings = resolve({});
  private turn: Member[] = [];
  private declared = 0;

  enroll(name: string, connection: pulumi.Input<Connection> | undefined, deleteBeforeReplace: boolean) {
    return new Promise<QuotaInput | undefined>((open) => {
      const member: Member = { id: String(this.declared++), name, deleteBeforeReplace, open };
      whenKnown(connection, (settings) => {
        member.organization = organizationKey(settings, stackCredentials(), this.settings);
      });
      if (this.turn.length === 0) setImmediate(() => this.closeTurn());
      this.turn.push(member);
    });
  }

  /** Counts the turn's Webhooks whose credentials are known, and settles the input of every one of them. */
  private closeTurn(): void {
    const members = this.turn;
    this.turn = [];
    const counted = members.filter((m) => m.organization !== undefined);
    const holdings = this.tally.record(
      counted.map((m) => ({ id: m.id, name: m.name, organization: m.organization! })),
    );
    const told = new Map<string, (member: Member) => QuotaInput | undefined>();
    for (const holding of holdings) {
      const holds = holding.names.length;
      if (overQuota(holding)) {
        const held = counted.filter((m) => m.organization === holding.organization).map((m) => m.name);
        const refusal = overQuotaMessage(holding.names, { held }, "nodejs");
        told.set(holding.organization, () => ({ holds, refusal }));
      } else if (holds >= MAX_ACTIVE_WEBHOOKS) {
        told.set(holding.organization, (m) => (m.deleteBeforeReplace ? undefined : { holds }));
      }
    }
    for (const member of members) {
      const tell = member.organization === undefined ? undefined : told.get(member.organization);
      member.open(tell?.(member));
    }
  }
}

/** The stack's own credentials, as the provider reads them in `configure`. */
function stackCredentials(): CredentialSettings {
  return {
    token: pulumi.runtime.getConfig(STACK_KEYS.token),
    baseUrl: pulumi.runtime.getConfig(STACK_KEYS.baseUrl),
  };
}

/** Calls `use` with the connection's plain value: at once when it is plain, else when (and if) it resolves. */
function whenKnown(
  connection: pulumi.Input<Connection> | undefined,
  use: (settings: CredentialSettings | undefined) => void,
): void {
  if (connection === undefined || isPlain(connection)) {
    use(connection as CredentialSettings | undefined);
    return;
  }
  // An unknown value at preview never calls back: such a Webhook is not counted. A rejected one fails the
  // Webhook's own registration, with the same error.
  pulumi.output(connection).apply((settings) => use(settings as CredentialSettings | undefined));
}

const isPlain = (value: unknown): value is CredentialSettings =>
  typeof value === "object" &&
  value !== null &&
  Object.values(value).every((member) => member === undefined || typeof member === "string");

/**
 * Ledgers per run of a program, by the run's resource monitor: an Automation API process runs programs
 * one after another, and test suites set new mocks for each test.
 */
const LEDGERS = contextKey("webhooks declared per program run", () => new WeakMap<object, ProgramLedger>());
const NO_MONITOR = {};

function ledger(): ProgramLedger {
  const run = pulumi.runtime.getMonitor() ?? NO_MONITOR;
  const ledgers = processContext().get(LEDGERS);
  let found = ledgers.get(run);
  if (!found) {
    found = new ProgramLedger();
    ledgers.set(run, found);
  }
  return found;
}

/**
 * Enrolls a Webhook of this program run in the quota count: the value of its input `QUOTA_INPUT`, which
 * the SDK waits for before it registers the Webhook, so that registration waits until the turn is counted.
 * Undefined (the input is left out) unless the count has something to tell the check.
 */
export function quotaInput(
  name: string,
  connection: pulumi.Input<Connection> | undefined,
  opts: pulumi.CustomResourceOptions,
): Promise<QuotaInput | undefined> {
  return ledger().enroll(name, connection, opts.deleteBeforeReplace === true);
}

/**
 * What a Webhook's check finds about the organization's quota, beyond its own inputs.
 *
 * - From a TypeScript program: the program counted its Webhooks before registering any (see quotaInput)
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
 *   organization is over the quota is refused (see lifecycle.ts). A URN is counted once however often it is
 *   checked, and a replaced Webhook is one URN. A replacement in an organization at the quota gets a
 *   warning rather than a failure: the plugin cannot see whether the resource sets `deleteBeforeReplace`.
 *
 * The dynamic-provider host does not pass the URN on, so a dynamic resource is never counted here.
 */

/** A message for the engine to show on the resource with the URN. */
export interface QuotaWarning {
  /** The resource the warning is about. */
  readonly urn: string;
  /** What it says. */
  readonly message: string;
}

/** What the check knows beyond the inputs. */
export interface QuotaContext {
  /** What the program counted of the organization's Webhooks, where it has something to say (`QUOTA_INPUT`). */
  readonly told: QuotaInput | undefined;
  /** The resource's URN, when the caller passes it (the provider plugin). */
  readonly urn: string | undefined;
  /** The provider's settings, whose stack credentials a `connection` falls back on. */
  readonly settings: Settings;
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
  const counted = countable(context.urn, result)
    ? count(context.urn!, result.inputs, replaced, context.settings)
    : undefined;
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
function count(urn: string, inputs: ResourceProps, replaced: readonly string[], settings: Settings) {
  const connection = inputs.connection as CredentialSettings | undefined;
  const organization = organizationKey(connection, settings.stack, settings);
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
 * beyond the quota, under the provider's `settings`; undefined otherwise (always, in a process that counted
 * nothing).
 */
export function checkedOverQuota(
  connection: CredentialSettings | undefined,
  settings: Settings,
): Holding | undefined {
  const organization = organizationKey(connection, settings.stack, settings);
  const holding = processContext().get(CHECKED).tally.holding(organization);
  return overQuota(holding) ? holding : undefined;
}
