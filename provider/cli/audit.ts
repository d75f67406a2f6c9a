/**
 * `service-pulumi audit`: every active webhook and registered domain of each organization, checked
 * against the stacks' states (managed, conflict, orphaned, drifted), the quota used, the commands that
 * adopt each orphan, and on request the orphans deactivated. Exit 0 clean, 1 findings, 2 failure.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Domain } from "../../contract/domains/types";
import type { Webhook } from "../../contract/webhooks/types";
import type { ServiceClient } from "../client/client";
import { credentialKey } from "../lifecycle/clients";
import { resolve as resolveSettings } from "../settings/resolve";
import type { Settings } from "../settings/value";
import { parseCommand } from "./args";
import {
  type AuditedDomain,
  type AuditedWebhook,
  auditOrganization,
  FINDINGS,
  type OrganizationAudit,
  summaryOf,
} from "./audit-model";
import { type AuditDocument, auditMarkdown } from "./audit-render";
import type { CommandIo } from "./command";
import { type CredentialFlags, clientForStack, credentialFlags, namedStacks } from "./credentials";
import { CliFailure, EXIT } from "./failure";
import { adoptionLines, adoptionOf } from "./import-file";
import { readInputText } from "./json-input";
import { type Listing, listDomains, listWebhooks, organizationListed } from "./listing";
import { exportStack, projectIn, stackConfig } from "./pulumi-cli";
import { readState, type StackState } from "./state-export";
import { printable, shellCommand } from "./untrusted";

const auditCommand = {
  name: "audit",
  positionals: false,
  options: {
    state: { type: "string", multiple: true },
    stack: { type: "string", multiple: true },
    stacks: { type: "string" },
    cwd: { type: "string" },
    token: { type: "string" },
    "base-url": { type: "string" },
    json: { type: "boolean", default: false },
    "import-file": { type: "string" },
    "deactivate-orphans": { type: "boolean", default: false },
    orphan: { type: "string", multiple: true },
    "max-deactivations": { type: "string" },
    yes: { type: "boolean", short: "y", default: false },
  },
  help: `Usage: service-pulumi audit (--state export.json ... | --stacks dev,staging,prod) [options]

Lists every active webhook and registered domain of each organization the stacks reach (one listing of
each, pages of 20 at 10 requests per second) and classifies it against the stacks' states:
  managed    in exactly one stack's state; a domain, registered by one (others may have adopted it)
  conflict   in two or more; a domain, registered by two or more
  orphaned   in none, eating quota (with the commands that adopt it)
  drifted    in a state but no longer active or registered: that stack needs \`pulumi refresh\`
  unmanaged  a domain in no state that webhooks the stacks keep still target (reported, not a finding)
and prints the quota used, n of 10.

Stacks:
  --state <file>          A state from \`pulumi stack export\` (repeatable).
  --stacks <a,b,...>      Stacks of the Pulumi project in --cwd, exported with your Pulumi CLI and backend.
                          --stack <name> (repeatable) too.
  --cwd <dir>             The project folder (default: .). A --state of another project than the folder's
                          is refused.

Credentials, never taken from a --state file:
  --token <token>         The API token. Else the service:token of a stack given with --stacks; else
                          SERVICE_API_TOKEN.
  --base-url <url>        The API base URL. Else the service:baseUrl of a stack given with --stacks;
                          else SERVICE_BASE_URL; else the local sandbox.

Output and actions:
  --json                  A stable JSON document instead of Markdown.
  --import-file <file>    Write Pulumi's import file of the orphans (every orphaned webhook, and every
                          domain in no state) for \`pulumi import --file <file> --out <program file>\`,
                          with names made from their channels and hostnames; stderr then gives, for each
                          webhook, the config key of its secret key and the program line that reads it.
                          The orphans of one organization only.
  --deactivate-orphans    Deactivate the orphaned webhooks (and domains no kept webhook targets), after
                          listing them and a confirmation. Managed and conflicting ones are never
                          touched. Refused, with nothing deactivated, unless every Webhook and Domain of
                          the states was read whole, each state holds objects of the organization, each
                          records its owner, and the listing matches one to one.
  --orphan <uuid>         Deactivate only this orphan (repeatable); one that is not an orphan is refused.
  --max-deactivations <n> Refuse, deactivating nothing, when more than n orphans would be deactivated.
  -y, --yes               Confirm --deactivate-orphans without asking.
  -h, --help              This help.

Exit codes: 0 clean; 1 something is orphaned, conflicting or drifted; 2 a usage, input, credential or API
error, or --deactivate-orphans refused after the report (one line on stderr).
`,
} as const;

/** A stack to audit: its state and the client its credentials make. */
interface AuditedStack {
  readonly state: StackState;
  readonly client: ServiceClient;
}

async function readStateFile(
  file: string,
  io: CommandIo,
  folderProject: string | undefined,
  cwd: string,
): Promise<StackState> {
  const text = await readInputText(
    file,
    io,
    `give a file written by \`pulumi stack export --stack <name> > ${file === "-" ? "state.json" : file}\``,
  );
  const state = readState(file, text);
  if (folderProject !== undefined && state.project !== folderProject) {
    throw new CliFailure(
      `${file}: the state of ${state.label}, of project ${state.project}, but ${cwd} is project ${folderProject}'s folder: give a state of ${folderProject}, or run in ${state.project}'s folder (--cwd).`,
    );
  }
  return state;
}

/**
 * The stacks to audit: each --state file, with the credentials of the flags or the environment (a file's
 * URNs never pick a stack whose config is read), and each stack named with --stacks, whose config is read
 * (registering its secrets) before its state is exported.
 */
async function loadStacks(
  values: Record<string, unknown>,
  io: CommandIo,
  flags: CredentialFlags,
): Promise<AuditedStack[]> {
  const cwd = resolve(io.cwd, (values.cwd as string | undefined) ?? ".");
  const folderProject = projectIn(cwd);
  const stacks: AuditedStack[] = [];
  for (const file of (values.state as string[] | undefined) ?? []) {
    const state = await readStateFile(file, io, folderProject, cwd);
    stacks.push({ state, client: clientForStack(state.label, flags, {}) });
  }
  const names = namedStacks(values);
  if (names.length > 0 && folderProject === undefined) {
    throw new CliFailure(
      `service-pulumi audit: --stacks reads the project in ${cwd}, which holds no Pulumi.yaml: run in the project folder, or give --cwd <folder>.`,
    );
  }
  // Every named stack's config first, registering its secrets, before any state is exported.
  const configs = names.map((stack) => stackConfig(cwd, stack, `${folderProject}/${stack}`));
  for (const [i, stack] of names.entries()) {
    const label = `${folderProject}/${stack}`;
    const state = readState(`stack ${stack}`, exportStack(cwd, stack, label), {
      project: folderProject!,
      stack,
    });
    stacks.push({ state, client: clientForStack(label, flags, configs[i]!) });
  }
  // Two states of one stack would each hold its objects: audit would call them conflicts, and advise
  // deleting them from "the other" stack, which is the same one.
  for (const [i, { state }] of stacks.entries()) {
    const twin = stacks.slice(0, i).find((s) => s.state.label === state.label);
    if (twin) {
      throw new CliFailure(
        `${state.source}: a second state of ${state.label} (${twin.state.source} is the first): give each stack once. A state imported into another stack keeps the first stack's name in its URNs: give that stack with --stacks, which knows its name.`,
      );
    }
  }
  return stacks;
}

/** One organization: its stacks, its listings and the client that made them. */
interface Reached {
  organization: string;
  client: ServiceClient;
  stacks: StackState[];
  webhooks: Listing<Webhook>;
  domains: Listing<Domain>;
}

/**
 * Whether a stack's credentials reach the organization its state records: refused when none of its
 * objects belongs to the organization the token reaches. Objects of other organizations (resources with a
 * `connection` of their own) are left out of this audit, and stderr says so.
 */
function checkOrganization(state: StackState, listed: string | undefined, io: CommandIo): void {
  const owners = [...new Set(state.objects.flatMap((o) => (o.organization ? [o.organization] : [])))];
  const refer = (owner: string) =>
    `give ${owner}'s token (--token, the stack's service:token or SERVICE_API_TOKEN)`;
  if (listed === undefined && state.objects.length > 0) {
    const owner = owners[0] ?? "another organization";
    throw new CliFailure(
      `${state.source}: the token reaches an organization with no active webhook and no registered domain, but ${state.label}'s state holds ${state.objects.length} of ${owner}'s: ${refer(owner)}, or, if they were all deactivated out of band, ${refreshAdvice(state)}.`,
    );
  }
  if (listed !== undefined && owners.length > 0 && !owners.includes(listed)) {
    throw new CliFailure(
      `${state.source}: ${state.label}'s state holds objects of organization ${owners.join(" and ")}, but its token reaches organization ${listed}: ${refer(owners[0]!)}.`,
    );
  }
  const elsewhere = state.objects.filter((o) => o.organization !== undefined && o.organization !== listed);
  if (elsewhere.length > 0) {
    const names = [...new Set(elsewhere.map((o) => o.organization))].join(", ");
    io.stderr(
      `${state.label}: ${elsewhere.length} of its objects belong to ${names}, which its token does not reach (their resources give their own connection): not audited here; audit them with that organization's token (--token).\n`,
    );
  }
}

/** One listing pass of each kind per set of credentials, checked against the organization the states record. */
async function reachOrganizations(stacks: readonly AuditedStack[], io: CommandIo): Promise<Reached[]> {
  const byCredentials = new Map<string, AuditedStack[]>();
  for (const stack of stacks) {
    const key = credentialKey(stack.client);
    byCredentials.set(key, [...(byCredentials.get(key) ?? []), stack]);
  }
  const reached = new Map<string, Reached>();
  for (const group of byCredentials.values()) {
    const first = group[0]!;
    // Other credentials of an organization already listed (all their stacks' objects are its): one
    // listing pass per organization and kind serves them too.
    const owners = new Set(group.flatMap((s) => s.state.objects.flatMap((o) => o.organization ?? [])));
    const [owner] = owners;
    const listedBefore = owners.size === 1 ? reached.get(owner!) : undefined;
    if (listedBefore) {
      listedBefore.stacks.push(...group.map((s) => s.state));
      continue;
    }
    const webhooks = await listWebhooks(first.client, first.state.label);
    const domains = await listDomains(first.client, first.state.label);
    const listed = organizationListed(webhooks.items, domains.items);
    for (const { state } of group) checkOrganization(state, listed, io);
    const organization =
      listed ?? `(the organization of ${first.state.label}'s token, which has no webhook or domain)`;
    const known = reached.get(organization);
    if (known) known.stacks.push(...group.map((s) => s.state));
    else
      reached.set(organization, {
        organization,
        client: first.client,
        stacks: group.map((s) => s.state),
        webhooks,
        domains,
      });
  }
  // Each organization's stacks in the order they were given.
  const order = stacks.map((s) => s.state);
  for (const r of reached.values()) r.stacks.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return [...reached.values()];
}

/** An orphan to deactivate, with the organization and client it belongs to. */
interface Orphan {
  readonly organization: string;
  readonly client: ServiceClient;
  readonly kind: "webhook" | "domain";
  readonly object: AuditedWebhook | AuditedDomain;
}

/** A refusal of --deactivate-orphans: the report is still printed, then this line, and the exit code is 2. */
class DeactivationRefused extends CliFailure {}

const refused = (cause: string) =>
  new DeactivationRefused(`service-pulumi audit --deactivate-orphans: ${cause}; nothing was deactivated.`);

/**
 * "run `pulumi refresh --stack dev` in project infra's folder", with the stack's name quoted as one shell
 * word (a state's URNs chose it); in words when it cannot be shown safely.
 */
function refreshAdvice(state: StackState): string {
  const command = shellCommand(["pulumi", "refresh", "--stack", state.stack]);
  return command
    ? `run \`${command}\` in project ${printable(state.project)}'s folder`
    : "run `pulumi refresh` on that stack (its name holds characters that cannot be shown safely)";
}

/**
 * Why the states and listings do not show the whole picture, so that an object that looks orphaned may
 * be managed after all; undefined when they do. An orphan is only what no state holds, so a state read
 * in part, the wrong state, an object with no recorded owner or a listing that is not one object per uuid
 * would each turn a managed object into an "orphan".
 */
function unwhole(reached: readonly Reached[], states: readonly StackState[]): string | undefined {
  for (const state of states) {
    const [unread] = state.unread;
    if (unread) {
      return `${state.source}: ${unread.urn} of ${state.label} could not be read (${unread.cause}), so what it stands for is unknown: ${refreshAdvice(state)}, then audit again`;
    }
    const ownerless = state.objects.find((o) => o.organization === undefined);
    if (ownerless) {
      const which = `${state.source}: ${ownerless.kind} ${ownerless.uuid} (${ownerless.urn}) of ${state.label}`;
      return ownerless.hidden.includes("owner") || ownerless.hidden.includes("organization")
        ? `${which} keeps its owner secret, so which organization's it is is unknown: deactivate orphans without --deactivate-orphans, by hand, once you have checked each`
        : `${which} records no owner, so which organization's it is is unknown: ${refreshAdvice(state)} to record it, then audit again`;
    }
  }
  for (const { organization, stacks, webhooks, domains } of reached) {
    for (const state of stacks) {
      if (!state.objects.some((o) => o.organization === organization)) {
        return `${state.source}: the state of ${state.label} holds no Webhook or Domain of organization ${organization}, so against it every object of ${organization} looks orphaned: give the states of the stacks that manage ${organization}'s objects, and leave this one out`;
      }
    }
    const owners = [
      ...webhooks.items.map((w) => [w.webhook_uuid, w.webhook_owner?.organization.name] as const),
      ...domains.items.map((d) => [d.domain_uuid, d.domain_owner?.organization.name] as const),
    ];
    const seen = new Set<string>();
    for (const [uuid, owner] of owners) {
      if (seen.has(uuid) || owner !== organization) {
        return `the listing of organization ${organization} ${seen.has(uuid) ? `shows ${uuid} twice` : `shows ${uuid} as ${owner === undefined ? "owned by no organization" : `organization ${owner}'s`}`}, so it cannot be matched one to one with the states: audit again, and report it to the service if it persists`;
      }
      seen.add(uuid);
    }
  }
  return undefined;
}

/** The orphans --orphan names (all of them when it names none); a uuid that is not an orphan is refused. */
function chosenOrphans(
  all: readonly Orphan[],
  audits: readonly OrganizationAudit[],
  named: readonly string[],
) {
  if (named.length === 0) return all;
  for (const uuid of named) {
    if (all.some((o) => o.object.uuid === uuid)) continue;
    const found = audits.flatMap((a) => [...a.webhooks, ...a.domains]).find((o) => o.uuid === uuid);
    throw refused(
      `--orphan ${uuid} is ${found ? `${found.status}, not orphaned` : "not an active webhook or registered domain of the organizations audited"}: give only uuids the report lists as orphaned`,
    );
  }
  return all.filter((o) => named.includes(o.object.uuid));
}

/** How a line names an orphan: its kind, uuid, organization, and what a reader recognises it by. */
function described({ organization, kind, object }: Orphan): string {
  const what =
    kind === "webhook"
      ? `${printable((object as AuditedWebhook).endpoint ?? "no endpoint")}, channel ${printable((object as AuditedWebhook).channel ?? "kept secret")}`
      : printable((object as AuditedDomain).domainName ?? "no name");
  return `${kind} ${printable(object.uuid)} of organization ${printable(organization)}: ${what}`;
}

/**
 * Deactivates the orphans of each organization (webhooks first: a domain may be their host), once the
 * picture is whole, the choice and the cap allow it, and each orphan has been named on stderr.
 */
async function deactivateOrphans(
  audits: readonly OrganizationAudit[],
  reached: readonly Reached[],
  states: readonly StackState[],
  io: CommandIo,
  choice: {
    readonly confirmed: boolean;
    readonly named: readonly string[];
    readonly max: number | undefined;
  },
): Promise<AuditDocument["deactivated"]> {
  const done = { webhooks: [] as string[], domains: [] as string[] };
  const all = audits.flatMap((audit, i) =>
    (["webhook", "domain"] as const).flatMap((kind) =>
      (kind === "webhook" ? audit.webhooks : audit.domains)
        .filter((o: AuditedWebhook | AuditedDomain) => o.status === "orphaned")
        .map(
          (object): Orphan => ({
            organization: audit.organization,
            client: reached[i]!.client,
            kind,
            object,
          }),
        ),
    ),
  );
  const orphans = chosenOrphans(all, audits, choice.named);
  if (orphans.length === 0) return done;
  const cause = unwhole(reached, states);
  if (cause) throw refused(cause);
  if (choice.max !== undefined && orphans.length > choice.max) {
    throw refused(
      `${orphans.length} orphans would be deactivated, more than --max-deactivations ${choice.max}: read the report, then name the ones to deactivate with --orphan <uuid>`,
    );
  }
  for (const orphan of orphans) io.stderr(`To deactivate: ${described(orphan)}.\n`);
  const hooks = orphans.filter((o) => o.kind === "webhook").length;
  const domains = orphans.length - hooks;
  const question = `Deactivate the ${hooks} webhook${hooks === 1 ? "" : "s"} and ${domains} domain${domains === 1 ? "" : "s"} named above? There is no way back.`;
  if (!choice.confirmed && !(await io.confirm(question))) {
    io.stderr("Nothing was deactivated: answer yes at the prompt, or give --yes.\n");
    return done;
  }
  for (const orphan of orphans) {
    const { client, kind, object } = orphan;
    try {
      if (kind === "webhook") await client.webhooks.deactivate(object.uuid);
      else await client.domains.deactivate(object.uuid);
    } catch (error) {
      throw new CliFailure(
        `${described(orphan)}: deactivating it failed: ${(error as Error).message} (deactivated before it: ${[...done.webhooks, ...done.domains].join(", ") || "none"}).`,
      );
    }
    (kind === "webhook" ? done.webhooks : done.domains).push(object.uuid);
    io.stderr(`Deactivated ${described(orphan)}.\n`);
  }
  return done;
}

/** Writes the import file of the orphans at `path` (`given` as the flag named it), and says what is next. */
function writeImportFile(
  path: string,
  given: string,
  audits: readonly OrganizationAudit[],
  states: readonly StackState[],
  io: CommandIo,
): void {
  const adoption = adoptionOf(audits, states);
  if (!adoption) {
    io.stderr(`Nothing to adopt: no webhook or domain is in no state. ${given} was not written.\n`);
    return;
  }
  try {
    writeFileSync(path, `${JSON.stringify(adoption.file, null, 2)}\n`);
  } catch (error) {
    throw new CliFailure(
      `service-pulumi audit --import-file ${given}: could not write it: ${(error as Error).message}. Give a path in a folder you can write to.`,
    );
  }
  for (const line of adoptionLines(given, adoption)) io.stderr(`${line}\n`);
}

/** Runs audit with `argv` (the arguments after `audit`); resolves to the exit code. */
export async function runAudit(
  argv: readonly string[],
  io: CommandIo,
  settings: Settings = resolveSettings({}),
): Promise<number> {
  const { values, help } = parseCommand(auditCommand, argv);
  if (help) {
    io.stdout(auditCommand.help);
    return EXIT.clean;
  }
  if (!values.state?.length && namedStacks(values).length === 0) {
    throw new CliFailure(
      "service-pulumi audit: no stacks to audit: give --state <export.json> (repeatable) or --stacks dev,staging in the project folder.",
    );
  }
  if (values["import-file"] !== undefined && values["deactivate-orphans"]) {
    throw new CliFailure(
      "service-pulumi audit: --import-file adopts the orphans and --deactivate-orphans deactivates them: give one of them.",
    );
  }
  for (const [flag, given] of [
    ["--yes", values.yes],
    ["--orphan", values.orphan?.length],
    ["--max-deactivations", values["max-deactivations"] !== undefined],
  ] as const) {
    if (given && !values["deactivate-orphans"]) {
      throw new CliFailure(
        `service-pulumi audit: ${flag} goes with --deactivate-orphans: give both, or neither.`,
      );
    }
  }
  const maxText = values["max-deactivations"];
  const max = maxText === undefined ? undefined : Number(maxText);
  if (maxText !== undefined && !/^\d+$/.test(maxText)) {
    throw new CliFailure(
      `service-pulumi audit: --max-deactivations ${maxText} is not a count: give a whole number, 0 or more.`,
    );
  }
  // Registered as secrets before any file is read, child process run or request sent.
  const flags = credentialFlags(values, settings);
  const stacks = await loadStacks(values, io, flags);
  const reached = await reachOrganizations(stacks, io);
  const states = stacks.map((s) => s.state);
  const audits = reached.map((r) => auditOrganization(r, states));
  const importFile = values["import-file"];
  if (importFile !== undefined) writeImportFile(resolve(io.cwd, importFile), importFile, audits, states, io);
  let deactivated: AuditDocument["deactivated"] = { webhooks: [], domains: [] };
  // A refusal still prints the report: it is what the refusal asks the reader to look at.
  let refusal: DeactivationRefused | undefined;
  if (values["deactivate-orphans"]) {
    try {
      deactivated = await deactivateOrphans(audits, reached, states, io, {
        confirmed: values.yes === true,
        named: values.orphan ?? [],
        max,
      });
    } catch (error) {
      if (!(error instanceof DeactivationRefused)) throw error;
      refusal = error;
    }
  }
  const gone = new Set([...deactivated.webhooks, ...deactivated.domains]);
  const left = audits
    .flatMap((a) => [...a.webhooks, ...a.domains])
    .filter((o) => FINDINGS.includes(o.status) && !gone.has(o.uuid));
  const exitCode = refusal ? EXIT.failure : left.length > 0 ? EXIT.findings : EXIT.clean;
  const document: AuditDocument = {
    version: 1,
    organizations: audits,
    deactivated,
    summary: summaryOf(audits),
    exitCode,
  };
  io.stdout(values.json ? `${JSON.stringify(document, null, 2)}\n` : auditMarkdown(document));
  if (refusal) throw refusal;
  return exitCode;
}
