/**
 * The review as Markdown, for a pull-request comment: one section per organization, then per stack. Each
 * value from the previews is a code span (untrusted.ts), so that the comment shows it and renders nothing
 * of it: a pull request's author chose it. A report longer than a comment holds becomes a summary.
 */
import type { ChangeReview, OrganizationReview, QuotaReview, Review, StackReview } from "./review-model";
import { codeSpan } from "./untrusted";

/** The most characters a GitHub comment holds. */
export const COMMENT_LIMIT = 65_536;

const OP_WORDS: Readonly<Record<ChangeReview["op"], string>> = {
  create: "Create",
  replace: "Replace",
  update: "Update",
  delete: "Delete",
};
const KIND_WORDS = { webhook: "Webhook", domain: "Domain" } as const;
const TITLE = "# Webhook and Domain review";
const plural = (n: number, one: string) => `${n.toLocaleString("en")} ${one}${n === 1 ? "" : "s"}`;

/** The quota in a sentence or two, without the list of unknown webhooks. */
function quotaHead(quota: QuotaReview): string[] {
  const from =
    quota.source === "live"
      ? "Counted from a listing of the organization's active webhooks (--live)."
      : "Counted from the stacks in this report; webhooks they do not hold are not counted (add --live to list them).";
  if (quota.after === null || quota.peak === null) return [`**Quota:** not known: ${quota.missing}.`];
  const left = quota.limit - quota.after;
  const over = quota.peak > quota.limit ? ` — more than ${quota.limit}: a create would be refused` : "";
  return [
    `**Quota:** ${quota.after} of ${quota.limit} webhooks after the change (${left < 0 ? `${-left} over` : `${left} left`}); up to ${quota.peak} of ${quota.limit} while the update runs${over}. ${from}`,
    ...(quota.missing ? [`Note: ${quota.missing}.`] : []),
  ];
}

function quotaLines(quota: QuotaReview): string[] {
  const unknown = quota.unknownToStacks;
  if (unknown.length === 0) return quotaHead(quota);
  return [
    ...quotaHead(quota),
    "",
    `Active webhooks that none of these stacks knows of (${unknown.length}):`,
    ...unknown.map(
      (w) =>
        `- ${codeSpan(w.uuid)}: ${w.endpoint === null ? "no endpoint" : codeSpan(w.endpoint)}, ${w.delivers}`,
    ),
  ];
}

function changeLines(change: ChangeReview, lines: string[]): void {
  const reasons = change.replaceReasons.length
    ? `, forced by ${change.replaceReasons.map((reason) => codeSpan(reason)).join(", ")}`
    : "";
  const order = change.order ? ` (${change.order})` : "";
  lines.push(
    `- **${OP_WORDS[change.op]}** ${KIND_WORDS[change.kind]} ${codeSpan(change.name)}${reasons}${order}`,
  );
  for (const line of change.impact) lines.push(`  - ${line}`);
}

function stackLines(stack: StackReview, lines: string[]): void {
  lines.push(`### ${codeSpan(stack.stack)}`, "");
  for (const change of stack.changes) changeLines(change, lines);
  // A step one is told on its Webhook's replace; the other rotations (a step two) change no Webhook.
  const onChanges = new Set(stack.changes.filter((c) => c.rotationStep !== null).map((c) => c.name));
  const apart = stack.rotations.filter((r) => r.webhook === null || !onChanges.has(r.webhook));
  for (const rotation of apart) {
    lines.push(`- **Rotation** ${codeSpan(rotation.rotation ?? rotation.webhook ?? "")}`);
    for (const line of rotation.impact) lines.push(`  - ${line}`);
  }
  if (stack.changes.length === 0 && apart.length === 0) lines.push("- No Webhook or Domain changes.");
  lines.push(
    stack.unchanged
      ? `- Unchanged: ${plural(stack.unchanged.webhooks, "Webhook")}, ${plural(stack.unchanged.domains, "Domain")}.`
      : "- Unchanged: not known (the preview was made without `--show-sames`).",
  );
}

/** "## Organization `acme`", or which stack's organization it is when nothing names it. */
const organizationHeading = (org: OrganizationReview) =>
  org.named
    ? `## Organization ${codeSpan(org.organization)}`
    : `## Organization of ${codeSpan(org.stacks[0]?.stack ?? "")}, which has no webhook or domain yet`;

/**
 * The full report's lines. They are pushed one by one onto one array: a stack may have 100,000 changes,
 * more than one call's arguments may spread.
 */
function reportLines(review: Review): string[] {
  const lines = [TITLE];
  for (const org of review.organizations) {
    lines.push("", organizationHeading(org), "");
    for (const line of quotaLines(org.quota)) lines.push(line);
    for (const stack of org.stacks) {
      lines.push("");
      stackLines(stack, lines);
    }
  }
  return lines;
}

/** The review as Markdown, ending with one newline. */
export function reviewMarkdown(review: Review): string {
  return `${reportLines(review).join("\n")}\n`;
}

/** "- `infra/dev`: 3 creates, 1 replace; its 4 changes are left out of this summary." */
function stackSummary(stack: StackReview): string {
  if (stack.changes.length === 0) return `- ${codeSpan(stack.stack)}: no Webhook or Domain changes.`;
  const counts = (["create", "replace", "update", "delete"] as const)
    .map((op) => [op, stack.changes.filter((c) => c.op === op).length] as const)
    .filter(([, n]) => n > 0)
    .map(([op, n]) => plural(n, op));
  return `- ${codeSpan(stack.stack)}: ${counts.join(", ")}; ${stack.changes.length === 1 ? "its change is" : `its ${plural(stack.changes.length, "change")} are`} left out of this summary.`;
}

/**
 * The summary of a review whose full report is `fullLength` characters: per organization its quota, per
 * stack how many of each change. Organizations and stacks are listed while they fit under
 * COMMENT_LIMIT, with room kept for the closing lines; each line is bounded, since each value in it is
 * a truncated code span.
 */
function reviewSummary(review: Review, fullLength: number): string {
  const lines = [TITLE];
  // The closing lines take a few hundred characters; every other line is at most a few thousand.
  let room = COMMENT_LIMIT - 1000;
  const add = (more: readonly string[]) => {
    const length = more.reduce((sum, line) => sum + line.length + 1, 0);
    if (length > room) return false;
    room -= length;
    lines.push(...more);
    return true;
  };
  let organizationsLeft = review.organizations.length;
  let stacksLeft = review.organizations.reduce((sum, org) => sum + org.stacks.length, 0);
  listing: for (const org of review.organizations) {
    const unknown = org.quota.unknownToStacks.length;
    const head = [
      "",
      organizationHeading(org),
      "",
      ...quotaHead(org.quota),
      ...(unknown > 0
        ? ["", `Active webhooks that none of these stacks knows of: ${unknown} (named in the full report).`]
        : []),
      "",
    ];
    if (!add(head)) break;
    organizationsLeft -= 1;
    for (const stack of org.stacks) {
      if (!add([stackSummary(stack)])) break listing;
      stacksLeft -= 1;
    }
  }
  const left = [
    ...(organizationsLeft > 0 ? [plural(organizationsLeft, "more organization")] : []),
    ...(stacksLeft > 0 ? [plural(stacksLeft, "more stack")] : []),
  ];
  if (left.length > 0) lines.push("", `Not listed here, for room: ${left.join(" and ")}.`);
  lines.push(
    "",
    `The full report is ${plural(fullLength, "character")}, more than a GitHub comment holds (${COMMENT_LIMIT.toLocaleString("en")}): run review with \`--format json\` for all of it as JSON, or with \`--output <file>\` to write the full Markdown report to a file.`,
  );
  return `${lines.join("\n")}\n`;
}

/**
 * The review as a GitHub comment: the full Markdown report (reviewMarkdown) when it is at most
 * COMMENT_LIMIT characters, else a summary of it that is, ending with a line that says how long the full
 * report is and how to get it (`--format json`, or `--output <file>`).
 */
export function reviewComment(review: Review): string {
  const lines = reportLines(review);
  // Its length, a newline after each line, without joining what a summary replaces.
  const length = lines.reduce((sum, line) => sum + line.length + 1, 0);
  return length <= COMMENT_LIMIT ? `${lines.join("\n")}\n` : reviewSummary(review, length);
}
