/**
 * The quota, counted in the program itself, before any Webhook reaches the engine. A Webhook's
 * registration waits on its quota gate: the gates of all Webhooks declared in one turn of the program
 * (everything its synchronous construction declares, and whatever it declares before the event loop
 * next turns) settle together once that turn is over. If the program then declares more Webhooks for one
 * organization than the service allows, every gate of that organization's Webhooks in the turn fails with
 * one error that lists them: none is registered, so `pulumi preview` stops with no API call and
 * `pulumi up`, with or without `--skip-preview`, creates none of them.
 *
 * What it cannot see: a Webhook whose `connection` is not known by the end of its turn (computed from
 * another resource's outputs) is not counted; and a Webhook declared in a later turn (inside an `apply`,
 * after an `await`) is counted with the earlier ones, but only it can still be held back: with
 * `--skip-preview`, the earlier ones may already be created.
 *
 * The gate also tells a Webhook that its organization is at the quota and that it does not set
 * `deleteBeforeReplace`; its check then refuses a replacement, which would need one slot more (plan.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { MAX_ACTIVE_WEBHOOKS } from "../api/limits";
import type { ConnectionInput } from "../api/shapes";
import { contextKey, processContext } from "../context/process";
import { type CredentialSettings, organizationKey } from "../lifecycle-kit/organization";
import { STACK_KEYS } from "../lifecycle-kit/stack-config";
import { overQuotaMessage } from "./quota-messages";
import { overQuota, QuotaTally } from "./quota-tally";

/** What a Webhook's gate settles to when it may be registered. */
interface Verdict {
  /** How many Webhooks the program holds for its organization, when that is the quota and the option is unset. */
  readonly atQuota?: number;
}

interface Member {
  readonly id: string;
  readonly name: string;
  readonly deleteBeforeReplace: boolean;
  /** The key of its organization, once its credentials are known. */
  organization?: string;
  readonly settle: { resolve(verdict: Verdict): void; reject(error: Error): void };
}

/** The Webhooks one run of a program declares. */
class ProgramLedger {
  readonly tally = new QuotaTally();
  private turn: Member[] = [];
  private declared = 0;

  enroll(name: string, connection: pulumi.Input<ConnectionInput> | undefined, deleteBeforeReplace: boolean) {
    return new Promise<Verdict>((resolve, reject) => {
      const member: Member = {
        id: String(this.declared++),
        name,
        deleteBeforeReplace,
        settle: { resolve, reject },
      };
      whenKnown(connection, (settings) => {
        member.organization = organizationKey(settings, stackCredentials());
      });
      if (this.turn.length === 0) setImmediate(() => this.settleTurn());
      this.turn.push(member);
    });
  }

  /** Counts the turn's Webhooks whose credentials are known, and settles every gate of the turn. */
  private settleTurn(): void {
    const members = this.turn;
    this.turn = [];
    const counted = members.filter((m) => m.organization !== undefined);
    const holdings = this.tally.record(
      counted.map((m) => ({ id: m.id, name: m.name, organization: m.organization! })),
    );
    const byOrganization = new Map(holdings.map((h) => [h.organization, h]));
    const refusals = new Map<string, Error>();
    for (const holding of holdings.filter((h) => overQuota(h))) {
      const refused = counted.filter((m) => m.organization === holding.organization).map((m) => m.name);
      // A RunError is printed as its message alone, and one error object is printed once however many
      // registrations it fails.
      refusals.set(
        holding.organization,
        new pulumi.RunError(overQuotaMessage(holding.names, { held: refused }, "nodejs")),
      );
    }
    for (const member of members) {
      const holding = member.organization === undefined ? undefined : byOrganization.get(member.organization);
      const refusal = member.organization === undefined ? undefined : refusals.get(member.organization);
      if (refusal) member.settle.reject(refusal);
      else if (holding && holding.names.length >= MAX_ACTIVE_WEBHOOKS && !member.deleteBeforeReplace)
        member.settle.resolve({ atQuota: holding.names.length });
      else member.settle.resolve({});
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
  connection: pulumi.Input<ConnectionInput> | undefined,
  use: (settings: CredentialSettings | undefined) => void,
): void {
  if (connection === undefined || isPlain(connection)) {
    use(connection as CredentialSettings | undefined);
    return;
  }
  // An unknown value at preview never calls back; a rejected one fails the Webhook's own registration.
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

/** What a Webhook adds to its registration: a dependency that waits on its gate, and the at-quota input. */
export interface QuotaGate {
  /** Holds the registration until the turn is counted; fails it when the organization is over the quota. */
  readonly dependsOn: Promise<pulumi.Resource[]>;
  /** The value of the input `AT_QUOTA_INPUT` (schema.ts): undefined (left out) unless the organization is at the quota. */
  readonly atQuota: Promise<number | undefined>;
}

/** Enrolls a Webhook of this program run in the quota count. */
export function quotaGate(
  name: string,
  connection: pulumi.Input<ConnectionInput> | undefined,
  opts: pulumi.CustomResourceOptions,
): QuotaGate {
  const verdict = ledger().enroll(name, connection, opts.deleteBeforeReplace === true);
  const dependsOn = verdict.then(() => []);
  // Handled here, so that Node does not report it before the SDK awaits it: the SDK's own rejection of
  // the registration is the one the program reports.
  dependsOn.catch(() => {});
  return {
    dependsOn,
    // Never rejects: the dependency carries the failure, so that it is reported once, as it is.
    atQuota: verdict.then(
      (v) => v.atQuota,
      () => undefined,
    ),
  };
}
