/**
 * The quota, counted in the program itself, before any Webhook reaches the engine. Each Webhook has an
 * input, `QUOTA_INPUT` (schema.ts), whose value the SDK waits for before it registers the Webhook: the
 * values of all Webhooks declared in one turn of the program (everything its synchronous construction
 * declares, and whatever it declares before the event loop next turns) settle together once that turn is
 * over, with what the count found for each one's organization:
 *
 * - more Webhooks than the service allows: every one of that organization's Webhooks in the turn carries
 *   the refusal, a message that names the count, the Webhooks and the fix, and its check fails with it.
 *   So `pulumi preview` stops with no API call, and `pulumi up`, with or without `--skip-preview`, creates
 *   none of them: no check of theirs passes.
 * - exactly as many as it allows: each Webhook without `deleteBeforeReplace` is told so, and its check
 *   fails a replacement, which would need one slot more (quota-check.ts).
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
import * as pulumi from "@pulumi/pulumi";
import type { ConnectionInput } from "../../contract/common-types";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import { contextKey, processContext } from "../context/process";
import { type CredentialSettings, organizationKey } from "../lifecycle/organization";
import { STACK_KEYS } from "../lifecycle/stack-config";
import { overQuotaMessage } from "./quota-messages";
import { overQuota, QuotaTally } from "./quota-tally";
import type { QuotaInput } from "./schema";

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
  private turn: Member[] = [];
  private declared = 0;

  enroll(name: string, connection: pulumi.Input<ConnectionInput> | undefined, deleteBeforeReplace: boolean) {
    return new Promise<QuotaInput | undefined>((open) => {
      const member: Member = { id: String(this.declared++), name, deleteBeforeReplace, open };
      whenKnown(connection, (settings) => {
        member.organization = organizationKey(settings, stackCredentials());
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
  connection: pulumi.Input<ConnectionInput> | undefined,
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
  connection: pulumi.Input<ConnectionInput> | undefined,
  opts: pulumi.CustomResourceOptions,
): Promise<QuotaInput | undefined> {
  return ledger().enroll(name, connection, opts.deleteBeforeReplace === true);
}
