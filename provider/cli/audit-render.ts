/**
 * The audit as Markdown: per organization its quota, then each webhook and domain with its status. Each
 * value from the states and listings is a code span (untrusted.ts), and so is each suggested command or
 * snippet, shown whole or not at all.
 */
import type { AuditedDomain, AuditedWebhook, Holder, OrganizationAudit, Status } from "./audit-model";
import { codeSpan, MAX_COMMAND } from "./untrusted";

/** The audit as `--json` prints it: a stable document. */
export interface AuditDocument {
  /** The document's format version. */
  readonly version: 1;
  readonly organizations: readonly OrganizationAudit[];
  /** What --deactivate-orphans deactivated, by uuid. */
  readonly deactivated: { readonly webhooks: readonly string[]; readonly domains: readonly string[] };
  /** How many objects have each status. */
  readonly summary: Readonly<Record<Status, number>>;
  /** 0 clean, 1 something left orphaned, conflicting or drifted, 2 --deactivate-orphans refused (stderr says why). */
  readonly exitCode: number;
}

const holders = (stacks: readonly Holder[]) =>
  stacks.length === 0
    ? ""
    : `, in ${stacks.map((h) => `${codeSpan(h.stack)} (${codeSpan(h.name)}${h.adopted ? ", adopted" : ""})`).join(" and ")}`;

/** What the plugin's import needs of each kind, named when it cannot be shown in a command. */
const IMPORT_ID = { Webhook: "uuid", Domain: "hostname" } as const;

function details(object: AuditedWebhook | AuditedDomain, kind: "Webhook" | "Domain"): string[] {
  if (!object.adopt) return object.next ? [`  - ${object.next}.`] : [];
  const { plugin, typescript } = object.adopt;
  const id = IMPORT_ID[kind];
  return [
    ...(object.next ? [`  - ${object.next}.`] : []),
    plugin
      ? `  - adopt with the provider plugin: ${codeSpan(plugin, MAX_COMMAND)}`
      : `  - adopt with the provider plugin: \`pulumi import\` it with the ${id} that \`--json\` gives, which cannot be shown safely here.`,
    typescript.length <= MAX_COMMAND
      ? `  - adopt with the TypeScript ${kind}: ${codeSpan(typescript, MAX_COMMAND)}`
      : `  - adopt with the TypeScript ${kind}: the statement is too long to show here; \`--json\` gives it.`,
  ];
}

function organizationLines(org: OrganizationAudit, deactivated: ReadonlySet<string>): string[] {
  const gone = (uuid: string) => (deactivated.has(uuid) ? " (deactivated now)" : "");
  const webhooks = org.webhooks.flatMap((w) => [
    `- **${w.status}** webhook ${codeSpan(w.uuid)}${gone(w.uuid)}: ${w.secretEndpoint ? "a secret endpoint" : w.endpoint === undefined ? "no endpoint recorded" : codeSpan(w.endpoint)}, ${w.delivers}${holders(w.stacks)}`,
    ...details(w, "Webhook"),
  ]);
  const domains = org.domains.flatMap((d) => [
    `- **${d.status}** domain ${d.domainName === undefined ? "(no name recorded)" : codeSpan(d.domainName)} ${codeSpan(d.uuid)}${gone(d.uuid)}${holders(d.stacks)}`,
    ...details(d, "Domain"),
  ]);
  return [
    `## Organization ${codeSpan(org.organization)}`,
    "",
    `**Quota:** ${org.quota.used} of ${org.quota.limit} webhooks active. Stacks: ${org.stacks.map((s) => codeSpan(s)).join(", ")}. Listed in ${org.requests.webhooks} request${org.requests.webhooks === 1 ? "" : "s"} for webhooks and ${org.requests.domains} for domains (pages of 20).`,
    "",
    "### Webhooks",
    "",
    ...(webhooks.length ? webhooks : ["- None active, and none in the stacks."]),
    "",
    "### Domains",
    "",
    ...(domains.length ? domains : ["- None registered, and none in the stacks."]),
    "",
  ];
}

/** The audit as Markdown, ending with one newline. */
export function auditMarkdown(audit: AuditDocument): string {
  const deactivated = new Set([...audit.deactivated.webhooks, ...audit.deactivated.domains]);
  const found = (["conflict", "orphaned", "drifted"] as const)
    .map((status) => [status, audit.summary[status]] as const)
    .filter(([, n]) => n > 0);
  const words = { conflict: "conflicting", orphaned: "orphaned", drifted: "drifted" } as const;
  const result =
    found.length === 0
      ? "Clean: every active webhook and registered domain is in one stack's state (a shared domain in the state of the stack that registered it, and of those that adopted it), and every one in a state is active."
      : `${found.map(([status, n]) => `${n} ${words[status]}`).join(", ")}${deactivated.size ? `; ${deactivated.size} orphaned deactivated now` : ""}.`;
  const lines = [
    "# Audit",
    "",
    ...audit.organizations.flatMap((org) => organizationLines(org, deactivated)),
    "## Result",
    "",
    `${result} Exit code ${audit.exitCode}.`,
  ];
  return `${lines.join("\n")}\n`;
}
