/**
 * The report `service-pulumi audit` prints for the scenario the in-process test (test/provider/cli/) and
 * the real engine's (test/e2e/) both build: in organization acme, 3 of 10 webhooks active, one
 * conflicting, one orphaned and one drifted, and HOST's domain registered but in no stack's state.
 */
import { HOST } from "./fixtures";

/** The lines of that report, given the stacks it names, its webhook lines and the domain's uuid. */
export function oneOfEachAuditReport(report: {
  /** The stacks as the report names them, `project/stack`, in their order. */
  readonly stacks: readonly string[];
  /** The webhooks section's lines, as each test's webhooks word them. */
  readonly webhooks: readonly string[];
  /** The uuid of HOST's domain. */
  readonly domainUuid: string;
}): string[] {
  return [
    "# Audit",
    "",
    "## Organization `acme`",
    "",
    `**Quota:** 3 of 10 webhooks active. Stacks: ${report.stacks.map((stack) => `\`${stack}\``).join(", ")}. Listed in 1 request for webhooks and 1 for domains (pages of 20).`,
    "",
    "### Webhooks",
    "",
    ...report.webhooks,
    "",
    "### Domains",
    "",
    `- **unmanaged** domain \`${HOST}\` \`${report.domainUuid}\``,
    "  - in no stack's state, but the host of 2 active webhooks the stacks keep: adopt it.",
    `  - adopt with the provider plugin: \`pulumi import service:index:DomainVerification hooks ${HOST}\``,
    `  - adopt with the TypeScript Domain: \`new Domain("hooks", { domainName: "${HOST}", adopt: true })\``,
    "",
    "## Result",
    "",
    "1 conflicting, 1 orphaned, 1 drifted. Exit code 1.",
    "",
  ];
}
