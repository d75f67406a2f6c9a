/**
 * `service-pulumi audit`: every active webhook and registered domain of each organization, checked
 * against the stacks' states (managed, conflict, orphaned, drifted), the quota used, the commands that
 * adopt each orphan, and on request the orphans deactivated. Exit 0 clean, 1 findings, 2 failure.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Domain } from "../../contract/domains/types";
import type { Webhook } from "../../contract/webhooks/types";
import type { ServiceClient } from "../client/client";
import { redact } from "../context/process";
import { credentialKey } from "../lifecycle/clients";
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
import { type CredentialFlags, clientForStack, configInFolder } from "./credentials";
import { CliFailure, EXIT } from "./failure";
import type { CommandIo } from "./io";
import { type Listing, listDomains, listWebhooks, organizationListed } from "./listing";
import { exportStack, projectIn, stackConfig } from "./pulumi-cli";
import { readState, type StackState } from "./state-export";

const auditCommand = {
  name: "audit",
  positionals: false,
  options: {
    state: { type: "string", multiple: true },
    stacks: { type: "string" },
    cwd: { type: "string" },
    token: { type: "string" },
    "base-url": { type: "string" },
    json: { type: "boolean", default: false },
    "deactivate-orphans": { type: "boolean", default: false },
    yes: { type: "boolean", short: "y", default: false },
  },
  help: `Usage: service-pulumi audit (--state export.json ... | --stacks dev,staging,prod) [options]

Lists every active webhook and registered domain of each organization the stacks reach (one listing of
each, pages of 20 at 10 requests per second) and classifies it against the stacks' states:
  managed    in exactly one stack's state
  conflict   in two or more
  orphaned   in none, eating quota (with the commands that adopt it)
  drifted    in a state but no longer active or registered: that stack needs \`pulumi refresh\`
  unmanaged  a domain in no state that webhooks the stacks keep still target (reported, not a finding)
and prints the quota used, n of 10.

Stacks:
  --state <file>          A state from \`pulumi stack export\` (repeatable).
  --stacks <a,b,...>      Stacks of the Pulumi project in --cwd, exported with your Pulumi CLI and backend.
  --cwd <dir>             The project folder (default: .). A --state of another project than the folder's
                          is refused.

Credentials, resolved as the provider resolves them:
  --token <token>         The API token. Else the stack's service:token (with --stacks, or a --state in its
                          project's folder); else SERVICE_API_TOKEN.
  --base-url <url>        The API base URL. Else the stack's service:baseUrl, SERVICE_BASE_URL, or the
                          local sandbox.

Output and actions:
  --json                  A stable JSON document instead of Markdown.
  --deactivate-orphans    Deactivate the orphaned webhooks (and domains no kept webhook targets), after a
                          confirmation. Managed and conflicting ones are never touched.
  -y, --yes               Confirm --deactivate-orphans without asking.
  -h, --help              This help.

Exit codes: 0 clean; 1 something is orphaned, conflicting or drifted; 2 a usage, input, credential or API
error (one line on stderr).
`,
} as const;

/** A stack to audit: its state and the client its credentials make. */
interface AuditedStack {
  readonly state: StackState;
  readonly client: ServiceClient;
}

function readStateFile(
  file: string,
  io: CommandIo,
  folderProject: string | undefined,
  cwd: string,
): StackState {
  let text: string;
  try {
    text = readFileSync(resolve(io.cwd, file), "utf8");
  } catch (error) {
    throw new CliFailure(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): give a file written by \`pulumi stack export --stack <name> > ${file}\`.`,
    );
  }
  const state = readState(file, text);
  if (folderProject !== undefined && state.project !== folderProject) {
    throw new CliFailure(
      `${file}: the state of ${state.label}, of project ${state.project}, but ${cwd} is project ${folderProject}'s folder: give a state of ${folderProject}, or run in ${state.project}'s folder (--cwd).`,
    );
  }
  return state;
}

function loadStacks(values: Record<string, unknown>, io: CommandIo, flags: CredentialFlags): AuditedStack[] {
  const cwd = resolve(io.cwd, (values.cwd as string | undefined) ?? ".");
  const folderProject = projectIn(cwd);
  const stacks: AuditedStack[] = [];
  for (const file of (values.state as string[] | undefined) ?? []) {
    const state = readStateFile(file, io, folderProject, cwd);
    // In its project's folder, a state's stack config gives its credentials, as it does the provider's.
    const config = flags.token === undefined ? configInFolder(cwd, state, io) : undefined;
    stacks.push({ state, client: clientForStack(state.label, flags, config ?? {}) });
  }
  const names = ((values.stacks as string | undefined) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length > 0 && folderProject === undefined) {
    throw new CliFailure(
      `service-pulumi audit: --stacks reads the project in ${cwd}, which holds no Pulumi.yaml: run in the project folder, or give --cwd <folder>.`,
    );
  }
  for (const stack of names) {
    const label = `${folderProject}/${stack}`;
    const state = readState(`stack ${stack}`, exportStack(cwd, stack, label), {
      project: folderProject!,
      stack,
    });
    stacks.push({ state, client: clientForStack(label, flags, stackConfig(cwd, stack, label)) });
  }
  for (const [i, { state }] of stacks.entries()) {
    const twin = stacks
      .slice(0, i)
      .find((s) => s.state.source === state.source && s.state.label === state.label);
    if (twin) {
      throw new CliFailure(`${state.source}: given twice: give each stack once.`);
    }
  }
  // A state imported from another stack keeps that stack's name in its URNs: its file tells them apart.
  return stacks.map((s) =>
    stacks.filter((o) => o.state.label === s.state.label).length > 1
      ? { ...s, state: { ...s.state, label: `${s.state.label} (${s.state.source})` } }
      : s,
  );
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
      `${state.source}: the token reaches an organization with no active webhook and no registered domain, but ${state.label}'s state holds ${state.objects.length} of ${owner}'s: ${refer(owner)}, or, if they were all deactivated out of band, run \`pulumi refresh --stack ${state.stack}\` in project ${state.project}'s folder.`,
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

/** Deactivates the orphans of each organization (webhooks first: a domain may be their host). */
async function deactivateOrphans(
  audits: readonly OrganizationAudit[],
  reached: readonly Reached[],
  io: CommandIo,
  confirmed: boolean,
): Promise<AuditDocument["deactivated"]> {
  const done = { webhooks: [] as string[], domains: [] as string[] };
  const orphans = audits.flatMap((audit, i) =>
    (["webhook", "domain"] as const).flatMap((kind) =>
      (kind === "webhook" ? audit.webhooks : audit.domains)
        .filter((o: AuditedWebhook | AuditedDomain) => o.status === "orphaned")
        .map((object) => ({ audit, client: reached[i]!.client, kind, object })),
    ),
  );
  if (orphans.length === 0) return done;
  const names = [...new Set(orphans.map((o) => o.audit.organization))].join(", ");
  const question = `Deactivate ${orphans.length} orphaned webhook(s) and domain(s) of ${names}? There is no way back.`;
  if (!confirmed && !(await io.confirm(question))) {
    io.stderr("Nothing was deactivated: answer yes at the prompt, or give --yes.\n");
    return done;
  }
  for (const { audit, client, kind, object } of orphans) {
    try {
      if (kind === "webhook") await client.deactivateWebhook(object.uuid);
      else await client.deactivateDomain(object.uuid);
    } catch (error) {
      throw new CliFailure(
        `${kind} ${object.uuid} of organization ${audit.organization}: deactivating it failed: ${redact((error as Error).message)} (deactivated before it: ${[...done.webhooks, ...done.domains].join(", ") || "none"}).`,
      );
    }
    (kind === "webhook" ? done.webhooks : done.domains).push(object.uuid);
    io.stderr(`Deactivated ${kind} ${object.uuid} of organization ${audit.organization}.\n`);
  }
  return done;
}

/** Runs audit with `argv` (the arguments after `audit`); resolves to the exit code. */
export async function runAudit(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, help } = parseCommand(auditCommand, argv);
  if (help) {
    io.stdout(auditCommand.help);
    return EXIT.clean;
  }
  if (!values.state?.length && !values.stacks) {
    throw new CliFailure(
      "service-pulumi audit: no stacks to audit: give --state <export.json> (repeatable) or --stacks dev,staging in the project folder.",
    );
  }
  if (values.yes && !values["deactivate-orphans"]) {
    throw new CliFailure("service-pulumi audit: --yes confirms --deactivate-orphans: give both, or neither.");
  }
  const flags = { token: values.token, baseUrl: values["base-url"] };
  const stacks = loadStacks(values, io, flags);
  const reached = await reachOrganizations(stacks, io);
  const states = stacks.map((s) => s.state);
  const audits = reached.map((r) => auditOrganization(r, states));
  const deactivated = values["deactivate-orphans"]
    ? await deactivateOrphans(audits, reached, io, values.yes === true)
    : { webhooks: [], domains: [] };
  const gone = new Set([...deactivated.webhooks, ...deactivated.domains]);
  const left = audits
    .flatMap((a) => [...a.webhooks, ...a.domains])
    .filter((o) => FINDINGS.includes(o.status) && !gone.has(o.uuid));
  const exitCode = left.length > 0 ? EXIT.findings : EXIT.clean;
  const document: AuditDocument = {
    version: 1,
    organizations: audits,
    deactivated,
    summary: summaryOf(audits),
    exitCode,
  };
  io.stdout(values.json ? `${JSON.stringify(document, null, 2)}\n` : auditMarkdown(document));
  return exitCode;
}
