/** The audit as Markdown: per organization its quota, then each webhook and domain with its status. */
import type { AuditedDomain, AuditedWebhook, Holder, OrganizationAudit, Status } from "./audit-model";

/** The audit as `--json` prints it: a stable document. */
export interface AuditDocument {
  /** The document's format version. */
  readonly version: 1;
  readonly organizations: readonly OrganizationAudit[];
  /** What --deactivate-orphans deactivated, by uuid. */
  readonly deactivated: { readonly webhooks: readonly string[]; readonly domains: readonly string[] };
  /** How many objects have each status. */
  readonly summary: Readonly<Record<Status, number>>;
  /** 0 clean, 1 something left orphaned, conflicting or drifted. */
  readonly exitCode: number;
}

const holders = (stacks: readonly Holder[]) =>
  stacks.length === 0 ? "" : `, in ${stacks.map((h) => `${h.stack} (\`${h.name}\`)`).join(" and ")}`;

function details(object: AuditedWebhook | AuditedDomain, kind: string): string[] {
  return [
    ...(object.next ? [`  - ${object.next}.`] : []),
    ...(object.adopt
      ? [
          `  - adopt with the provider plugin: \`${object.adopt.plugin}\``,
          `  - adopt with the TypeScript ${kind}: \`${object.adopt.typescript}\``,
        ]
      : []),
  ];
}

function organizationLines(org: OrganizationAudit, deactivated: ReadonlySet<string>): string[] {
  const gone = (uuid: string) => (deactivated.has(uuid) ? " (deactivated now)" : "");
  const webhooks = org.webhooks.flatMap((w) => [
    `- **${w.status}** webhook \`${w.uuid}\`${gone(w.uuid)}: ${w.endpoint ?? "no endpoint recorded"}, ${w.delivers}${holders(w.stacks)}`,
    ...details(w, "Webhook"),
  ]);
  const domains = org.domains.flatMap((d) => [
    `- **${d.status}** domain ${d.domainName ?? "(no name recorded)"} \`${d.uuid}\`${gone(d.uuid)}${holders(d.stacks)}`,
    ...details(d, "Domain"),
  ]);
  return [
    `## Organization ${org.organization}`,
    "",
    `**Quota:** ${org.quota.used} of ${org.quota.limit} webhooks active. Stacks: ${org.stacks.join(", ")}. Listed in ${org.requests.webhooks} request${org.requests.webhooks === 1 ? "" : "s"} for webhooks and ${org.requests.domains} for domains (pages of 20).`,
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
      ? "Clean: every active webhook and registered domain is in exactly one stack's state, and every one in a state is active."
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
