/**
 * Review at size (issue 46): a preview of 100,000 steps is reviewed end to end, every change counted (how
 * long it takes is measured by `npm run bench:review`, not here); and the report as a GitHub comment
 * (reviewComment) is the full report when it fits in 65,536 characters, else a summary that fits whatever
 * the input, and says how to get the rest.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { OrganizationReview, Review, StackReview } from "../../../provider/cli/review-model";
import { COMMENT_LIMIT, reviewComment, reviewMarkdown } from "../../../provider/cli/review-render";
import { webhook } from "../../../provider/registry";
import { runCli } from "../../helpers/cli-io";

const dir = mkdtempSync(join(tmpdir(), "cli-review-size-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLOSING =
  /\nThe full report is [\d,]+ characters, more than a GitHub comment holds \(65,536\): run review with `--format json` for all of it as JSON, or with `--output <file>` to write the full Markdown report to a file\.\n$/;

/** One stack's preview of `steps` Webhook steps: creates, replaces, updates, deletes and sames in turn. */
function bigPreview(steps: number): { file: string; counts: Record<string, number> } {
  const ops = ["create", "replace", "update", "delete", "same"] as const;
  const counts: Record<string, number> = {};
  const state = (name: string, i: number, channel = name) => ({
    urn: `urn:pulumi:dev::infra::${webhook.token}::${name}`,
    type: webhook.token,
    id: `uuid-${i}`,
    inputs: { endpoint: "https://hooks.acme.test/e", channel },
    outputs: { webhookUuid: `uuid-${i}`, owner: { organization: "acme" } },
  });
  const list = Array.from({ length: steps }, (_, i) => {
    const op = ops[i % ops.length]!;
    counts[op] = (counts[op] ?? 0) + 1;
    const name = `hook-${i}`;
    return {
      op,
      urn: state(name, i).urn,
      ...(op === "create"
        ? {}
        : { oldState: { ...state(name, i), ...(op === "replace" ? { delete: true } : {}) } }),
      ...(op === "delete" ? {} : { newState: state(name, i, op === "replace" ? `${name}-v2` : name) }),
      ...(op === "replace" ? { replaceReasons: ["channel"] } : {}),
    };
  });
  const file = join(dir, `preview-${steps}.json`);
  writeFileSync(file, JSON.stringify({ steps: list, changeSummary: counts }));
  return { file, counts };
}

describe("review of a preview of 100,000 steps", () => {
  it("counts every change and the quota, and comments a summary that fits", async () => {
    const { file, counts } = bigPreview(100_000);
    const run = await runCli(["review", "--format", "json", file]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const review = JSON.parse(run.stdout) as Review;
    const [org] = review.organizations;
    expect(org!.organization).toBe("acme");
    const changes = org!.stacks[0]!.changes;
    for (const op of ["create", "replace", "update", "delete"] as const) {
      expect(changes.filter((c) => c.op === op)).toHaveLength(counts[op]!);
    }
    expect(org!.stacks[0]!.unchanged).toEqual({ webhooks: counts.same, domains: 0 });
    expect(org!.quota).toMatchObject({ after: 80_000, peak: 120_000 });

    const comment = reviewComment(review);
    expect(comment.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(comment).toContain(
      "- `infra/dev`: 20,000 creates, 20,000 replaces, 20,000 updates, 20,000 deletes; its 80,000 changes are left out of this summary.",
    );
    expect(comment).toMatch(CLOSING);
    expect(comment).toContain(
      `The full report is ${reviewMarkdown(review).length.toLocaleString("en")} characters`,
    );
  });
});

const quota = (missing: string | null): OrganizationReview["quota"] => ({
  limit: 10,
  source: "stacks",
  after: missing ? null : 3,
  peak: missing ? null : 4,
  unknownToStacks: [],
  missing,
});

const stack = (label: string, changes: number): StackReview => ({
  stack: label,
  file: `${label}.json`,
  changes: Array.from({ length: changes }, (_, i) => ({
    kind: "webhook" as const,
    op: "create" as const,
    name: `${label}-${i}`,
    replaceReasons: [],
    order: undefined,
    rotationStep: null,
    impact: [`\`https://hooks.acme.test/${i}\` starts receiving all records on channel \`${i}\`.`],
  })),
  rotations: [],
  unchanged: { webhooks: 1, domains: 0 },
});

describe("the review as a GitHub comment", () => {
  it("is the full report when it fits", () => {
    const review: Review = {
      version: 1,
      organizations: [
        { organization: "acme", named: true, quota: quota(null), stacks: [stack("infra/dev", 3)] },
      ],
    };
    expect(reviewComment(review)).toBe(reviewMarkdown(review));
  });

  it("stays under 65,536 characters whatever the input, and counts the organizations and stacks it leaves out", () => {
    const long = (n: number) => `${"x".repeat(5000)}-${n}`;
    const organizations: OrganizationReview[] = Array.from({ length: 300 }, (_, o) => ({
      organization: long(o),
      named: o % 2 === 0,
      quota: quota(`the preview of \`${"y".repeat(3000)}\` was made without \`--show-sames\``),
      stacks: Array.from({ length: 40 }, (_, s) => stack(long(s), 2)),
    }));
    const comment = reviewComment({ version: 1, organizations });
    expect(comment.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(comment).toMatch(CLOSING);
    const listedOrganizations = comment.match(/^## Organization/gm)!.length;
    const listedStacks = comment.match(/^- `/gm)!.length;
    expect(listedOrganizations).toBeGreaterThan(0);
    expect(comment).toContain(
      `Not listed here, for room: ${300 - listedOrganizations} more organizations and ${(300 * 40 - listedStacks).toLocaleString("en")} more stacks.`,
    );
  });
});
