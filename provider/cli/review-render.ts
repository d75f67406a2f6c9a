/** The review as Markdown, for a pull-request comment: one section per organization, then per stack. */
import type { ChangeReview, OrganizationReview, QuotaReview, Review, StackReview } from "./review-model";

const OP_WORDS: Readonly<Record<ChangeReview["op"], string>> = {
  create: "Create",
  replace: "Replace",
  update: "Update",
  delete: "Delete",
};
const KIND_WORDS = { webhook: "Webhook", domain: "Domain" } as const;
const code = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(", ");
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function quotaLines(quota: QuotaReview): string[] {
  const from =
    quota.source === "live"
      ? "Counted from a listing of the organization's active webhooks (--live)."
      : "Counted from the stacks in this report; webhooks they do not hold are not counted (add --live to list them).";
  const lines: string[] = [];
  if (quota.after === null || quota.peak === null) {
    lines.push(`**Quota:** not known: ${quota.missing}.`);
  } else {
    const left = quota.limit - quota.after;
    const over = quota.peak > quota.limit ? ` — more than ${quota.limit}: a create would be refused` : "";
    lines.push(
      `**Quota:** ${quota.after} of ${quota.limit} webhooks after the change (${left < 0 ? `${-left} over` : `${left} left`}); up to ${quota.peak} of ${quota.limit} while the update runs${over}. ${from}`,
    );
    if (quota.missing) lines.push(`Note: ${quota.missing}.`);
  }
  if (quota.unknownToStacks.length > 0) {
    lines.push("", `Active webhooks that none of these stacks knows of (${quota.unknownToStacks.length}):`);
    for (const w of quota.unknownToStacks) lines.push(`- \`${w.uuid}\`: ${w.endpoint}, ${w.delivers}`);
  }
  return lines;
}

function changeLines(change: ChangeReview): string[] {
  const reasons = change.replaceReasons.length ? `, forced by ${code(change.replaceReasons)}` : "";
  const order = change.order ? ` (${change.order})` : "";
  return [
    `- **${OP_WORDS[change.op]}** ${KIND_WORDS[change.kind]} \`${change.name}\`${reasons}${order}`,
    ...change.impact.map((line) => `  - ${line}`),
  ];
}

function stackLines(stack: StackReview): string[] {
  const unchanged = stack.unchanged
    ? `- Unchanged: ${plural(stack.unchanged.webhooks, "Webhook")}, ${plural(stack.unchanged.domains, "Domain")}.`
    : "- Unchanged: not known (the preview was made without `--show-sames`).";
  const changes = stack.changes.length
    ? stack.changes.flatMap(changeLines)
    : ["- No Webhook or Domain changes."];
  return [`### ${stack.stack}`, "", ...changes, unchanged];
}

function organizationLines(org: OrganizationReview): string[] {
  return [
    `## Organization ${org.organization}`,
    "",
    ...quotaLines(org.quota),
    "",
    ...org.stacks.flatMap((s) => [...stackLines(s), ""]),
  ];
}

/** The review as Markdown, ending with one newline. */
export function reviewMarkdown(review: Review): string {
  const lines = ["# Webhook and Domain review", "", ...review.organizations.flatMap(organizationLines)];
  return `${lines.join("\n").trimEnd()}\n`;
}
